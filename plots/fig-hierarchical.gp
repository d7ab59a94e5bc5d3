# fig-hierarchical.gp - the hierarchical instruction roofline of Ding and
# Williams (PMBS 2019), one panel per family: each operator point with
# counters at three instruction intensities (warp instructions per 32-byte
# sector at L1, at L2 and at DRAM, filled, open and cross symbols) against
# the same run's measured ceilings: l1_read, l2_read and dram_read as memory
# roofs (x times their G sectors/s), inst_issue and int_alu as instruction
# roofs. The memory walls of the paper, for a kernel of nothing but 4-byte
# warp loads: unit stride moves 4 sectors per warp request (x >= 1/4),
# random access 32 (x >= 1/32); no point lies left of the random wall.
# Where a point counted the L2's atomic requests (files of schema 10 on), a
# fourth marker: warp instructions per ATOM + RED request, against the
# atom_global ceiling (G requests/s, a roof of the same kind).
# Reads DATA/fig-hierarchical.dat: family variant inst_per_l1_sector
# inst_per_l2_sector inst_per_dram_sector gips inst_per_atomic (one block per
# family), -roofs.dat (name kind value: memory G sectors/s, compute G inst/s,
# atomic G requests/s), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-hierarchical.gp
fig = "fig-hierarchical"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
multi_panel = 1
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
NR = 0
array RN[8]; array RK[8]; array RV[8]
stats data."/".fig."-roofs.dat" using (NR = NR + 1, RN[NR] = strcol(1), RK[NR] = strcol(2), RV[NR] = $3, 0) nooutput
TOP = 0
do for [i = 1:NR] { if (RK[i] eq "compute" && RV[i] > TOP) { TOP = RV[i] } }
mroof(x, i) = (TOP > 0 && x * RV[i] > TOP) ? TOP : x * RV[i]
roof_at(x, i) = RK[i] eq "compute" ? RV[i] : mroof(x, i)
rdt(i) = RK[i] eq "memory" ? i : RK[i] eq "atomic" ? 5 : 4
rlw(i) = RK[i] eq "compute" ? 1.5 : 2
# the atomic marker takes its roof's colour (col(5) where the file has no atomic ceiling)
AI = 6
do for [i = 1:NR] { if (RK[i] eq "atomic") { AI = i } }
# its key entry only where some point has the intensity (read as text: stats skips a NaN row)
stats F using (strcol(7) eq "NaN" ? 0 : 1) nooutput
HAS_ATOM = STATS_sum > 0
# the y range reaches the slowest kernel (a projection to a slower GPU moves many below 1 G inst/s),
# a decade below the lowest one, never above 0.5
stats F using 6 nooutput
YMIN = STATS_min > 0 ? 10 ** floor(log10(STATS_min)) : 0.5
if (YMIN > 0.5) { YMIN = 0.5 }
# one panel per family and a cell for the shared key: 4 columns leave no
# empty cell for 7 families, 5 for 9 (8 families and the key in 4 columns
# took a third row for the key alone)
COLS = NB + 1 < 4 ? NB + 1 : NB + 1 <= 8 ? 4 : 5
ROWS = (NB + 1 + COLS - 1) / COLS
W = 440 * COLS + 60; H = 400 * ROWS + 130
# a kernel's L1, L2 and DRAM intensities share its G inst/s: a thin grey
# segment from the smallest to the largest links its three markers
mn(a, b, c) = a < b ? (a < c ? a : c) : (b < c ? b : c)
mx(a, b, c) = a > b ? (a > c ? a : c) : (b > c ? b : c)

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout ROWS, COLS margins 0.05, 0.98, 100.0 / H, 1 - 100.0 / H spacing 0.045, 90.0 / H \
        title sprintf("Which memory level limits each family's kernels? Hierarchical instruction roofline (Ding and Williams, PMBS 2019)\n{/*0.8 %s; each kernel's L1, L2 and DRAM intensity at its G inst/s, linked by a grey segment}", source) font ",12"
    unset label
    load gpdir."lib-footer.gp"
    set logscale xy
    set xrange [0.01:1000]
    set yrange [YMIN:5000]
    set format x "10^{%L}"
    set format y "10^{%L}"
    unset key
    set samples 300
    do for [b = 1:NB] {
        unset arrow
        set arrow from 1.0/32, graph 0 to 1.0/32, graph 1 nohead dt 2 lw 1.5 lc rgb "#aa3377"
        set arrow from 0.25, graph 0 to 0.25, graph 1 nohead dt 3 lw 1.5 lc rgb "#aa3377"
        # the walls are named above the panel's frame, clear of their lines, the roofs and the points
        # (rotated inside the panel they sat on their lines and on probe's and group-by's points)
        set label 11 "1/32" at 1.0/32, graph 1 center offset 0, 0.45 font ",8" tc rgb "#aa3377"
        set label 12 "1/4" at 0.25, graph 1 center offset 0, 0.45 font ",8" tc rgb "#aa3377"
        set title esc(SER[b]) font ",11"
        # two lines: one ran past the canvas under a last-column panel
        set xlabel (b > NB + 1 - COLS ? "warp instructions per sector (L1, L2, DRAM)\nor per L2 atomic request" : "") font ",9"
        set ylabel ((b - 1) % COLS == 0 ? "G warp instructions/s" : "") font ",9"
        plot for [i = 1:NR] roof_at(x, i) with lines lw rlw(i) dt rdt(i) lc rgb col(i - 1) notitle, \
             F index (b - 1) using (mn($3, $4, $5)):6:(mx($3, $4, $5) - mn($3, $4, $5)):(0) with vectors nohead lw 0.6 lc rgb "#c0c0c0" notitle, \
             F index (b - 1) using 3:6 with points pt 7 ps 0.7 lc rgb col(0) notitle, \
             F index (b - 1) using 4:6 with points pt 6 ps 0.7 lc rgb col(1) notitle, \
             F index (b - 1) using 5:6 with points pt 2 ps 0.7 lc rgb col(2) notitle, \
             F index (b - 1) using 7:6 with points pt 4 ps 0.7 lc rgb col(AI - 1) notitle
        unset label 990
    }
    # the key cell: roofs, then the three levels' markers, in one order for all panels
    unset border; unset tics; unset xlabel; unset ylabel; unset title; unset arrow; unset label; unset logscale
    set xrange [0:1]; set yrange [0:1]
    set key inside center center vertical Left reverse font ",10" samplen 4 spacing 1.2
    plot for [i = 1:NR] NaN with lines lw rlw(i) dt rdt(i) lc rgb col(i - 1) title esc(RN[i]).(RK[i] eq "compute" ? " ceiling" : " roof"), \
         NaN with points pt 7 ps 1 lc rgb col(0) title "a kernel at L1", \
         NaN with points pt 6 ps 1 lc rgb col(1) title "... at L2", \
         NaN with points pt 2 ps 1 lc rgb col(2) title "... at DRAM", \
         NaN with points pt 4 ps 1 lc rgb col(AI - 1) title (HAS_ATOM ? "... per L2 atomic request" : ""), \
         NaN with lines lw 1 lc rgb "#c0c0c0" title "one kernel's three", \
         NaN with lines lw 1.5 dt 2 lc rgb "#aa3377" title "random wall (1/32 inst/sector)", \
         NaN with lines lw 1.5 dt 3 lc rgb "#aa3377" title "unit-stride wall (1/4)"
    unset multiplot
    set output
}

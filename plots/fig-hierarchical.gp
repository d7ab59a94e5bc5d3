# fig-hierarchical.gp - the hierarchical instruction roofline of Ding and
# Williams (PMBS 2019), one panel per family: each operator point with
# counters at three instruction intensities (warp instructions per 32-byte
# sector at L1, at L2 and at DRAM, filled, open and cross symbols) against
# the same run's measured ceilings: l1_read, l2_read and dram_read as memory
# roofs (x times their G sectors/s), inst_issue and int_alu as instruction
# roofs. The memory walls of the paper, for a kernel of nothing but 4-byte
# warp loads: unit stride moves 4 sectors per warp request (x >= 1/4),
# random access 32 (x >= 1/32); no point lies left of the random wall.
# Reads DATA/fig-hierarchical.dat: family variant inst_per_l1_sector
# inst_per_l2_sector inst_per_dram_sector gips (one block per family),
# -roofs.dat (name kind value: memory G sectors/s, compute G inst/s), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-hierarchical.gp
fig = "fig-hierarchical"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
NR = 0
array RN[8]; array RK[8]; array RV[8]
stats data."/".fig."-roofs.dat" using (NR = NR + 1, RN[NR] = strcol(1), RK[NR] = strcol(2), RV[NR] = $3, 0) nooutput
TOP = 0
do for [i = 1:NR] { if (RK[i] eq "compute" && RV[i] > TOP) { TOP = RV[i] } }
mroof(x, i) = (TOP > 0 && x * RV[i] > TOP) ? TOP : x * RV[i]
roof_at(x, i) = RK[i] eq "memory" ? mroof(x, i) : RV[i]
rdt(i) = RK[i] eq "memory" ? i : 4
rlw(i) = RK[i] eq "memory" ? 2 : 1.5
COLS = NB <= 4 ? 2 : 3
ROWS = (NB + COLS - 1) / COLS
W = 520 * COLS; H = 420 * ROWS + 60

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout ROWS, COLS title sprintf("Hierarchical instruction roofline (Ding and Williams, PMBS 2019)\n{/*0.8 %s}", source)
    set logscale xy
    set xrange [0.01:1000]
    set yrange [0.5:5000]
    set format x "10^{%L}"
    set format y "10^{%L}"
    set xlabel "warp instructions per sector (L1, L2, DRAM)"
    set ylabel "G warp instructions/s"
    set key bottom right font ",8" box opaque
    set samples 300
    do for [b = 1:NB] {
        unset arrow; unset label
        set arrow from 1.0/32, graph 0 to 1.0/32, graph 1 nohead dt 2 lw 1.5 lc rgb "#aa3377"
        set arrow from 0.25, graph 0 to 0.25, graph 1 nohead dt 3 lw 1.5 lc rgb "#aa3377"
        set label "random wall" at 1.0/32, graph 0.95 right rotate by 90 offset -0.5, 0 font ",8" tc rgb "#aa3377"
        set label "unit-stride wall" at 0.25, graph 0.95 right rotate by 90 offset -0.5, 0 font ",8" tc rgb "#aa3377"
        set title esc(SER[b])
        plot for [i = 1:NR] roof_at(x, i) with lines lw rlw(i) dt rdt(i) lc rgb col(i - 1) title esc(RN[i]), \
             F index (b - 1) using 3:6 with points pt 7 ps 0.8 lc rgb col(0) title "L1", \
             F index (b - 1) using 4:6 with points pt 6 ps 0.8 lc rgb col(1) title "L2", \
             F index (b - 1) using 5:6 with points pt 2 ps 0.8 lc rgb col(2) title "DRAM"
    }
    unset multiplot
    set output
}

# fig4-profile.gp - seed 000 Fig 4 for one profiled program (wallbench
# profile -- CMD): each kernel (name + launch shape) on the instruction
# roofline of the profile's GPU: x = warp instructions per 32-byte DRAM
# sector, y = achieved G warp inst/s (counters of its counted launches over
# their timed time), marker AREA proportional to the kernel's summed time;
# colour and shape = side of the measured ridge (green circles memory-bound,
# purple squares compute-bound; blue and orange are the GH200 and L4 roofs). The measured roof is solid, the L4 and
# GH200 roofs of seed 000 Table 2 dashed, with their ridges; the title names
# the program, the GPU (uuid) and the revision, and the share of kernel time
# left (memory-bound) and right (compute-bound) of each ridge. The six
# longest kernels are labelled with their readable names.
# Reads DATA/fig4-profile.dat (kernel_id name inst_per_sector gips total_ms
# share_pct bound; longest first), -roofs.dat (name kind inst_gips dram_gbps
# ridge), -shares.dat (ridge_name ridge memory_pct compute_pct), -info.dat
# (gpu kind profile shape program revision uuid): `wallbench export
# PROFILE.h5 --fig fig4 --out DATA`, or plots/render.sh PROFILE.h5.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig4-profile.gp
fig = "fig4-profile"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
R = data."/".fig."-roofs.dat"
load gpdir."lib-roofs.gp"

program = "?"; revision = "?"; uuid = "?"
stats data."/".fig."-info.dat" using (uuid = strcol(5), revision = strcol(6), program = strcol(7), 0) nooutput
# a long command line is cut at its start: the script and its arguments are what tell runs apart
short_program = strlen(program) > 70 ? "...".program[strlen(program) - 66:] : program
shares = ""
stats data."/".fig."-shares.dat" using (shares = shares.sprintf("%s%s ridge %.1f: %.0f%% / %.0f%%", \
      strlen(shares) ? ";   " : "", esc(strcol(1)), $2, $3, $4), 0) nooutput

stats F using 3 nooutput
xmin = 10**floor(log10(STATS_min / 2.0)); xmax = 10**ceil(log10(STATS_max * 2.0))
xmin = xmin < 0.1 ? xmin : 0.1; xmax = xmax > 1000 ? xmax : 1000
stats F using 4 nooutput
ymin = 10**floor(log10(STATS_min / 2.0))
ytop = 0
do for [i = 1:NR] { ytop = RI[i] > ytop ? RI[i] : ytop }
ymax = 10**ceil(log10(ytop * 1.5))
stats F using 5 nooutput
tmax = STATS_max
# pointsize scales the marker's side: area proportional to time means side
# proportional to its square root; the longest kernel gets size 6
psz(ms) = 6.0 * sqrt(ms / tmax)

# the six longest kernels (the table is longest first; each label starts right of its marker's
# half-width, LP = its pointsize), labelled through `set label`, whose noenhanced keeps names such as
# vectorized_elementwise_kernel from turning into subscripts; more labels overprint each other where
# kernels crowd below the ridge. A label near an earlier one (within a factor 1.3 in y and 5 in x)
# moves down a line per such label, so that two neighbours do not print over each other. A long
# label may still cross another kernel's marker: its box is see-through (textbox 2, below), so that
# the marker shows (tpch-both: cupy_searchsorted_kernel #33 sat hidden under #53's name until 2026-12-05).
NL = 0
array LX[6]; array LY[6]; array LT[6]; array LSTK[6]; array LP[6]
stats F every ::0::5 using (NL = NL + 1, LX[NL] = $3, LY[NL] = $4, LP[NL] = psz($5), LT[NL] = sprintf("%s %.1f%%", strcol(2), $6), 0) nooutput
near(i, j) = abs(log10(LY[i] / LY[j])) < log10(1.3) && abs(log10(LX[i] / LX[j])) < log10(5.0)
do for [i = 1:NL] { LSTK[i] = 0; do for [j = 1:i - 1] { if (near(i, j)) { LSTK[i] = LSTK[i] + 1 } } }
W = 1300; H = 820
array RSTACK[16]
# a roof whose ridge is within 5% of the file's roof's (lib-roofs.gp: hidden) is neither drawn nor labelled; `under` says so
rlabel(i) = sprintf("%s ridge %.1f", RN[i], RR[i])
do for [i = 1:NR] { RSTACK[i] = 0; do for [j = 1:i - 1] { if (drawn(j) && RR[j] / RR[i] < 1.3 && RR[i] / RR[j] < 1.3) { RSTACK[i] = RSTACK[i] + 1 } } }

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Kernels of {/:Italic %s} on the %s roofline (seed 000 Fig 4)\n{/*0.8 %s (%s), revision %s}\n{/*0.8 share of kernel time memory- / compute-bound against each ridge: %s}", \
        esc(short_program), measured_word, source, esc(uuid), revision[1:12], shares)
    set logscale xy
    set xrange [xmin:xmax]
    set yrange [ymin:ymax]
    set format x "10^{%L}"
    set format y "10^{%L}"
    set xlabel "instruction intensity (warp instructions per 32-byte DRAM sector)"
    set ylabel "achieved performance (G warp instructions/s)"
    set samples 400
    set key outside right top box opaque Left reverse font ",9"
    unset arrow; unset label
    # labels print on a white box in front of the plot, so that a kernel's name that reaches across a
    # ridge line hides the line under it instead of being crossed by it
    set style textbox opaque noborder margins 1, 1
    # a kernel's label: tight (they stack a line apart) and see-through, so that a marker under it
    # still shows, faded, while the name stays legible over it
    set style textbox 2 opaque fillcolor rgb "#a0ffffff" noborder margins 0.3, 0.1
    do for [i = 1:NR] {
        if (drawn(i)) {
            set arrow from RR[i], ymin to RR[i], RI[i] nohead lw 1.2 dt 3 lc rgb roof_lc(i)
            set label rlabel(i) at RR[i], ymin * 1.4 * 12**RSTACK[i] left rotate by 90 offset -1.3, 0 font ",9" tc rgb roof_lc(i) boxed front
        }
    }
    set label "marker area proportional to the kernel's summed time" at graph 0.01, graph 0.96 font ",9"
    # below the x label, clear of the ridge labels at the foot of the plot
    if (strlen(under)) { set bmargin 5; set label under at screen 0.01, screen 0.015 left font ",9" tc rgb "#555555" }
    do for [i = 1:NL] { set label LT[i] at LX[i], LY[i] left offset 1.2 + 0.5 * LP[i], 0.6 - 1.1 * LSTK[i] font ",8" noenhanced boxed bs 2 front }
    plot for [i = 1:NR] (drawn(i) ? roof(x, i) : NaN) with lines lw roof_lw(i) dt roof_dt(i) lc rgb roof_lc(i) title (drawn(i) ? roof_short(i) : ""), \
         F using 3:(strcol(7) eq "memory" ? $4 : NaN):(psz($5)) with points pointsize variable pt 7 \
             lc rgb COL[3] title "kernel, memory-bound (measured ridge)", \
         F using 3:(strcol(7) eq "memory" ? NaN : $4):(psz($5)) with points pointsize variable pt 5 \
             lc rgb COL[4] title "kernel, compute-bound (or no measured roof)"
    set output
}

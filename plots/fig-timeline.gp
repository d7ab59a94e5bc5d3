# fig-timeline.gp - a profiled program over time (wallbench profile --sample):
# the GPU's warp-instruction rate (top) and DRAM bandwidth (bottom), one
# point per PM sample of the core counter set, against the measured roofs of
# the file's GPU (solid) and seed 000's L4 and GH200 roofs (dashed); the
# outermost NVTX ranges are shaded spans with their names. What seed 000's
# Fig 5 and Fig 8 show for kernels alone (under-saturation), for a real
# program: how far below both roofs it runs, and when.
# Reads DATA/fig-timeline.dat (t_ms gips dram_gbps busy_pct nvtx), -ranges.dat
# (start_ms end_ms name), -roofs.dat, -info.dat: `wallbench export PROFILE.h5
# --fig fig-timeline --out DATA`, or plots/render.sh PROFILE.h5.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-timeline.gp
fig = "fig-timeline"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
G = data."/".fig."-ranges.dat"
R = data."/".fig."-roofs.dat"
load gpdir."lib-roofs.gp"

program = "?"; revision = "?"; uuid = "?"
stats data."/".fig."-info.dat" using (uuid = strcol(5), revision = strcol(6), program = strcol(7), 0) nooutput
short_program = strlen(program) > 70 ? "...".program[strlen(program) - 66:] : program
stats F using 1 nooutput
tall = STATS_max
NS = STATS_records
# the time axis spans the samples in which a kernel of the program ran (plus 3%): a program's
# start-up and exit (Python imports, data generation on the host) would squeeze its GPU work
# into a sliver of the figure
stats F using ($4 > 0 ? $1 : NaN) nooutput
tlo = STATS_records > 0 ? STATS_min : 0; thi = STATS_records > 0 ? STATS_max : tall
pad = 0.03 * (thi - tlo > 0 ? thi - tlo : 1)
tmin = tlo - pad > 0 ? tlo - pad : 0; tmax = thi + pad < tall ? thi + pad : tall
NG = 0
array GS[64]; array GE[64]; array GN[64]
stats G using (NG < 64 ? (NG = NG + 1, GS[NG] = $1, GE[NG] = $2, GN[NG] = strcol(3)) : 0, 0) nooutput
ytop_i = 0; ytop_b = 0
do for [i = 1:NR] { ytop_i = RI[i] > ytop_i ? RI[i] : ytop_i; ytop_b = RB[i] > ytop_b ? RB[i] : ytop_b }
W = 1300; H = 900

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 2, 1 title sprintf("{/:Italic %s} over time, one point per PM sample (an idle stretch: a flat line)\n{/*0.8 %s (%s), revision %s; %d points over %.0f ms, shown: %.0f to %.0f ms, where kernels ran}", \
        esc(short_program), source, esc(uuid), revision[1:12], NS, tall, tmin, tmax)
    set xrange [tmin:tmax]
    # both panels on one time axis: fixed side margins (their keys differ in width)
    set lmargin at screen 0.08; set rmargin at screen 0.68
    set key at screen 0.69, graph 1 left top box opaque Left reverse font ",9"
    set grid ytics lc rgb "#dddddd"
    unset arrow; unset label; unset object
    do for [g = 1:NG] {
        set object g rect from GS[g], graph 0 to GE[g], graph 1 behind fc rgb (g % 2 ? "#eef3fb" : "#fbf1e9") fs solid noborder
        set label g esc(GN[g]) at (GS[g] + GE[g]) / 2.0, graph (g % 2 ? 0.97 : 0.91) center font ",8" tc rgb "#555555" front
    }
    set ylabel "G warp instructions/s"
    set yrange [0:ytop_i * 1.15]
    set format x ""
    set bmargin 1
    plot for [i = 1:NR] (drawn(i) ? RI[i] : NaN) with lines lw roof_lw(i) dt roof_dt(i) lc rgb roof_lc(i) \
             title (drawn(i) ? sprintf("%s instruction roof (%s)", RN[i], roof_what(i)) : ""), \
         F using 1:2 with lines lw 1.5 lc rgb COL[4] title "the program, per sample"
    unset object; unset label
    set ylabel "DRAM GB/s (read + write)"
    set yrange [0:ytop_b * 1.15]
    set format x "%g"
    set xlabel "time since the first sample (ms)"
    set tmargin 0.5; set bmargin 4
    do for [g = 1:NG] { set object g rect from GS[g], graph 0 to GE[g], graph 1 behind fc rgb (g % 2 ? "#eef3fb" : "#fbf1e9") fs solid noborder }
    set label 99 footer at screen 0.01, screen 0.012 left font ",8" tc rgb "#555555" noenhanced
    plot for [i = 1:NR] (drawn(i) ? RB[i] : NaN) with lines lw roof_lw(i) dt roof_dt(i) lc rgb roof_lc(i) \
             title (drawn(i) ? sprintf("%s DRAM roof (%s)", RN[i], roof_what(i)) : ""), \
         F using 1:3 with lines lw 1.5 lc rgb COL[3] title "the program, per sample"
    unset multiplot
    set output
}

# fig6-stalls.gp - reproduces seed 000 Fig 6: the breakdown of warp cycles by
# stall reason (memory throughput, memory latency, dependency,
# synchronization, throttle, other, issued + ready), split into memory- and
# compute-bound. Paper: four bars (L4/GH200 x bound) over cuDF's TPC-H
# kernels. Suite instead: the same split for all benchmark points of one GPU
# (first two bars, bound against its measured ridge), then the 12
# family/variant/bound bars with the most time, largest first, and per bound
# one bar for the other variants; each bar says its share of time. Cycles are
# weighted by issued instructions (stall_<group> x inst_issued), so that a
# point counts with its warp cycles. Fill patterns differ as well as colours.
# Reads DATA/fig6-stalls.dat: label time_pct mem_throughput mem_latency
# dependency sync throttle other issued (percent of warp cycles), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig6-stalls.gp
fig = "fig6-stalls"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
stats F using 0 nooutput
NBAR = STATS_records
W = 1100 + 40 * NBAR; H = 720
array GN[7] = ["memory throughput (a tier >= 75% BW)", "memory latency (all tiers < 75% BW)", "dependency", \
               "synchronization", "throttle", "other", "issued + ready"]

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Stall breakdown by bound (seed 000 Fig 6)\n{/*0.8 %s; bar label: points:bound (share of time)}", source)
    set style data histograms
    set style histogram rowstacked
    set style fill pattern 0 border rgb "#333333"
    set boxwidth 0.75
    set yrange [0:100]
    set ylabel "share of warp cycles (%)"
    set xtics rotate by -35 left noenhanced font ",10"
    set key outside right top box opaque Left reverse
    set bmargin 12
    plot for [g = 3:9] F using g:xtic(sprintf("%s (%.0f%%)", strcol(1), $2)) \
         fillstyle pattern (g - 2) lc rgb col(g - 3) title GN[g - 2]
    set output
}

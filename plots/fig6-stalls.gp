# fig6-stalls.gp - reproduces seed 000 Fig 6: the breakdown of warp cycles by
# stall reason (memory throughput, memory latency, dependency,
# synchronization, throttle, other, issued + ready), split into memory- and
# compute-bound. Paper: four bars (L4/GH200 x bound) over cuDF's TPC-H
# kernels. Suite instead: the same split for all benchmark points of one GPU
# (first two bars, bound against its measured ridge), then the 12
# family/variant/bound bars with the most time, largest first, and per bound
# one bar for the other variants; each bar says its share of time. Cycles are
# weighted by issued instructions (stall_<group> x inst_issued), so that a
# point counts with its warp cycles. Left: each row's cycles as shares (the
# paper's normalised bars); right: the same cycles scaled by the row's share
# of all measured time, so that a row's weight is seen as well.
# Reads DATA/fig6-stalls.dat: label time_pct mem_throughput mem_latency
# dependency sync throttle other issued (percent of warp cycles), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig6-stalls.gp
fig = "fig6-stalls"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
multi_panel = 1
F = data."/".fig.".dat"
stats F using 0 nooutput
NBAR = STATS_records
# horizontal bars, one row each, top first: the labels read without turning
# the head, and nothing is left empty under rotated tic labels
W = 1400; H = 170 + 34 * NBAR
array GN[7] = ["memory throughput (a tier >= 75% BW)", "memory latency (all tiers < 75% BW)", "dependency", \
               "synchronization", "throttle", "other", "issued + ready"]
# group g (columns 3..9) of a row starts where the groups before it end
cum(g) = (g <= 3) ? 0 : cum(g - 1) + column(g - 1)
# "other_variants": every variant not named above, together (said in the title)
lab(s, p) = sprintf("%s  (%.0f%% of time)", (strstrt(s, "other_variants") == 1 ? "other variants".s[15:] : s), p)
# solid Okabe-Ito fills with a dark border: hatching turned to moire at page size
array GC[7] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#BBBBBB"]

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 1, 2 margins 0.22, 0.985, 55.0 / H, 1 - 95.0 / H spacing 0.02 \
        title sprintf("What do warps wait on in memory- and compute-bound points, and how much of the time is that? (seed 000 Fig 6)\n{/*0.8 %s; a row: family/variant:bound (against the %s ridge), with its share of all the points' time; other variants: all not named, together}", source, measured_word) font ",12"
    unset label
    load gpdir."lib-footer.gp"
    set yrange [0.4:NBAR + 0.6]
    set ytics 1 scale 0 noenhanced font ",10"
    set grid x
    set style fill solid 1.0 border rgb "#333333"
    unset key
    set title "warp cycles, as a share of the row's (%)" font ",11"
    set xrange [0:100]
    plot for [g = 3:9] F using (cum(g) + column(g) / 2):(NBAR - $0):(cum(g)):(cum(g) + column(g)):((NBAR - $0) - 0.38):((NBAR - $0) + 0.38):ytic(lab(strcol(1), $2)) \
         with boxxyerror lc rgb GC[g - 2] notitle
    unset label 990
    # the key in the right panel's empty lower right (small rows, short bars)
    set key inside right bottom vertical box opaque Left reverse font ",10" samplen 1.5
    set ytics format ""
    set title "the same cycles weighted by the row's share of all the points' time (%)" font ",11"
    set xrange [0:*]
    plot for [g = 3:9] F using ((cum(g) + column(g) / 2) * $2 / 100):(NBAR - $0):(cum(g) * $2 / 100):((cum(g) + column(g)) * $2 / 100):((NBAR - $0) - 0.38):((NBAR - $0) + 0.38) \
         with boxxyerror lc rgb GC[g - 2] title GN[g - 2]
    unset multiplot
    set output
}

# fig-compare.gp - reproduces seed 000 Table 1 as a figure: two results files
# (two GPUs, or two runs of one GPU model, then named by commit and drawn
# against the 1.0x line only), per matched benchmark point the speedup of this
# file's GPU over the other's against this file's instruction intensity, with
# horizontal lines at the two files' measured (or projected) DRAM-bandwidth ratio and
# instruction-throughput ratio: memory-bound points should sit near the first,
# compute-bound points near the second. The paper compares TPC-H kernel time
# of L4 and GH200; the suite compares isolated kernels point by point.
# Reads DATA/fig-compare.dat: series family variant inst_per_sector speedup
# time_ms time_other_ms (one block per family), -ratios.dat (bw_ratio
# inst_ratio this other), -info.dat. Needs two files: wallbench export A.h5
# --fig fig-compare --with B.h5 (or attribute compare_with in A.h5).
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-compare.gp
fig = "fig-compare"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
bw = 1; inst = 1; this = "?"; other = "?"; same = 0
stats data."/".fig."-ratios.dat" using (bw = $1, inst = $2, this = strcol(3), other = strcol(4), same = int($5), 0) nooutput
# y fitted to the data (with a margin and the 1.0x line inside); two runs of
# one GPU model (same = 1, named by commit) have hardware ratios of 1 by
# construction: only the 1.0x line, no ratio lines on top of it
stats F using 5 nooutput
ylo = STATS_min < 1 ? STATS_min : 1; yhi = STATS_max > 1 ? STATS_max : 1
ylo = ylo / 1.05; yhi = yhi * 1.05
if (!same) { ylo = (ylo < bw && ylo < inst) ? ylo : (bw < inst ? bw : inst) / 1.1; yhi = (yhi > bw && yhi > inst) ? yhi : (bw > inst ? bw : inst) * 1.1 }
W = 1100; H = 680

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Speedup of %s over %s per benchmark point (seed 000 Table 1)\n{/*0.8 %s}", esc(this), esc(other), source)
    set logscale xy
    set format x "10^{%L}"
    set xlabel sprintf("instruction intensity on %s (warp instructions per DRAM sector)", esc(this))
    set ylabel sprintf("speedup (time on %s / time on %s)", esc(other), esc(this))
    set key top left box opaque Left reverse font ",9"
    set yrange [ylo:yhi]
    if (same) {
        # a narrow log range shows no decade: ticks at round ratios instead
        set ytics ("0.5" 0.5, "0.6" 0.6, "0.7" 0.7, "0.8" 0.8, "0.9" 0.9, "0.95" 0.95, "1.0" 1, "1.05" 1.05, "1.1" 1.1, \
                   "1.2" 1.2, "1.3" 1.3, "1.5" 1.5, "1.7" 1.7, "2" 2)
        unset mytics
        set key outside right top box opaque Left reverse font ",9"
        plot 1 with lines lw 2.5 dt 2 lc rgb "#000000" title "1.0x: the same speed in both runs", \
             for [b = 1:NB] F index (b - 1) using 4:5 with points pt pt(b - 1) ps 1.3 lc rgb col(b - 1) title esc(SER[b])
        set output
        continue
    }
    plot bw with lines lw 2.5 dt 2 lc rgb "#000000" title sprintf("DRAM bandwidth ratio %.2fx (%s)", bw, measured_word), \
         inst with lines lw 2.5 dt 4 lc rgb "#777777" title sprintf("instruction throughput ratio %.2fx (%s)", inst, measured_word), \
         for [b = 1:NB] F index (b - 1) using 4:5 with points pt pt(b - 1) ps 1.3 lc rgb col(b - 1) title esc(SER[b])
    set output
}

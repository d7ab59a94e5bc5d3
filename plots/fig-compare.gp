# fig-compare.gp - reproduces seed 000 Table 1 as a figure: two results files
# (two GPUs, or two runs), per matched benchmark point the speedup of this
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
bw = 1; inst = 1; this = "?"; other = "?"
stats data."/".fig."-ratios.dat" using (bw = $1, inst = $2, this = strcol(3), other = strcol(4), 0) nooutput
W = 1100; H = 680

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Speedup of %s over %s per benchmark point (seed 000 Table 1)\n{/*0.8 %s}", esc(this), esc(other), source)
    set logscale xy
    set format x "10^{%L}"
    set xlabel sprintf("instruction intensity on %s (warp instructions per DRAM sector)", esc(this))
    set ylabel sprintf("speedup (time on %s / time on %s)", esc(other), esc(this))
    set key top left box opaque Left reverse font ",9"
    plot bw with lines lw 2.5 dt 2 lc rgb "#000000" title sprintf("DRAM bandwidth ratio %.2fx (%s)", bw, measured_word), \
         inst with lines lw 2.5 dt 4 lc rgb "#777777" title sprintf("instruction throughput ratio %.2fx (%s)", inst, measured_word), \
         for [b = 1:NB] F index (b - 1) using 4:5 with points pt pt(b - 1) ps 1.3 lc rgb col(b - 1) title esc(SER[b])
    set output
}

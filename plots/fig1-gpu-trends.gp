# fig1-gpu-trends.gp - reproduces seed 000 Fig 1: memory bandwidth and CUDA-core
# warp-instruction throughput (SMs x 4 SMSP x clock) of P100 .. Rubin,
# relative to P100. Like the paper it uses datasheet values (B200 and Rubin at
# the H200 clock, as the paper assumes); nothing here is measured by the suite.
# Reads DATA/fig1-gpu-trends.dat (wallbench export --fig fig1-gpu-trends, from
# harness/gpus.tsv): label sms smsp_per_sm clock_ghz inst_gips dram_gbps
# inst_rel bw_rel. Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig1-gpu-trends.gp
fig = "fig1-gpu-trends"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
# every value is a datasheet one, whichever run the figure is rendered with
footer = "datasheet values (harness/gpus.tsv), the same for every run: nothing in this figure is measured"
F = data."/".fig.".dat"
W = 900; H = 600
# value labels off the markers and lines: the upper series of a GPU above and
# to the left of its marker (the line leaves to the right), the lower one
# below and to the right (the line arrives from the lower left)
up(a, b) = a >= b

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title "Does memory bandwidth grow faster than instruction throughput across GPU generations? (relative to P100)\n{/*0.8 datasheet values (harness/gpus.tsv); B200 and Rubin at the H200 clock as seed 000 assumes}"
    set logscale y 2
    set yrange [0.8:48]
    set ytics ("1x" 1, "2x" 2, "4x" 4, "8x" 8, "16x" 16, "32x" 32)
    set ylabel "relative to P100 (x)"
    set xlabel "GPU (datasheet)"
    set xrange [-0.4:6.6]
    set key top left box opaque reverse Left samplen 4
    unset label
    load gpdir."lib-footer.gp"
    plot F using 0:8:xtic(1) with linespoints lw 2.5 dt 1 pt 7 ps 1.4 lc rgb col(0) title "memory bandwidth (GB/s)", \
         F using 0:7 with linespoints lw 2.5 dt 2 pt 4 ps 1.4 lc rgb col(1) title "warp-instruction throughput (SMs x 4 x clock)", \
         F using ($0 - 0.08):(up($8, $7) ? $8 * 1.16 : NaN):(sprintf("%.1fx", $8)) with labels right font ",9" tc rgb col(0), \
         F using ($0 + 0.08):(up($8, $7) ? NaN : $8 / 1.16):(sprintf("%.1fx", $8)) with labels left font ",9" tc rgb col(0), \
         F using ($0 - 0.08):(up($8, $7) ? NaN : $7 * 1.16):(sprintf("%.1fx", $7)) with labels right font ",9" tc rgb col(1), \
         F using ($0 + 0.08):(up($8, $7) ? $7 / 1.16 : NaN):(sprintf("%.1fx", $7)) with labels left font ",9" tc rgb col(1)
    set output
}

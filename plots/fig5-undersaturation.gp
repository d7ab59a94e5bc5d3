# fig5-undersaturation.gp - reproduces seed 000 Fig 5: the share of kernel
# time spent in launches of less than one full wave of thread blocks. Paper:
# cuDF kernels per TPC-H scale factor on L4 and GH200. Suite instead: the
# benchmark points of one GPU, by input size n (bucketed to the nearest power
# of two, since families sweep different sizes); waves = grid / (resident
# blocks per SM x SMs) from the launch plan; library peers without a plan are
# left out. One line for all families (thick) and one per family.
# Reads DATA/fig5-undersaturation.dat: series n_bucket time_ms under_ms
# under_pct points (blocks: "all", then each family), and -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig5-undersaturation.gp
fig = "fig5-undersaturation"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
W = 1000; H = 620
first_dash(b) = b == 1 ? 1 : dash(b)   # block 1 = all families, solid

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Share of time in launches of less than one full wave (seed 000 Fig 5)\n{/*0.8 %s}", source)
    set logscale x 2
    set format x "2^{%L}"
    set xlabel "input size n (elements, nearest power of two)"
    set ylabel "share of time with < 1 wave (%)"
    set yrange [-3:103]
    set key top right box opaque Left reverse
    plot for [b = 1:NB] F index (b - 1) using 2:5 with linespoints \
         lw (b == 1 ? 3.5 : 1.8) dt first_dash(b) pt (b == 1 ? 7 : pto(b)) ps 1.2 \
         lc rgb (b == 1 ? "#000000" : col(b - 2)) title (b == 1 ? "all families" : esc(SER[b]))
    set output
}

# fig5-undersaturation.gp - reproduces seed 000 Fig 5: the share of kernel
# time spent in launches of less than one full wave of thread blocks. Paper:
# cuDF kernels per TPC-H scale factor on L4 and GH200. Suite instead: the
# benchmark points of one GPU, by input size n (bucketed to the nearest power
# of two, since families sweep different sizes); waves = grid / (resident
# blocks per SM x SMs) from the launch plan; library peers without a plan are
# left out. One line for all families (thick) and one per family, over the
# points that use every SM; the points restricted to fewer SMs on purpose
# (the sm_limit axis, under one wave by design) are one grey line apart.
# Reads DATA/fig5-undersaturation.dat: series n_bucket time_ms under_ms
# under_pct points (blocks: "all", then each family, then "sm_limit"), and
# -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig5-undersaturation.gp
fig = "fig5-undersaturation"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
W = 1000; H = 620
first_dash(b) = b == 1 ? 1 : dash(b)   # block 1 = all families, solid
is_sm(b) = SER[b] eq "sm_limit"
f5_dt(b) = is_sm(b) ? 3 : first_dash(b)   # a function: "dt (" would read as a dash pattern
f5_title(b) = b == 1 ? "all families (every SM)" : (is_sm(b) ? "sm\\_limit points (fewer SMs by design)" : esc(SER[b]))

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Share of time in launches of less than one full wave (seed 000 Fig 5)\n{/*0.8 %s}", source)
    set logscale x 2
    set format x "2^{%L}"
    set xlabel "input size n (elements, nearest power of two)"
    set ylabel "share of time with < 1 wave (%)"
    set yrange [-3:103]
    set key at graph 0.01, graph 0.88 left top box opaque Left reverse font ",8"   # under the 100% run at small n, left of the drop
    plot for [b = 1:NB] F index (b - 1) using 2:5 with linespoints \
         lw (b == 1 ? 3.5 : (is_sm(b) ? 2.5 : 1.8)) dt f5_dt(b) pt (b == 1 ? 7 : (is_sm(b) ? 2 : pto(b))) ps 1.2 \
         lc rgb (b == 1 ? "#000000" : (is_sm(b) ? "#999999" : col(b - 2))) title f5_title(b)
    set output
}

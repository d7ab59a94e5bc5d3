# fig5-undersaturation.gp - reproduces seed 000 Fig 5: the share of kernel
# time spent in launches of less than one full wave of thread blocks. Paper:
# cuDF kernels per TPC-H scale factor on L4 and GH200. Suite instead: the
# benchmark points of one GPU, by input size n (bucketed to the nearest power
# of two, since families sweep different sizes); waves = grid / (resident
# blocks per SM x SMs) from the launch plan; library peers without a plan are
# left out. One panel for all families and one per family, over the points
# that use every SM; the points restricted to fewer SMs on purpose (the
# sm_limit axis, under one wave by design) in a grey panel of their own.
# Reads DATA/fig5-undersaturation.dat: series n_bucket time_ms under_ms
# under_pct points (blocks: "all", then each family, then "sm_limit"), and
# -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig5-undersaturation.gp
fig = "fig5-undersaturation"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
multi_panel = 1
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
# one panel per series (all families, each family, the sm_limit points):
# lines at 0% and 100% would otherwise hide one another
is_sm(b) = SER[b] eq "sm_limit"
f5_title(b) = b == 1 ? "all families (every SM)" : (is_sm(b) ? "sm\\_limit points (fewer SMs by design)" : esc(SER[b]))
f5_lc(b) = b == 1 ? "#000000" : (is_sm(b) ? "#777777" : COL[((b - 2) % 6) + 1])   # black is "all" alone
stats F using 2 nooutput
XMIN = 2**floor(log(STATS_min) / log(2)); XMAX = 2**ceil(log(STATS_max) / log(2))
if (XMAX <= XMIN) { XMIN = XMIN / 2; XMAX = XMAX * 2 }   # one size only (a family swept at 2^28): a range around it
COLS = 3
ROWS = int((NB + COLS - 1) / COLS)
W = 1200; H = 140 + ROWS * 250

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout ROWS, COLS margins 0.06, 0.99, 70.0 / H, 1 - 105.0 / H spacing 0.05, 60.0 / H \
        title sprintf("At which input sizes do launches fill less than one wave of the GPU, and for how much of the time? (seed 000 Fig 5)\n{/*0.85 y: share of the points' summed median time (at that n) spent in launches of less than one full wave of thread blocks}\n{/*0.8 %s}", source) font ",12"
    unset label
    load gpdir."lib-footer.gp"
    set logscale x 2
    set format x "2^{%L}"
    set xrange [XMIN:XMAX]
    set xtics 32
    set yrange [-5:105]
    set ytics 0, 25, 100
    unset key
    do for [b = 1:NB] {
        set title f5_title(b) font ",11" offset 0, -0.4
        set xlabel (b > NB - COLS ? "input size n (elements, nearest power of two)" : "") font ",9"
        set ylabel ((b - 1) % COLS == 0 ? "% of time under one wave" : "") font ",9"
        plot F index (b - 1) using 2:5 with linespoints lw (b == 1 ? 3 : 2) pt 7 ps 0.9 lc rgb f5_lc(b)
        unset label 990
    }
    unset multiplot
    set output
}

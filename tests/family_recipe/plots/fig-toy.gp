# fig-toy.gp - the toy family: time over groups, one line per variant.
# Reads DATA/fig-toy.dat: series groups time_ms, one block per variant.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-toy.gp
fig = "fig-toy"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
W = 1000; H = 650
do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Toy: time against groups\n{/*0.8 %s}", source_shaped)
    set xlabel "groups"
    set ylabel "time (ms)"
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 lc rgb col(b - 1) title esc(SER[b])
    set output
}

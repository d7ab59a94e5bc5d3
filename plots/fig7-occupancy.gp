# fig7-occupancy.gp - reproduces seed 000 Fig 7: the share of kernel time
# where achieved and theoretical occupancy are at least x. Paper: cuDF's
# TPC-H kernels on L4 and GH200. Suite instead: the benchmark points of one
# GPU, weighted by median time; achieved = Nsight sm__warps_active share of
# peak (counter pass), theoretical = the launch plan's occupancy (the suite
# sweeps it on purpose, so low values are partly by design).
# Reads DATA/fig7-occupancy.dat: series x_pct time_share_pct (blocks
# "achieved", "theoretical"), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig7-occupancy.gp
fig = "fig7-occupancy"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
array AT75[2]
do for [b = 1:NB] { stats F index (b - 1) every ::75::75 using (AT75[b] = $3, 0) nooutput }
W = 900; H = 620

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("For what share of the time do kernels keep at least x%% of the warps resident? (seed 000 Fig 7)\n{/*0.8 %s}", source)
    set xrange [0:100]
    set yrange [0:102]
    set tmargin 5
    set xlabel "occupancy x (%)"
    set ylabel "share of time where occupancy >= x (%)"
    set key bottom left box opaque Left reverse samplen 4
    unset label
    load gpdir."lib-footer.gp"
    set arrow 1 from 75, 0 to 75, 100 nohead dt 3 lc rgb "#777777"
    set label 2 "75%: the occupancy\neach key entry quotes" at 76, graph 0.95 left font ",9" tc rgb "#555555"
    plot for [b = 1:NB] F index (b - 1) using 2:3 with lines lw 2.5 dt b lc rgb col(b - 1) \
         title sprintf("%s occupancy (%.0f%% of time at >= 75%%)", esc(SER[b]), AT75[b])
    set output
}

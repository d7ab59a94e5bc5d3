# fig9-hit-ratio.gp - reproduces seed 000 Fig 9: the share of kernel time
# where the L1 and L2 hit ratios are at least x, and the larger of the two.
# Paper: cuDF's TPC-H kernels on L4 and GH200. Suite instead: the benchmark
# points of one GPU, weighted by median time; hit ratios are Nsight's
# lts__t_sector_hit_rate and l1tex__t_sector_hit_rate from the counter pass.
# Reads DATA/fig9-hit-ratio.dat: series x_pct time_share_pct (blocks "L2",
# "L1", "max"), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig9-hit-ratio.gp
fig = "fig9-hit-ratio"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
W = 900; H = 620
hit_title(s) = s eq "max" ? "max of L1 and L2" : s." hit ratio"

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("For what share of the time do the caches hit at least x%% of the time? (seed 000 Fig 9)\n{/*0.8 %s}", source)
    set xrange [0:100]
    set yrange [0:102]
    set xlabel "hit ratio x (%)"
    set ylabel "share of time where hit ratio >= x (%)"
    set key top right box opaque Left reverse samplen 4   # the curves fall before x = 80%: the top right is empty
    unset label
    load gpdir."lib-footer.gp"
    plot for [b = 1:NB] F index (b - 1) using 2:3 with lines lw (SER[b] eq "max" ? 3.5 : 2.2) dt b \
         lc rgb (SER[b] eq "max" ? "#000000" : col(b - 1)) title hit_title(SER[b])
    set output
}

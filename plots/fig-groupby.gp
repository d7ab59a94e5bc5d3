# fig-groupby.gp - reproduces the group-by comparison of SHADB/SYCLDB (paper
# 002 section 3.3.0.3) and seed 000 section 7 (single_pass_shmem_aggs_kernel):
# shared-memory privatized vs global-atomic aggregation against the number of
# groups (1 .. 1M); the dotted lines mark 56 and 175 groups, the group counts
# seed 000 discusses. The suite measures one row count, each variant at its
# fastest launch shape; points the shared variant cannot run (table larger
# than shared memory) are skipped in the run and absent here.
# Reads DATA/fig-groupby.dat: series groups time_ms ns_per_row (one block per
# variant), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-groupby.gp
fig = "fig-groupby"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
W = 1000; H = 650

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Group-by: shared-memory vs global atomics against the number of groups\n{/*0.8 %s}", source)
    set logscale xy
    set format x "10^{%L}"
    set xlabel "groups"
    set ylabel "time per row (ns)"
    set key top right box opaque Left reverse
    unset arrow; unset label
    do for [g in "56 175"] {
        set arrow from g + 0, graph 0 to g + 0, graph 1 nohead dt 3 lw 1.5 lc rgb "#555555"
        set label g." groups" at g + 0, graph 0.97 right rotate by 90 offset -0.7, 0 font ",9"
    }
    plot for [b = 1:NB] F index (b - 1) using 2:4 with linespoints lw 2 dt dash(b - 1) \
         pt pair_pt(b) ps 1.3 lc rgb col(b - 1) title esc(SER[b])
    set output
}

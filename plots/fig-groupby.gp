# fig-groupby.gp - reproduces the group-by comparison of SHADB/SYCLDB (paper
# 002 section 3.3.0.3) and seed 000 section 7 (single_pass_shmem_aggs_kernel):
# shared-memory privatized vs global-atomic aggregation against the number of
# groups (1 .. 1M); the dotted lines mark 56 and 175 groups, the group counts
# seed 000 discusses. The suite measures one row count. Every series at one
# launch shape (the rule line below: the one every group count was measured
# at; only G = 175 and 8192 also ran an ILP x occupancy grid, and best-of
# there would compare shapes, not variants). Shared-memory points whose table
# does not fit shared memory ran the global-atomic kernel: ringed and named.
# Reads DATA/fig-groupby.dat: series groups time_ms ns_per_row fallback (one
# block per variant), -info.dat.
# launch-shape rule: ilp=4,occ=1,block=256
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-groupby.gp
fig = "fig-groupby"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
W = 1000; H = 650

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Group-by: shared-memory vs global atomics against the number of groups\n{/*0.8 %s}", source_shaped)
    set logscale xy
    set format x "10^{%L}"
    set xlabel "groups"
    set ylabel "time per row (ns)"
    # bottom right: empty below the converged lines, clear of the 56/175 labels
    set key at graph 0.99, graph 0.22 right top box opaque Left reverse
    unset arrow; unset label
    do for [g in "56 175"] {
        set arrow from g + 0, graph 0 to g + 0, graph 1 nohead dt 3 lw 1.5 lc rgb "#555555"
        set label g." groups" at g + 0, graph 0.97 right rotate by 90 offset -0.7, 0 font ",9"
    }
    plot for [b = 1:NB] F index (b - 1) using 2:4 with linespoints lw 2 dt dash(b - 1) \
         pt pair_pt(b) ps 1.3 lc rgb col(b - 1) title esc(SER[b]), \
         F using 2:($5 > 0 ? $4 : NaN) with points pt 6 ps 3.2 lw 2 lc rgb "#000000" \
         title "shared, fell back to global"
    set output
}

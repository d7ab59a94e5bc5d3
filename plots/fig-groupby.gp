# fig-groupby.gp - reproduces the group-by comparison of SHADB/SYCLDB (paper
# 002 section 3.3.0.3) and seed 000 section 7 (single_pass_shmem_aggs_kernel):
# shared-memory privatized vs global-atomic aggregation against the number of
# groups (1 .. 1M), in time for the whole input against the time to read it
# once at the DRAM read ceiling; the dotted lines mark 56 and 175 groups, the group counts
# seed 000 discusses. The suite measures one row count. Every series at one
# launch shape (the rule line below: the one every group count was measured
# at; only G = 175 and 8192 also ran an ILP x occupancy grid, and best-of
# there would compare shapes, not variants). Shared-memory points whose table
# does not fit shared memory ran the global-atomic kernel: ringed and named.
# Reads DATA/fig-groupby.dat: series groups time_ms ns_per_row fallback
# read_ms (one block per variant; read_ms = the point's model bytes at the
# file's DRAM read ceiling), -info.dat.
# launch-shape rule: ilp=4,occ=1,block=256
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-groupby.gp
fig = "fig-groupby"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
# the fixed axes of the table's second line: rows, key type and distribution
n_rows = fixed_axis(F, "n"); dtype = fixed_axis(F, "dtype"); layout = fixed_axis(F, "layout")
W = 1000; H = 680

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Group-by: when does the shared-memory table beat global atomics, and how close to reading the input once?\nn = %s rows, %s keys, %s over the groups, one sum per group\n{/*0.8 %s}", n_rows, dtype, layout, source_shaped)
    set logscale xy
    set format x "10^{%L}"
    set format y "%g"
    set xlabel "groups"
    set ylabel sprintf("time to aggregate the %s rows (ms, median)", n_rows)
    # top right: empty above the converged lines
    set key top right box opaque Left reverse font ",10"
    set tmargin 7
    unset arrow; unset label
    load gpdir."lib-footer.gp"
    do for [g in "56 175"] {
        set arrow from g + 0, graph 0 to g + 0, graph 1 nohead dt 3 lw 1.5 lc rgb "#555555"
        set label g at g + 0, graph 1.025 center font ",9" tc rgb "#555555"
    }
    set label "seed 000's group counts:" at 56, graph 1.025 right offset -1.2, 0 font ",9" tc rgb "#555555"
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 dt 1 \
         pt pair_pt(b) ps 1.3 lc rgb col(b - 1) title esc(SER[b]), \
         F using 2:($5 > 0 ? $3 : NaN) with points pt 6 ps 3.2 lw 2 lc rgb "#000000" \
         title "shared, fell back to global (table too large for shared memory)", \
         F index 0 using 2:6 with lines lw 2 dt 2 lc rgb "#000000" \
         title sprintf("reading the input once at the %s DRAM read ceiling", measured_word)
    set output
}

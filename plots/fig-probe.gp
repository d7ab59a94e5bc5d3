# fig-probe.gp - reproduces the probe study of Crystal (guide 001 section
# 4.3) and SHADB/SYCLDB (paper 002 section 3.3): hash (open addressing, CAS
# build, 16-byte entries at load factor 0.5) vs direct-mapped (4 bytes) vs
# 1-byte packed probe, and the partitioned probe (issue 17), as probe
# throughput against the table's size in bytes across the shared-memory/L1,
# L2 and DRAM regimes. The suite measures isolated probe kernels at one probe
# count, each variant at its fastest launch shape (the partitioned probe at
# its fastest partition count); the thick grey line is the same run's random
# 4-byte gather ceiling (gather_word) by table size, the wall a probe meets
# once the table leaves L2; vertical lines mark shared memory per SM and L2.
# Reads DATA/fig-probe.dat: series table_bytes gprobes_per_s time_ms
# l2_hit_pct gather_pct (one block per variant), -levels.dat (level bytes),
# -gather.dat (table_bytes gather_word_greqs gather_sector_greqs), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-probe.gp
fig = "fig-probe"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
G = data."/".fig."-gather.dat"
load gpdir."lib-blocks.gp"
NL = 0
array LN[4]; array LE[4]
stats data."/".fig."-levels.dat" using (NL = NL + 1, LN[NL] = strcol(1), LE[NL] = $2, 0) nooutput
NG = 0
undefine STATS_*
stats G using 1 nooutput
if (exists("STATS_records")) { NG = STATS_records }
# earlier series drawn wider: where two coincide (direct and packed while the
# table is in shared memory) the one under still shows at the edges
layer_lw(b) = 1.6 + 0.6 * (NB - b)
W = 1000; H = 700

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("How fast can a probe go as its table outgrows shared memory and L2, and how near is the random-access wall?\n(guide 001: Crystal, section 4.3; paper 002: SHADB/SYCLDB, section 3.3)\n{/*0.8 %s}", source)
    set logscale xy
    set format x "2^{%L}"
    set logscale x 2
    set xlabel "table size (bytes)"
    set ylabel "throughput (G probes/s; wall: G random 4-byte reads/s)"
    set key bottom left box opaque Left reverse
    set tmargin 7
    unset arrow; unset label
    load gpdir."lib-footer.gp"
    # the memory levels: dotted lines, named above the axes where no curve runs
    do for [l = 1:NL] {
        set arrow from LE[l], graph 0 to LE[l], graph 1 nohead dt 3 lw 1.5 lc rgb "#555555"
        set label esc(LN[l]) at LE[l], graph 1.025 center font ",9" tc rgb "#555555"
    }
    if (NG > 0) {
        plot G using 1:2 with lines lw 6 lc rgb "#bbbbbb" title (kind eq "projected" ? "gather\\_word ceiling (projected with the file)" : "gather\\_word ceiling (same run)"), \
             for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw layer_lw(b) dt 1 \
             pt pair_pt(b) ps 1.3 lc rgb col(b - 1) title esc(SER[b])
    } else {
        plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw layer_lw(b) dt 1 \
             pt pair_pt(b) ps 1.3 lc rgb col(b - 1) title esc(SER[b])
    }
    set output
}

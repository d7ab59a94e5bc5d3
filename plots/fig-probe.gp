# fig-probe.gp - reproduces the probe study of Crystal (guide 001 section
# 4.3) and SHADB/SYCLDB (paper 002 section 3.3): hash (open addressing, CAS
# build) vs direct-mapped vs 1-byte packed probe, probe time against the
# dimension-table size across the shared-memory/L1, L2 and DRAM regimes. The
# suite measures isolated probe kernels at one probe count, each variant at its
# fastest launch shape; vertical lines mark where a table of 8-byte entries
# stops fitting shared memory and L2 of this GPU.
# Reads DATA/fig-probe.dat: series table_entries ns_per_probe time_ms
# l2_hit_pct (one block per variant), -levels.dat (level entries), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-probe.gp
fig = "fig-probe"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
NL = 0
array LN[4]; array LE[4]
stats data."/".fig."-levels.dat" using (NL = NL + 1, LN[NL] = strcol(1), LE[NL] = $2, 0) nooutput
W = 1000; H = 650

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Probe time against dimension-table size (guide 001 section 4.3, paper 002 section 3.3)\n{/*0.8 %s}", source)
    set logscale xy
    set format x "2^{%L}"
    set logscale x 2
    set xlabel "dimension table entries"
    set ylabel "time per probe (ns)"
    set key top left box opaque Left reverse
    unset arrow; unset label
    do for [l = 1:NL] {
        set arrow from LE[l], graph 0 to LE[l], graph 1 nohead dt 3 lw 1.5 lc rgb "#555555"
        set label esc(LN[l])." (8-byte entries)" at LE[l], graph 0.97 right rotate by 90 offset -0.7, 0 font ",9"
    }
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 dt dash(b - 1) \
         pt pair_pt(b) ps 1.3 lc rgb col(b - 1) title esc(SER[b])
    set output
}

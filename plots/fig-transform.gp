# fig-transform.gp - reproduces seed 000 section 7 (transform_kernel): scalar
# against vectorized (4/8/16-byte) loads and stores over ILP 1..16, as achieved
# bandwidth in percent of this GPU's measured DRAM copy ceiling (a transform
# reads and writes, like the copy stream); CUB DeviceTransform and other
# library peers, which have no ILP axis, are drawn flat across the range
# (dotted). The suite measures one n, each series at its fastest occupancy.
# Reads DATA/fig-transform.dat: series ilp pct_of_ceiling gbps ceiling_gbps
# peer n (one block per variant/vector width; peer = 1 for library peers),
# -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-transform.gp
fig = "fig-transform"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
array PEER[64]
do for [b = 1:NB] { stats F index (b - 1) every ::0::0 using (PEER[b] = $6, 0) nooutput }
stats F using 5 nooutput
CEIL = STATS_max
stats F using 7 nooutput
NN = STATS_max   # series and peers share one n (export: the peer at the series' n)
peer_dash(b) = PEER[b] > 0 ? 3 : dash(b - 1)
# the second of a pair is drawn larger, so its open shape rings a filled one
# at the same point (vec8 and vec16 both near 92% at ILP 4)
pair_ps(b) = (int(b) - 1) % 2 == 1 ? 2.2 : 1.3
W = 1000; H = 650

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Transform: achieved bandwidth against ILP, scalar vs vectorized, n = 2^{%.0f} (seed 000 section 7)\n{/*0.8 %s; 100%% = %s DRAM copy ceiling %.0f GB/s}", log(NN) / log(2), source_shaped, measured_word, CEIL)
    set logscale x 2
    set xrange [0.8:20]
    set xlabel "ILP (items per thread)"
    set ylabel sprintf("achieved bandwidth (%% of the %s ceiling)", measured_word)
    set yrange [0:*]
    set key at graph 0.98, graph 0.52 right top box opaque Left reverse   # between the random gather and the rest
    set arrow 1 from graph 0, first 100 to graph 1, first 100 nohead lw 1.5 lc rgb "#000000"
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 dt peer_dash(b) \
         pt (PEER[b] > 0 ? -1 : pair_pt(b)) ps pair_ps(b) lc rgb col(b - 1) title esc(SER[b]).(PEER[b] > 0 ? " (library peer at the same n, no ILP axis)" : "")
    set output
}

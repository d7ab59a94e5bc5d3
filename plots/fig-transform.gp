# fig-transform.gp - reproduces seed 000 section 7 (transform_kernel): scalar
# against vectorized (4/8/16-byte) loads and stores over ILP 1..16, as achieved
# bandwidth in percent of this GPU's measured DRAM copy ceiling (a transform
# reads and writes, like the copy stream); CUB DeviceTransform and cudaMemcpy
# of the same bytes (the memcpy variant), which have no ILP axis, are drawn flat across the range
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
# the ILP axis ends at the largest ILP measured; a series measured at one
# ILP only is one point and says so in its key entry
stats F using 2 nooutput
XMAX = STATS_max
# A gather reads an index and its data for each element it writes: more
# reads than the copy ceiling's one for one, so it may pass 100% (up to the
# read ceiling); the figure says so where a point does.
stats F using 3 nooutput
TOP = STATS_max
array NPTS[64]; array X1[64]
do for [b = 1:NB] { stats F index (b - 1) using 2 nooutput; NPTS[b] = STATS_records; X1[b] = STATS_min }
one(b) = NPTS[b] == 1 && PEER[b] == 0
peer_dash(b) = PEER[b] > 0 ? 3 : 1
pair_ps(b) = (int(b) - 1) % 2 == 1 ? 2.2 : 1.5
tr_title(b) = esc(SER[b]) . (PEER[b] > 0 ? " (its own launch at the same n: no ILP axis)" : (one(b) ? sprintf(" (measured at ILP %g only)", X1[b]) : ""))
W = 1000; H = 680

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Does vectorizing or raising ILP bring a streaming transform to the DRAM copy ceiling? n = 2^{%.0f} (seed 000 section 7)\n{/*0.8 %s; 100%% = %s DRAM copy ceiling %.0f GB/s}", log(NN) / log(2), source_shaped, measured_word, CEIL)
    set logscale x 2
    set xrange [0.85:XMAX * 1.18]
    set xlabel "ILP (items per thread)"
    set ylabel sprintf("achieved bandwidth (%% of the %s ceiling)", measured_word)
    set yrange [0:115]
    set key bottom left box opaque Left reverse font ",10"   # under the 60-100% band, left of the random gather
    unset label
    load gpdir."lib-footer.gp"
    set arrow 1 from graph 0, first 100 to graph 1, first 100 nohead lw 1.5 lc rgb "#000000"
    set label 2 "100%: the DRAM copy ceiling" at graph 0.01, first 103 left font ",9"
    if (TOP > 100) { set label 3 "above 100%: a gather reads an index and its data for each element it writes,\na mix of more reads than the copy's one for one" at graph 0.99, first 110 right font ",9" tc rgb "#555555" }
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 dt peer_dash(b) \
         pt (PEER[b] > 0 ? -1 : pair_pt(b)) ps pair_ps(b) lc rgb col(b - 1) title tr_title(b)
    set output
}

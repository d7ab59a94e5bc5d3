# fig-select.gp - reproduces Crystal's selection study (guide 001, steps 4-6;
# Crystal section 4.2, Figs 4 and 6): selection time against selectivity for
# the if and predicated variants and the compaction variants (three-kernel,
# warp-aggregated, tile with one atomic per block), with the bandwidth model
# 4N/Br + 4sN/Bw (Br, Bw = this GPU's measured DRAM read and write ceilings)
# dashed and CUB DeviceSelect as a peer where the run has it. The suite
# measures one n (the largest swept at several selectivities), each variant
# at its fastest launch shape; the table's second line names the fixed axes.
# Reads DATA/fig-select.dat: series selectivity time_ms gbps n (one block per
# variant; the block "model" is the bandwidth model), -shapes.dat (series
# shape: the launch shapes each series was drawn at, in its key entry),
# -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-select.gp
fig = "fig-select"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
stats F using 5 nooutput
N = STATS_max
W = 1000; H = 650
is_model(b) = SER[b] eq "model"
is_peer(b) = SER[b] eq "cub"
# if/pred pairs share a colour and a shape (filled/open), all solid; the
# model is dashed black without points, the CUB peer dotted black with crosses:
# each dash type means one thing
sel_dt(b) = is_model(b) ? 2 : (is_peer(b) ? 3 : 1)
sel_pt(b) = is_model(b) ? -1 : (is_peer(b) ? 2 : pair_pt(b))
sel_lc(b) = (is_model(b) || is_peer(b)) ? "#000000" : col((b - 1) / 2)
# the second of a pair is drawn larger, so its open shape rings the first's
# filled one where the two coincide (if == pred)
sel_ps(b) = (!is_model(b) && !is_peer(b) && (int(b) - 1) % 2 == 1) ? 2.2 : 1.3
array SHAPE[64]
do for [b = 1:64] { SHAPE[b] = "" }
stats data."/".fig."-shapes.dat" using (SHAPE[int($0) + 1] = unus(strcol(2)), 0) nooutput
# a series swept over fewer selectivities than the others says where it stops
array SMAX[64]
stats F using 2 nooutput
SALL = STATS_max
do for [b = 1:NB] { stats F index (b - 1) using 2 nooutput; SMAX[b] = STATS_max }
stops(b) = SMAX[b] < SALL ? sprintf("; swept to s = %g only", SMAX[b]) : ""
sel_title(b) = is_model(b) ? sprintf("bandwidth model 4N/Br + 4sN/Bw (%s Br, Bw)", measured_word) \
             : (is_peer(b) ? "CUB DeviceSelect (library peer)".stops(b) : esc(SER[b])." (".SHAPE[b].stops(b).")")
# selectivity axis: linear near 0 and logarithmic above ~0.01 (asinh), so that
# 0, 0.01 and 0.1, where the variants cross, get as much width as 0.1 to 1
c0 = 0.004
set nonlinear x via asinh(x / c0) inverse c0 * sinh(x)
W = 1000; H = 800

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Which selection variant is fastest at each selectivity, and how close does it come to the bandwidth model?\nn = %.0f rows of int32 (guide 001: Crystal, section 4.2)\n{/*0.8 %s}", N, source_shaped)
    set xrange [0:1]
    set xtics ("0" 0, "0.01" 0.01, "0.03" 0.03, "0.1" 0.1, "0.25" 0.25, "0.5" 0.5, "1" 1)
    set xlabel "selectivity (share of rows selected; axis linear near 0, logarithmic above 0.01)"
    # log: the atomic variants are 100x the others and would flatten them
    set ylabel "time (ms, median, log scale)"
    set logscale y
    set yrange [*:*]
    set format y "%g"
    unset label
    load gpdir."lib-footer.gp"
    # the key below the axes in two columns: it never covers a curve
    set bmargin at screen 0.27
    set key at screen 0.04, screen 0.185 left top vertical maxrows 5 Left reverse font ",9" samplen 2.5 spacing 1.05 width -6
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints \
         lw (is_model(b) ? 3 : 2) dt sel_dt(b) pt sel_pt(b) ps sel_ps(b) lc rgb sel_lc(b) title sel_title(b)
    set output
}

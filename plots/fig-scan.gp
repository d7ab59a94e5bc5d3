# fig-scan.gp - reproduces SHADB/SYCLDB's tiled-vs-direct comparison (paper
# 002, section 3.2, Table 2): a tiled scan (Crystal BlockLoad, loads every
# column of a tile) against a direct one (grid-stride, loads a column only
# when the earlier predicates pass) on an SSB Q1.1-like scan and a Q3.1-like
# join, by selectivity: left the time, right the DRAM traffic counted by the
# counter pass (dotted: the bytes the algorithm must move). Series =
# variant/layout (the query shape). The suite measures one n, each series at
# its fastest launch shape.
# Reads DATA/fig-scan.dat: series selectivity time_ms dram_mb model_mb (one
# block per series), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-scan.gp
fig = "fig-scan"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
W = 1400; H = 620
# series are variant/query/columns: colour, dash and shape follow the variant,
# the query fills the shape (Q1.1-like scan) or leaves it open (Q3.1-like join)
vi(b) = strstrt(SER[b], "direct_sector") == 1 ? 3 : (strstrt(SER[b], "direct_noskip") == 1 ? 2 : (strstrt(SER[b], "direct") == 1 ? 1 : 0))
is_join(b) = strstrt(SER[b], "/q3") > 0
scan_pt(b) = is_join(b) ? pto(vi(b)) : pt(vi(b))
scan_dt(b) = is_join(b) ? dash(vi(b) + 4) : dash(vi(b))

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 1, 2 title sprintf("Tiled vs direct scan against selectivity (paper 002 section 3.2)\n{/*0.8 %s}", source_shaped)
    set xrange [-0.02:1.02]
    set xlabel "selectivity (share of rows passing)"
    set key bottom right box opaque Left reverse font ",9"
    set title "time"
    set ylabel "time (ms, median)"
    set yrange [0:*]
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 dt scan_dt(b) \
         pt scan_pt(b) ps 1.3 lc rgb col(vi(b)) title esc(SER[b])
    set title "DRAM traffic (counters; dotted: bytes the algorithm must move)"
    set ylabel "DRAM bytes read + written (MB)"
    plot for [b = 1:NB] F index (b - 1) using 2:4 with linespoints lw 2 dt scan_dt(b) \
         pt scan_pt(b) ps 1.3 lc rgb col(vi(b)) title esc(SER[b]), \
         for [b = 1:NB] F index (b - 1) using 2:5 with lines lw 1 dt 3 lc rgb col(vi(b))
    unset multiplot
    set output
}

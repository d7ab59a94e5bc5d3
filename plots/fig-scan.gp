# fig-scan.gp - reproduces SHADB/SYCLDB's tiled-vs-direct comparison (paper
# 002, section 3.2, Table 2): a tiled scan (Crystal BlockLoad, loads every
# column of a tile) against a direct one (grid-stride, loads a column only
# when the earlier predicates pass) on an SSB Q1.1-like scan and a Q3.1-like
# join, by selectivity: left the time, right the DRAM traffic counted by the
# counter pass (dotted black: the bytes the algorithm must move). Series =
# variant/layout (the query shape). The suite measures one n, each series at
# its fastest launch shape.
# Reads DATA/fig-scan.dat: series selectivity time_ms dram_mb model_mb (one
# block per series), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-scan.gp
fig = "fig-scan"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
multi_panel = 1
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
W = 1400; H = 620
# series are variant/query/columns: colour and shape follow the variant, the
# query the line (solid: Q1.1-like scan of 4 columns; dashed: Q3.1-like join
# of 3 columns) and the fill (filled / open); dotted means one thing only:
# the bytes the algorithm must move
vi(b) = strstrt(SER[b], "direct_sector") == 1 ? 3 : (strstrt(SER[b], "direct_noskip") == 1 ? 2 : (strstrt(SER[b], "direct") == 1 ? 1 : 0))
is_join(b) = strstrt(SER[b], "/q3") > 0
scan_pt(b) = is_join(b) ? pto(vi(b)) : pt(vi(b))
scan_dt(b) = is_join(b) ? 2 : 1
# "tiled/q1.1/c4" -> "tiled, Q1.1-like scan, 4 columns"
variant_of(s) = s[1:strstrt(s, "/") - 1]
cols_of(s) = s[strstrt(s, "/c") + 2:]
scan_title(b) = esc(variant_of(SER[b])) . (is_join(b) ? ", Q3.1-like join, " : ", Q1.1-like scan, ") . cols_of(SER[b]) . " columns"
W = 1400; H = 680

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 1, 2 margins 0.06, 0.99, 80.0 / H, 1 - 100.0 / H spacing 0.07 \
        title sprintf("When does loading a column only for the rows that pass (direct) beat loading whole tiles (tiled), in time and in DRAM bytes?\nn = %s rows of int32 (paper 002: SHADB/SYCLDB, section 3.2)\n{/*0.8 %s}", fixed_axis(F, "n"), source_shaped) font ",12"
    unset label
    load gpdir."lib-footer.gp"
    set xrange [-0.02:1.02]
    set xlabel "selectivity (share of rows passing)"
    set key bottom right box opaque Left reverse font ",9" samplen 3
    set title "time" font ",11"
    set ylabel "time (ms, median)"
    set yrange [0:*]
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 dt scan_dt(b) \
         pt scan_pt(b) ps 1.3 lc rgb col(vi(b)) title scan_title(b)
    unset label 990
    set title "DRAM traffic (counter pass)" font ",11"
    set ylabel "DRAM bytes read + written (MB)"
    set key bottom right box opaque Left reverse font ",9" samplen 3
    plot for [b = 1:NB] F index (b - 1) using 2:4 with linespoints lw 2 dt scan_dt(b) \
         pt scan_pt(b) ps 1.3 lc rgb col(vi(b)) title scan_title(b), \
         for [b = 1:NB] F index (b - 1) using 2:(vi(b) == 0 ? $5 : NaN) with lines lw 1.5 dt 3 lc rgb "#000000" \
         title (b == 1 ? "bytes the algorithm must move (per query)" : "")
    unset multiplot
    set output
}

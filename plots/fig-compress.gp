# fig-compress.gp - where compression stops paying (issue 51): for each bit
# width, a compressed scan's speedup over the plain scan of the same column
# and operator, measured on this GPU (solid), projected to L4 (dashed) and
# GH200 (dotted) with `wallbench project`'s model, and its bytes ratio (dash-dot:
# plain bytes over compressed bytes), the speedup's bound while both scans
# are bandwidth-bound; under it, decoding's instructions bind.
# Reads DATA/fig-compress.dat: series bit_width speedup speedup_l4
# speedup_gh200 bytes_ratio time_ms plain_ms pct_of_roof inst_per_sector n
# limiter limiter_l4 limiter_gh200 (one block per form_operator/layout), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-compress.gp
fig = "fig-compress"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
stats F using 11 nooutput
NN = STATS_max
stats F using 2 nooutput
XMAX = STATS_max
W = 1100; H = 720

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Trading instructions for bytes: a compressed scan's speedup over the plain scan, n = 2^{%.0f}\n{/*0.8 %s; solid: %s; projections keep each point's efficiency (wallbench project)}", log(NN) / log(2), source_shaped, measured_word)
    set logscale y 2
    set xrange [0.5:XMAX + 0.5]
    set xtics 1, 1, 32 font ",9"
    set xlabel "bit width the column's data is drawn to fill"
    set ylabel "speedup over the plain scan (x)"
    set key top right box opaque font ",9"
    set grid ytics lc rgb "#dddddd"
    load gpdir."lib-footer.gp"
    set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lw 1.5 lc rgb "#000000"
    # the 1x line is named in the key (opaque): a label beside it lay under some record's series,
    # above it (the selections, f48394d) or below it (the dictionary sums at 0.93x, 4531e1f)
    # each series' bytes ratio in its own colour: a sum's and a selection's differ (a selection writes
    # its rows), and one grey for both could not say which is whose
    plot for [b = 1:NB] F index (b - 1) using 2:6 with lines lw 1 dt 4 lc rgb col(b - 1) notitle, \
         for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 pt pair_pt(b) lc rgb col(b - 1) title esc(SER[b]), \
         for [b = 1:NB] F index (b - 1) using 2:4 with lines lw 1.5 dt 2 lc rgb col(b - 1) notitle, \
         for [b = 1:NB] F index (b - 1) using 2:5 with lines lw 1.5 dt 3 lc rgb col(b - 1) notitle, \
         NaN with lines lw 1.5 dt 2 lc rgb "#000000" title "projected to L4", \
         NaN with lines lw 1.5 dt 3 lc rgb "#000000" title "projected to GH200", \
         NaN with lines lw 1 dt 4 lc rgb "#000000" title "the series' bytes ratio (plain / compressed)", \
         NaN with lines lw 1.5 lc rgb "#000000" title "1x: compression stops paying"
    set output
}

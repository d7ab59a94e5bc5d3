# fig-ssb.gp - the 13 Star Schema Benchmark queries (family ssb) at the
# largest scale factor of the file, each form at its fastest launch shape.
# Left: time of the tiled (Crystal), direct, packed, bitmap (seed 002) and compressed forms against the
# query's bandwidth model (its bytes model at the file's DRAM read ceiling,
# the black bars; a bar on a log axis would have a height set by the axis
# floor, so the model is a line). Q1.x's packed points repeat the direct
# kernel and are drawn grey. Right: instructions per DRAM sector against the ridges of
# the file's GPU, the L4 and the GH200: a query below a ridge is memory-bound
# on that GPU, above it compute-bound.
# Reads DATA/fig-ssb.dat: series query form sf time_ms model_ms pct_of_model
# dram_mb model_mb dram_over_model inst_per_sector lookups_m ilp occupancy
# block q_idx (one block per form), -roofs.dat, -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-ssb.gp
fig = "fig-ssb"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
multi_panel = 1
F = data."/".fig.".dat"
R = data."/".fig."-roofs.dat"
load gpdir."lib-blocks.gp"
W = 1400; H = 700

sf = 0
stats F index 0 every ::0::0 using (sf = $4, 0) nooutput
array QN[13] = ["Q1.1", "Q1.2", "Q1.3", "Q2.1", "Q2.2", "Q2.3", "Q3.1", "Q3.2", "Q3.3", "Q3.4", "Q4.1", "Q4.2", "Q4.3"]
set xtics () 
do for [q = 1:13] { set xtics add (QN[q] q - 1) }
load gpdir."lib-roofs.gp"
RMAX = 1
do for [k = 1:NR] { RMAX = RR[k] > RMAX ? RR[k] : RMAX }
# Q1.x has no dimension map to pack: its packed points run the direct kernel
# again (kernels/ssb.cu) and are drawn as grey repeats, not as a form of their
# own (its bitmap form is one: the date range over every row, the rest over
# queued survivors)
repeat(b, q) = SER[b] eq "packed" && q < 3
form_x(b) = (b - (NB + 1) / 2.0) * 0.16   # four forms, or five with compressed
# the compressed form reads packed columns: its own bytes model, drawn in its colour at its place;
# the grey note only where the packed form is drawn
HAS_C = 0; HAS_P = 0
do for [b = 1:NB] { if (SER[b] eq "compressed") { HAS_C = 1 }; if (SER[b] eq "packed") { HAS_P = 1 } }
own_model(b) = SER[b] eq "compressed"

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 1, 2 margins 0.065, 0.9, 0.1, 0.88 spacing 0.07 title sprintf("Star Schema Benchmark at SF %g: how far is each query form from its bandwidth model, and which side of each ridge is it on?\n{/*0.8 %s}", sf, source_shaped)
    set xrange [-0.6:12.6]
    unset xlabel   # the tics name the queries; the key sits below
    # one key, in the right panel's empty bottom: the forms look alike in both
    unset key
    unset arrow; unset label
    load gpdir."lib-footer.gp"
    set title (HAS_C ? "time; black: the query's bytes model at the DRAM read ceiling; coloured: compressed's own" \
                     : "time; black line: the query's bytes model at the DRAM read ceiling")
    set ylabel "time (ms, median, log scale)"
    set logscale y
    set yrange [HAS_C ? 0.2 : 0.3:*]   # the packed columns' models reach below 0.3 ms at SF 100
    if (HAS_P) { set label 2 "grey: Q1.x packed runs the\ndirect kernel again (a repeat)" at first 2.7, graph 0.08 left font ",9" tc rgb "#777777" }
    plot F index 0 using ($16 - 0.42):6:(0.84):(0) with vectors nohead lw 3 lc rgb "#000000" title "bandwidth model", \
         for [b = 1:NB] F index (b - 1) using ($16 + form_x(b) - 0.09):(own_model(b) ? $6 : NaN):(0.18):(0) with vectors \
         nohead lw 3 lc rgb col(b - 1) notitle, \
         for [b = 1:NB] F index (b - 1) using ($16 + form_x(b)):(repeat(b, $16) ? NaN : $5) with points pt pair_pt(b) ps 1.6 \
         lc rgb col(b - 1) title esc(SER[b]), \
         for [b = 1:NB] F index (b - 1) using ($16 + form_x(b)):(repeat(b, $16) ? $5 : NaN) with points pt pair_pt(b) ps 1.2 \
         lc rgb "#aaaaaa" notitle
    unset label 990; unset label 2
    set title "instructions per DRAM sector against the ridges"
    set ylabel "warp instructions per DRAM sector (log scale)"
    set yrange [1:RMAX * 2]   # every ridge on the chart, the L4's 44 included
    set key inside bottom right horizontal maxcols 2 box opaque Left reverse font ",10"
    do for [k = 1:NR] {
        if (drawn(k)) {
            set arrow from graph 0, first RR[k] to graph 1, first RR[k] nohead dt roof_dt(k) lw 1.5 lc rgb roof_lc(k)
            set label sprintf("%s ridge %.1f", RN[k], RR[k]) at graph 1.01, first RR[k] left font ",9" tc rgb roof_lc(k)
        }
    }
    plot for [b = 1:NB] F index (b - 1) using ($16 + form_x(b)):(repeat(b, $16) ? NaN : $11) with points pt pair_pt(b) ps 1.6 \
         lc rgb col(b - 1) title esc(SER[b]), \
         for [b = 1:NB] F index (b - 1) using ($16 + form_x(b)):(repeat(b, $16) ? $11 : NaN) with points pt pair_pt(b) ps 1.2 \
         lc rgb "#aaaaaa" notitle
    unset arrow; unset label
    unset logscale y
    set yrange [*:*]
    unset multiplot
    set output
}

# fig-ssb.gp - the 13 Star Schema Benchmark queries (family ssb) at the
# largest scale factor of the file, each form at its fastest launch shape.
# Left: time of the tiled (Crystal), direct, packed and bitmap (seed 002) forms against the
# query's bandwidth model (its bytes model at the file's DRAM read ceiling,
# the black bars). Right: instructions per DRAM sector against the ridges of
# the file's GPU, the L4 and the GH200: a query below a ridge is memory-bound
# on that GPU, above it compute-bound.
# Reads DATA/fig-ssb.dat: series query form sf time_ms model_ms pct_of_model
# dram_mb model_mb dram_over_model inst_per_sector lookups_m ilp occupancy
# block q_idx (one block per form), -roofs.dat, -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-ssb.gp
fig = "fig-ssb"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
R = data."/".fig."-roofs.dat"
load gpdir."lib-blocks.gp"
W = 1400; H = 680

sf = 0
stats F index 0 every ::0::0 using (sf = $4, 0) nooutput
array QN[13] = ["Q1.1", "Q1.2", "Q1.3", "Q2.1", "Q2.2", "Q2.3", "Q3.1", "Q3.2", "Q3.3", "Q3.4", "Q4.1", "Q4.2", "Q4.3"]
set xtics () 
do for [q = 1:13] { set xtics add (QN[q] q - 1) }
NR = 0
array RN[8]; array RR[8]
stats R using (NR = NR < 8 ? NR + 1 : NR, RN[NR] = strcol(1), RR[NR] = $5, 0) nooutput
RMAX = 1
do for [k = 1:NR] { RMAX = RR[k] > RMAX ? RR[k] : RMAX }
load gpdir."lib-ridges.gp"

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 1, 2 title sprintf("Star Schema Benchmark at SF %g: four forms of each query against the roofline\n{/*0.8 %s}", sf, source)
    set xrange [-0.6:12.6]
    unset xlabel   # the tics name the queries; the key sits below
    set key below horizontal box Left reverse font ",9"
    set title "time (bars: bytes model at the DRAM read ceiling)"
    set ylabel "time (ms, median)"
    set logscale y
    set boxwidth 0.7
    set style fill transparent solid 0.15 noborder
    plot F index 0 using 16:6 with boxes lc rgb "#000000" title "bandwidth model", \
         for [b = 1:NB] F index (b - 1) using ($16 + (b - 2.5) * 0.18):5 with points pt pair_pt(b) ps 1.6 \
         lc rgb col(b - 1) title esc(SER[b])
    set title "instructions per DRAM sector against the ridges"
    set ylabel "warp instructions per DRAM sector"
    set yrange [*:RMAX * 2]   # every ridge on the chart, the L4's 44 included
    unset arrow; unset label
    set rmargin 16  # ridge labels stand right of the chart, off the points
    do for [k = 1:NR] {
        set arrow from graph 0, first RR[k] to graph 1, first RR[k] nohead dt 3 lw 1.5 lc rgb col(k + 3)
        set label esc(RLABEL[k]) at graph 1.01, first RR[k] left font ",9" tc rgb col(k + 3)
    }
    plot for [b = 1:NB] F index (b - 1) using ($16 + (b - 2.5) * 0.18):11 with points pt pair_pt(b) ps 1.6 \
         lc rgb col(b - 1) title esc(SER[b])
    unset arrow; unset label
    unset logscale y
    set yrange [*:*]
    unset multiplot
    set output
}

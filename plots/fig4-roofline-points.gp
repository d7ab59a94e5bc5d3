# fig4-roofline-points.gp - reproduces seed 000 Fig 4 with the time shares of
# Table 6, and answers: where does each family's time sit against the
# measured roofline and against the L4 and GH200 ridges? Paper: a heatmap of
# cuDF kernel time over the L4 and GH200 rooflines (TPC-H SF1-30). Suite
# instead: every benchmark point (isolated kernels, not queries), one panel
# per family so that its variants can be told apart: x = warp instructions per
# DRAM sector, y = achieved G warp inst/s (both from the counter pass), point
# area growing with the point's median time; colour and marker = variant
# within the family, the other families' points grey behind. Every panel
# draws the file's roof (black) and the paper's L4 and GH200 roofs (dashed);
# the last cell names the roofs and prints the share of time left
# (memory-bound) and right (compute-bound) of each ridge.
# Reads DATA/fig4-roofline-points.dat (series family variant fam_idx var_idx
# inst_per_sector gips time_ms bound; one block per family/variant),
# -roofs.dat (name kind inst_gips dram_gbps ridge), -shares.dat (ridge_name
# ridge memory_pct compute_pct), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig4-roofline-points.gp
fig = "fig4-roofline-points"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
multi_panel = 1
F = data."/".fig.".dat"
R = data."/".fig."-roofs.dat"
load gpdir."lib-blocks.gp"
load gpdir."lib-roofs.gp"
array FAM[64]; array VAR[64]; array FNAME[64]; array FN[64]
NF = 0
do for [b = 1:NB] {
    stats F index (b - 1) every ::0::0 using (FAM[b] = $4, VAR[b] = $5, FNAME[int($4) + 1] = strcol(2), 0) nooutput
    NF = FAM[b] + 1 > NF ? FAM[b] + 1 : NF
}
do for [f = 1:NF] { FN[f] = 0 }
do for [b = 1:NB] { stats F index (b - 1) using 6 nooutput; FN[FAM[b] + 1] = FN[FAM[b] + 1] + STATS_records }
stats F using 7 nooutput
# the lowest decade that holds a point: no empty decade under the data
ymin = 10**floor(log10(STATS_min))
stats F using 8 nooutput
tmax = STATS_max
psz(ms) = 0.5 + 2.0 * sqrt(ms / tmax)
# one share per GPU: a projection's own ridge (L4 44.1) and the paper's (L4
# 44.0) would print the same shares twice
shares = ""
stats data."/".fig."-shares.dat" using (shares = strstrt(shares, esc(strcol(1))." ridge") ? shares : \
      shares.sprintf("%s%s ridge %.1f: %.0f%% / %.0f%%", strlen(shares) ? "\n" : "", esc(strcol(1)), $2, $3, $4), 0) nooutput
# roofs whose ridge lies within 5% of the file's roof's are not drawn (lib-roofs.gp: hidden, under)
under_text = ""
do for [i = 1:NR] { if (hidden(i)) { under_text = under_text . sprintf("\nThe %s roof (%s, ridge %.1f) is not drawn:\nits ridge is within 5%% of the %s one's.", RN[i], roof_what(i), RR[i], RK[FR]) } }
# variant colours: Okabe-Ito without black (the file's roof is black)
array VC[8] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#999933", "#882255"]
vcol(v) = VC[(int(v) % 8) + 1]
vpt(v) = int(v) < 8 ? pt(v) : pto(v - 8)
COLS = 4
ROWS = int((NF + 1 + COLS - 1) / COLS)
W = 1600; H = 120 + ROWS * 440
# each panel's key stands in the decade above the flat roof, where no point can be
ytop = 30000

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout ROWS, COLS margins 0.045, 0.99, 60.0 / H, 1 - 100.0 / H spacing 0.04, 75.0 / H title sprintf("Where does each family's time sit against the %s roofline and the L4 and GH200 ridges? (seed 000 Fig 4)\n{/*0.8 %s}", measured_word, source) font ",13"
    unset arrow; unset label
    load gpdir."lib-footer.gp"
    set logscale xy
    set xrange [0.1:1000]
    set yrange [ymin:ytop]
    set format x "10^{%L}"
    set format y "%g"
    set ytics add ("" 10000)
    set samples 200
    set key inside left top Left reverse horizontal maxcols 3 font ",8" samplen 0.5 spacing 0.85 width -1 nobox
    do for [f = 1:NF] {
        set title sprintf("%s (%d points)", esc(FNAME[f]), FN[f]) font ",11"
        set xlabel (f > NF + 1 - COLS ? "warp instructions per 32-byte DRAM sector" : "") font ",9" offset 0, 0.5
        set ylabel ((f - 1) % COLS == 0 ? "G warp instructions/s" : "") font ",9" offset 1.5, 0
        plot for [b = 1:NB] F index (b - 1) using 6:7 with points pt 7 ps 0.35 lc rgb "#d8d8d8" notitle, \
             for [i = 1:NR] (drawn(i) ? roof(x, i) : NaN) with lines lw (is_file_roof(i) ? 2.5 : 1.5) \
                 dt roof_dt(i) lc rgb roof_lc(i) notitle, \
             for [b = 1:NB] F index (b - 1) using 6:(FAM[b] == f - 1 ? $7 : NaN):(psz($8)) with points \
                 pointsize variable pt vpt(VAR[b]) lc rgb vcol(VAR[b]) title (FAM[b] == f - 1 ? esc(SER[b][strstrt(SER[b], "/") + 1:]) : "")
        unset label 990
    }
    # the last cell: what the lines are, and the time shares
    unset border; unset tics; unset xlabel; unset ylabel; unset title; unset logscale
    set xrange [0:1]; set yrange [0:1]
    set key inside left top Left reverse vertical font ",10" samplen 3 spacing 1.2 nobox
    set label 1 sprintf("Share of time memory- / compute-bound\nagainst each ridge:\n%s", shares) at graph 0.02, graph 0.52 left font ",10"
    set label 2 "Point area grows with the point's median time;\ngrey: the other families' points.".under_text at graph 0.02, graph 0.2 left font ",9"
    plot for [i = 1:NR] (drawn(i) ? NaN : 1 / 0) with lines lw (is_file_roof(i) ? 2.5 : 1.5) dt roof_dt(i) lc rgb roof_lc(i) \
             title (drawn(i) ? roof_short(i) : "")
    unset multiplot
    set output
}

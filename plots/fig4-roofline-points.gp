# fig4-roofline-points.gp - reproduces seed 000 Fig 4 with the time shares of
# Table 6. Paper: a heatmap of cuDF kernel time over the L4 and GH200 rooflines
# (TPC-H SF1-30). Suite instead: every benchmark point (isolated kernels, not
# queries) on the measured roofline of the results file's GPU: x = warp
# instructions per DRAM sector, y = achieved G warp inst/s (both from the
# counter pass), point area growing with the point's median time; colour =
# family, marker shape = variant within its family (the two variants of a
# pair share a shape, filled and open). The L4 and GH200 roofs
# and ridges of the paper are drawn dashed, and the share of time left
# (memory-bound) and right (compute-bound) of each ridge is printed.
# Reads DATA/fig4-roofline-points.dat (series family variant fam_idx var_idx
# inst_per_sector gips time_ms bound; one block per family/variant),
# -roofs.dat (name kind inst_gips dram_gbps ridge), -shares.dat (ridge_name
# ridge memory_pct compute_pct), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig4-roofline-points.gp
fig = "fig4-roofline-points"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
R = data."/".fig."-roofs.dat"
load gpdir."lib-blocks.gp"
load gpdir."lib-roofs.gp"
array FAM[64]; array VAR[64]
do for [b = 1:NB] { stats F index (b - 1) every ::0::0 using (FAM[b] = $4, VAR[b] = $5, 0) nooutput }
stats F using 7 nooutput
ymin = 10**floor(log10(STATS_min / 2.0))
stats F using 8 nooutput
tmax = STATS_max
psz(ms) = 0.7 + 2.3 * sqrt(ms / tmax)
shares = ""
stats data."/".fig."-shares.dat" using (shares = shares.sprintf("%s%s ridge %.1f: %.0f%% / %.0f%%", \
      strlen(shares) ? ";   " : "", esc(strcol(1)), $2, $3, $4), 0) nooutput
W = 1300; H = 820
# variant v of a family: shape v/2, filled for even v, open for odd
var_pt(v) = int(v) % 2 ? pto(int(v) / 2) : pt(int(v) / 2)
# ridge labels stand at the foot of their ridge; one that is within 1.3x of
# an earlier labelled ridge in x (GH200's 8.3 next to the H200's 7.1) stacks
# above it instead of printing over it
load gpdir."lib-ridges.gp"
array RSTACK[16]
do for [i = 1:NR] { RSTACK[i] = 0; do for [j = 1:i - 1] { if (strlen(RLABEL[j]) && RR[j] / RR[i] < 1.3 && RR[i] / RR[j] < 1.3) { RSTACK[i] = RSTACK[i] + 1 } } }

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("Benchmark points on the %s roofline (seed 000 Fig 4)\n{/*0.8 %s. Share of time memory- / compute-bound against each ridge:}\n{/*0.8 %s}", measured_word, source, shares)
    set logscale xy
    set xrange [0.1:1000]
    set yrange [ymin:3000]
    set format x "10^{%L}"
    set xlabel "instruction intensity (warp instructions per 32-byte DRAM sector)"
    set ylabel "achieved performance (G warp instructions/s)"
    set samples 400
    set key outside right top box opaque Left reverse font ",9"
    unset arrow; unset label
    do for [i = 1:NR] {
        set arrow from RR[i], ymin to RR[i], RI[i] nohead lw 1.2 dt 3 lc rgb roof_lc(i)
        set label RLABEL[i] at RR[i], ymin * 1.4 * 6.5**RSTACK[i] left rotate by 90 offset -0.6, 0 font ",9" tc rgb roof_lc(i) front
    }
    set label "point area grows with the point's median time" at graph 0.01, graph 0.03 font ",9"
    plot for [i = 1:NR] roof(x, i) with lines lw roof_lw(i) dt roof_dt(i) lc rgb roof_lc(i) title roof_short(i), \
         for [b = 1:NB] F index (b - 1) using 6:7:(psz($8)) with points pointsize variable \
             pt var_pt(VAR[b]) lc rgb col(FAM[b]) title esc(SER[b])
    set output
}

# fig-expr.gp - reproduces seed 000 section 7 (compute_column_kernel): an
# expression interpreter against compiled (fused) code, by expression size:
# warp instructions per element, instruction intensity (warp instructions per
# DRAM sector, against the measured ridge of this GPU and the paper's L4 and
# GH200 ridges) and time. The suite measures isolated kernels at one n, each
# variant at its fastest launch shape; the instruction panels need counters.
# Reads DATA/fig-expr.dat: series expr_ops time_ms inst_per_item
# inst_per_sector gips (one block per variant), -roofs.dat (name kind
# inst_gips dram_gbps ridge), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-expr.gp
fig = "fig-expr"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
multi_panel = 1
F = data."/".fig.".dat"
R = data."/".fig."-roofs.dat"
load gpdir."lib-blocks.gp"
load gpdir."lib-roofs.gp"
W = 1500; H = 640

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 1, 3 margins 0.05, 0.99, 75.0 / H, 1 - 95.0 / H spacing 0.06 \
        title sprintf("How many instructions does interpreting an expression cost over compiled code, and when does that make it compute-bound? (seed 000 section 7)\n{/*0.8 %s}", source_shaped) font ",12"
    unset label
    load gpdir."lib-footer.gp"
    set logscale x 2
    set xlabel "expression operators"
    set key top left box opaque Left reverse font ",9" samplen 3
    set title "instructions per element" font ",11"
    set ylabel "warp instructions per element"
    set logscale y
    plot for [b = 1:NB] F index (b - 1) using 2:4 with linespoints lw 2 dt 1 pt pair_pt(b) ps 1.2 \
         lc rgb col(b - 1) title esc(SER[b])
    unset label 990
    set title "instruction intensity against the ridges (above a ridge: compute-bound there)" font ",11"
    set ylabel "warp instructions per DRAM sector"
    # a ridge within 5% of the file's one (the H200 datasheet's) is named in words, not drawn
    do for [i = 1:NR] { if (hidden(i)) { set label 3 sprintf("%s %s ridge %.1f: within 5%%\nof the %s one, not drawn", RN[i], roof_what(i), RR[i], RK[FR]) at graph 0.02, graph 0.2 left font ",8" tc rgb "#555555" } }
    plot for [b = 1:NB] F index (b - 1) using 2:5 with linespoints lw 2 dt 1 pt pair_pt(b) ps 1.2 \
         lc rgb col(b - 1) title esc(SER[b]), \
         for [i = 1:NR] (drawn(i) ? RR[i] : NaN) with lines lw roof_lw(i) - 1 dt roof_dt(i) lc rgb roof_lc(i) \
         title (drawn(i) ? sprintf("%s ridge %.1f (%s)", RN[i], RR[i], roof_what(i)) : "")
    unset label 3
    set title "time" font ",11"
    set ylabel "time (ms, median)"
    plot for [b = 1:NB] F index (b - 1) using 2:3 with linespoints lw 2 dt 1 pt pair_pt(b) ps 1.2 \
         lc rgb col(b - 1) title esc(SER[b])
    unset multiplot
    set output
}

# fig2-roofline.gp - reproduces seed 000 Fig 2 and the roofline rows of Table 2:
# instruction rooflines (warp instructions/s over warp instructions per 32-byte
# DRAM sector, log-log) of the L4 (413 G inst/s, 300 GB/s, ridge 44.0) and the
# GH200 (1037 G inst/s, 4022 GB/s, ridge 8.3) from the paper, plus what the
# suite measures instead: the roof of the results file's GPU from its ceiling
# points (inst_issue G inst/s over dram_read GB/s), and that GPU's datasheet
# roof from harness/gpus.tsv when the table has it, and the random-access
# roofs of the file's GPU (issue 17): the gather ceilings' request rate at a
# 1 GiB table, one sector per request, under the measured instruction roof.
# Reads DATA/fig2-roofline.dat: name kind inst_gips dram_gbps ridge (kind =
# paper, datasheet, measured or projected), -gather.dat (name
# gsectors_per_s) and DATA/fig2-roofline-info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig2-roofline.gp
fig = "fig2-roofline"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
R = data."/".fig.".dat"
load gpdir."lib-roofs.gp"
NG = 0
array GN[4]; array GS[4]
undefine STATS_*
stats data."/".fig."-gather.dat" using (NG = NG + 1, GN[NG] = strcol(1), GS[NG] = $2, 0) nooutput
IM = 0
do for [i = 1:NR] { if (is_file_roof(i)) { IM = RI[i] } }
wall(x, g) = (IM > 0 && x * GS[g] > IM) ? IM : x * GS[g]
# random-access walls within 2% of an earlier one (4-byte reads and 32-byte
# sectors at 1 GiB: both one sector per request) are one line with one entry
array GSAME[4]
do for [g = 1:NG] { GSAME[g] = 0; do for [k = 1:g - 1] { if (GSAME[k] == 0 && abs(GS[g] / GS[k] - 1) < 0.02) { GSAME[g] = k } } }
gtitle(g) = GSAME[g] > 0 ? "" : sprintf("%s%s: %.1f G req/s, one sector each", esc(GN[g]), \
    (g < NG && GSAME[g + 1] == g) ? " and ".esc(GN[g + 1]) : "", GS[g])
# ridge labels: horizontal, at the foot of the ridge line: the lowest ridge's
# left of its line, the others right of theirs, so that close ridges (7.0 and
# 8.3) do not print over each other
array RSIDE[8]
RLOW = 1e30
do for [i = 1:NR] { if (drawn(i) && RR[i] < RLOW) { RLOW = RR[i] } }
do for [i = 1:NR] { RSIDE[i] = drawn(i) ? (RR[i] == RLOW ? -1 : 1) : 0 }
rlabel(i) = sprintf("%s ridge %.1f", RN[i], RR[i])
W = 1000; H = 700
ymin = 5; ymax = 5000

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("How fast can a kernel of a given instruction intensity run? Rooflines of seed 000's L4 and GH200 (dashed)\nand of the %s GPU (solid), with its random-access wall\n{/*0.8 %s}", measured_word, source)
    set logscale xy
    set xrange [0.1:1000]
    set yrange [ymin:ymax]
    set format x "10^{%L}"
    set xlabel "instruction intensity (warp instructions per 32-byte DRAM sector)"
    set ylabel "performance (G warp instructions/s)"
    set samples 400
    set key top left box opaque reverse Left font ",10"
    unset arrow; unset label
    load gpdir."lib-footer.gp"
    set bmargin 6
    do for [i = 1:NR] {
        if (drawn(i)) {
            set arrow from RR[i], ymin to RR[i], RI[i] nohead lw 1.2 dt 3 lc rgb roof_lc(i)
            if (RSIDE[i] < 0) {
                set label rlabel(i) at RR[i], ymin * 1.25 right offset -0.4, 0 font ",9" tc rgb roof_lc(i) front
            }
            if (RSIDE[i] > 0) {
                set label rlabel(i) at RR[i], ymin * 1.25 left offset 0.4, 0 font ",9" tc rgb roof_lc(i) front
            }
        }
    }
    if (strlen(under)) { set label 991 under at screen 0.5, screen 0.045 center font ",9" tc rgb "#555555" }
    if (NG > 0) {
        plot for [i = 1:NR] (drawn(i) ? roof(x, i) : NaN) with lines lw roof_lw(i) dt roof_dt(i) lc rgb roof_lc(i) title (drawn(i) ? roof_title(i) : ""), \
             for [g = 1:NG] (GSAME[g] > 0 ? NaN : wall(x, g)) with lines lw 2.5 dt g lc rgb "#aa3377" title gtitle(g)
    } else {
        plot for [i = 1:NR] (drawn(i) ? roof(x, i) : NaN) with lines lw roof_lw(i) dt roof_dt(i) lc rgb roof_lc(i) title (drawn(i) ? roof_title(i) : "")
    }
    set output
}

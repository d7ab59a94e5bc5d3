# fig-compare.gp - reproduces seed 000 Table 1 as a figure: two results files
# (two GPUs, or two runs of one GPU model, then named by commit and drawn
# against the 1.0x line only), per matched benchmark point the speedup of this
# file's GPU over the other's against this file's instruction intensity, with
# horizontal lines at the two files' measured (or projected) DRAM-bandwidth ratio and
# instruction-throughput ratio: memory-bound points should sit near the first,
# compute-bound points near the second. The paper compares TPC-H kernel time
# of L4 and GH200; the suite compares isolated kernels point by point.
# Reads DATA/fig-compare.dat: series family variant inst_per_sector speedup
# time_ms time_other_ms (one block per family), -ratios.dat (bw_ratio
# inst_ratio this other), -info.dat. Needs two files: wallbench export A.h5
# --fig fig-compare --with B.h5 (or attribute compare_with in A.h5).
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-compare.gp
fig = "fig-compare"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
bw = 1; inst = 1; this = "?"; other = "?"; same = 0; tb = "-"; ob = "-"; of = "the --with file"
stats data."/".fig."-ratios.dat" using (bw = $1, inst = $2, this = strcol(3), other = strcol(4), same = int($5), \
      tb = strcol(6), ob = strcol(7), of = strcol(8), 0) nooutput
# two runs of one revision (a record and its repeat) carry the same label: they are then run A (this
# file, named by lib-common.gp's stem in the subtitle) and run B (the --with file, by its stem), so that the axes
# say which is which
twins = ""
if (this eq other) { twins = sprintf("A: %s, B: %s, both %s; ", stem, esc(of), this); this = "A"; other = "B" }
# which boards ran the two files: the same board, two boards (board-to-board
# spread is then part of every ratio), or unknown (a projection)
boards = (tb eq "-" || ob eq "-") ? "" : (tb eq ob ? sprintf("both on board %s", tb) : \
         sprintf("on two boards: %s and %s; their difference is part of every ratio", tb, ob))
stats F using 5 nooutput
ylo = STATS_min < 1 ? STATS_min : 1; yhi = STATS_max > 1 ? STATS_max : 1
ylo = ylo / 1.05; yhi = yhi * 1.05
if (!same) { ylo = (ylo < bw && ylo < inst) ? ylo : (bw < inst ? bw : inst) / 1.1; yhi = (yhi > bw && yhi > inst) ? yhi : (bw > inst ? bw : inst) * 1.1 }
# half-transparent open markers: 1800 points overplot each other otherwise
acol(i) = "#50" . COL[(int(i) % 8) + 1][2:7]
W = 1150; H = 720

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set title sprintf("How much faster is each point %s than %s? (seed 000 Table 1)\n{/*0.85 %s}\n{/*0.8 %s}", \
        (same ? "in run ".esc(this) : "on the ".esc(this)), (same ? "in run ".esc(other) : "on the ".esc(other)), \
        esc(twins).(strlen(boards) ? esc(boards) : "boards: not recorded (a projection)"), source)
    set logscale xy
    set format x "10^{%L}"
    set xlabel sprintf("instruction intensity in %s (warp instructions per DRAM sector)", esc(this))
    set ylabel sprintf("speedup (time in %s / time in %s)", esc(other), esc(this))
    # two GPUs: memory-bound points sit on the bandwidth ratio, top left; the lower left is empty
    set key bottom left box opaque Left reverse font ",9"
    set yrange [ylo:yhi]
    unset label
    load gpdir."lib-footer.gp"
    if (same) {
        # a narrow log range shows no decade: ticks at round ratios instead
        set ytics ("0.5" 0.5, "0.6" 0.6, "0.7" 0.7, "0.8" 0.8, "0.9" 0.9, "0.95" 0.95, "1.0" 1, "1.05" 1.05, "1.1" 1.1, \
                   "1.2" 1.2, "1.3" 1.3, "1.5" 1.5, "1.7" 1.7, "2" 2)
        unset mytics
        set key outside right top box opaque Left reverse font ",9"
        plot 1 with lines lw 2.5 dt 2 lc rgb "#000000" title "1.0x: the same speed in both runs", \
             for [b = 1:NB] F index (b - 1) using 4:5 with points pt pto(b - 1) ps 1.1 lw 1.5 lc rgb acol(b - 1) title esc(SER[b])
        set output
        continue
    }
    plot bw with lines lw 2.5 dt 2 lc rgb "#000000" title sprintf("DRAM bandwidth ratio %.2fx (%s)", bw, measured_word), \
         inst with lines lw 2.5 dt 4 lc rgb "#777777" title sprintf("instruction throughput ratio %.2fx (%s)", inst, measured_word), \
         for [b = 1:NB] F index (b - 1) using 4:5 with points pt pto(b - 1) ps 1.1 lw 1.5 lc rgb acol(b - 1) title esc(SER[b])
    set output
}

# fig-ilp-occupancy.gp - reproduces the ILP-for-occupancy trade of seed 000
# section 6.2 and SHADB/SYCLDB's asymmetric batching (paper 002 section 4.3):
# per family, the achieved throughput (items/s, in % of the family's best)
# over the occupancy target, one line per ILP; more ILP should make up for
# less occupancy. Each family panel holds one variant (the one swept most over
# ILP x occupancy) at one n; other launch axes at their fastest value.
# Reads DATA/fig-ilp-occupancy.dat (family variant points: one row per panel)
# and DATA/fig-ilp-occupancy-<family>.dat: series occupancy_pct gitems_per_s
# pct_of_best ilp (one block per ILP), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig-ilp-occupancy.gp
fig = "fig-ilp-occupancy"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
NFAM = 0
array FAMN[16]; array FAMV[16]
stats data."/".fig.".dat" using (NFAM = NFAM + 1, FAMN[NFAM] = strcol(1), FAMV[NFAM] = strcol(2), 0) nooutput
COLS = NFAM < 3 ? NFAM : 3
ROWS = (NFAM + COLS - 1) / COLS
W = 520 * COLS + 80; H = 430 * ROWS + 90

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout ROWS, COLS title sprintf("Throughput over ILP x occupancy (seed 000 section 6.2, paper 002 section 4.3)\n{/*0.8 %s}", source)
    set xrange [0:105]
    set yrange [0:105]
    set xlabel "occupancy target (% of resident warps)"
    set ylabel "throughput (% of the family's best)"
    set key bottom right box opaque Left reverse font ",8"
    do for [f = 1:NFAM] {
        F = data."/".fig."-".FAMN[f].".dat"
        load gpdir."lib-blocks.gp"
        set title esc(FAMN[f]."/".FAMV[f])
        # colour, dash and marker follow the ILP (log2: ILP 1, 2, 4, 8, 16 ->
        # 0..4), not the block order, so that one ILP looks alike in every panel
        array IL[NB]
        do for [b = 1:NB] { stats F index (b - 1) every ::0::0 using (IL[b] = int(log($5) / log(2) + 0.5), 0) nooutput }
        plot for [b = 1:NB] F index (b - 1) using 2:4 with linespoints lw 2 dt dash(IL[b]) pt pt(IL[b]) ps 1.1 \
             lc rgb col(IL[b]) title SER[b]
    }
    unset multiplot
    set output
}

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
multi_panel = 1
NFAM = 0
array FAMN[16]; array FAMV[16]
stats data."/".fig.".dat" using (NFAM = NFAM + 1, FAMN[NFAM] = strcol(1), FAMV[NFAM] = strcol(2), 0) nooutput
# one panel per family and one cell for the shared key: 4 columns leave no
# empty cell for the suite's 7 families; the key lists ILP 1..16 in order
COLS = NFAM + 1 < 4 ? NFAM + 1 : 4
ROWS = (NFAM + 1 + COLS - 1) / COLS
W = 420 * COLS + 60; H = 400 * ROWS + 110
array ILPN[5] = [1, 2, 4, 8, 16]

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout ROWS, COLS margins 0.05, 0.99, 80.0 / H, 1 - 100.0 / H spacing 0.05, 80.0 / H \
        title sprintf("How much does each family's throughput depend on occupancy, at each ILP? (seed 000 section 6.2; paper 002: SHADB/SYCLDB, section 4.3)\n{/*0.8 %s; 100%% = the family's best point in this grid}", source) font ",12"
    unset label
    load gpdir."lib-footer.gp"
    set xrange [0:105]
    set yrange [0:105]
    unset key
    do for [f = 1:NFAM] {
        F = data."/".fig."-".FAMN[f].".dat"
        load gpdir."lib-blocks.gp"
        set title esc(FAMN[f]."/".FAMV[f]) font ",11"
        set xlabel (f > NFAM + 1 - COLS ? "occupancy target (% of resident warps)" : "") font ",9"
        set ylabel ((f - 1) % COLS == 0 ? "throughput (% of the family's best)" : "") font ",9"
        # colour, dash and marker follow the ILP (log2: ILP 1, 2, 4, 8, 16 ->
        # 0..4), not the block order, so that one ILP looks alike in every panel
        array IL[NB]
        do for [b = 1:NB] { stats F index (b - 1) every ::0::0 using (IL[b] = int(log($5) / log(2) + 0.5), 0) nooutput }
        plot for [b = 1:NB] F index (b - 1) using 2:4 with linespoints lw 2 dt dash(IL[b]) pt pt(IL[b]) ps 1.1 \
             lc rgb col(IL[b]) notitle
        unset label 990
    }
    # the key cell: every ILP in order, drawn as in the panels
    unset border; unset tics; unset xlabel; unset ylabel; unset title
    set key inside center center vertical Left reverse font ",11" samplen 4 spacing 1.4 title "items per thread (ILP)"
    plot for [i = 0:4] NaN with linespoints lw 2 dt dash(i) pt pt(i) ps 1.1 lc rgb col(i) title sprintf("ILP %d", ILPN[i + 1])
    unset multiplot
    set output
}

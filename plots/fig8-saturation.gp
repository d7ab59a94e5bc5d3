# fig8-saturation.gp - reproduces seed 000 Fig 8: the share of kernel time
# where DRAM, L2 and L1 bandwidth and instruction throughput are saturated to
# at least x, and the max of all four; left as measured, right with latency
# hidden (each point's IPC, and with it every resource's use, scaled until one
# resource reaches 100%; time divided by the same factor, giving the printed
# speedup). Paper: cuDF's TPC-H kernels per GPU. Suite instead: the benchmark
# points of one GPU, weighted by median time. DRAM/L2/L1 = Nsight throughput
# share of peak; instructions = Nsight sm__inst_executed share of the issue
# peak (else G inst/s / (SMs x 4 SMSP x the point's clock)).
# Reads DATA/fig8-saturation.dat: series x_pct time_share_pct (blocks
# measured/{DRAM,L2,L1,inst,max}, hidden/{...}), -summary.dat (panel time_ms
# speedup points), -info.dat.
# Run: gnuplot -e "data='DIR'; out='STEM'" plots/fig8-saturation.gp
fig = "fig8-saturation"
d = ARG0; gpdir = ""; while (strstrt(d, "/") > 0) { gpdir = gpdir.d[1:strstrt(d, "/")]; d = d[strstrt(d, "/") + 1:] }
load gpdir."lib-common.gp"
multi_panel = 1
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
speedup = 1; t_meas = 0; t_hid = 0
stats data."/".fig."-summary.dat" every ::0::0 using (t_meas = $2, 0) nooutput
stats data."/".fig."-summary.dat" every ::1::1 using (t_hid = $2, speedup = $3, 0) nooutput
array RES[5] = ["DRAM bandwidth", "L2 bandwidth", "L1 bandwidth", "instruction throughput", "max of the four (grey band)"]
W = 1400; H = 680

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 1, 2 margins 0.055, 0.99, 80.0 / H, 1 - 110.0 / H spacing 0.06 \
        title sprintf("For what share of the time is each resource busy at x%% of its peak or more, as measured and if latency were hidden? (seed 000 Fig 8)\n{/*0.8 %s; points weighted by median time}", source) font ",12"
    unset label
    load gpdir."lib-footer.gp"
    set xrange [0:100]
    set yrange [0:102]
    set xlabel "saturation x (% of the resource's peak)"
    set ylabel "share of time where saturation >= x (%)"
    do for [p = 0:1] {
        # with latency hidden the curves stay high: the top right would hide them
        if (p == 0) { set key top right box opaque Left reverse font ",9" samplen 4 } \
        else { set key bottom left box opaque Left reverse font ",9" samplen 4 }
        set title (p == 0 ? sprintf("as measured (%.0f ms of points in all)", t_meas) : \
            sprintf("latency hidden: each point's use of every resource scaled up until one reaches 100%%;\nits time shrinks by the same factor: %.0f ms in all, %.2fx less", t_hid, speedup)) font ",10"
        # the max is a wide grey band under the others: where it equals one of
        # them (L2 at high x), that curve stays visible on top of it
        plot F index (5 * p + 4) using 2:3 with lines lw 9 lc rgb "#c8c8c8" title RES[5], \
             for [q = 1:4] F index (5 * p + q - 1) using 2:3 with lines lw 2.2 dt q lc rgb col(q - 1) title RES[q]
        unset label 990
    }
    unset multiplot
    set output
}

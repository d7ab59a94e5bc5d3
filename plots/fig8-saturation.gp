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
F = data."/".fig.".dat"
load gpdir."lib-blocks.gp"
speedup = 1
stats data."/".fig."-summary.dat" every ::1::1 using (speedup = $3, 0) nooutput
array RES[5] = ["DRAM bandwidth", "L2 bandwidth", "L1 bandwidth", "instruction throughput", "max of all"]
W = 1400; H = 620

do for [t = 1:3] {
    load gpdir."lib-term.gp"
    set multiplot layout 1, 2 title sprintf("Time at or above a saturation (seed 000 Fig 8)\n{/*0.8 %s}", source)
    set xrange [0:100]
    set yrange [0:102]
    set xlabel "saturation x (%)"
    set ylabel "share of time where saturation >= x (%)"
    do for [p = 0:1] {
        # with latency hidden the curves stay high: the top right would hide them
        if (p == 0) { set key top right box opaque Left reverse font ",9" } \
        else { set key bottom left box opaque Left reverse font ",9" }
        set title (p == 0 ? "measured" : sprintf("latency hidden: %.2fx speedup", speedup))
        plot for [q = 1:5] F index (5 * p + q - 1) using 2:3 with lines lw (q == 5 ? 3.5 : 2.2) dt q \
             lc rgb (q == 5 ? "#000000" : col(q - 1)) title RES[q]
    }
    unset multiplot
    set output
}

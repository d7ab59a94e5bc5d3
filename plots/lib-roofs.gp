# lib-roofs.gp - reads the rooflines table R (name kind inst_gips dram_gbps
# ridge; `wallbench export` writes it for fig2, fig4 and fig-expr) into NR
# and the arrays below, and defines how each roof is drawn: the file's
# measured (or projected) roof solid and thick, seed 000's L4 and GH200 roofs
# dashed, the datasheet roof of the file's GPU dotted grey.
NR = 0
array RN[8]; array RK[8]; array RI[8]; array RB[8]; array RR[8]
stats R using (NR = NR + 1, RN[NR] = strcol(1), RK[NR] = strcol(2), RI[NR] = $3, RB[NR] = $4, RR[NR] = $5, 0) nooutput
roof(x, i) = (x * RB[i] / 32.0 < RI[i]) ? x * RB[i] / 32.0 : RI[i]
is_file_roof(i) = (RK[i] eq "measured" || RK[i] eq "projected")
roof_lc(i) = RK[i] eq "paper" ? (RN[i] eq "L4" ? COL[2] : COL[1]) : (RK[i] eq "datasheet" ? "#777777" : "#000000")
roof_dt(i) = RK[i] eq "paper" ? (RN[i] eq "L4" ? 2 : 4) : (RK[i] eq "datasheet" ? 3 : 1)
roof_lw(i) = is_file_roof(i) ? 3.5 : 2
roof_what(i) = RK[i] eq "paper" ? "seed 000 Table 2" : (RK[i] eq "datasheet" ? "datasheet" : RK[i]." here")
roof_title(i) = sprintf("%s (%s): %.0f G inst/s, %.0f GB/s, ridge %.1f", RN[i], roof_what(i), RI[i], RB[i], RR[i])
roof_short(i) = sprintf("%s roof (%s), ridge %.1f", RN[i], roof_what(i), RR[i])
# A roof of the file's GPU whose ridge lies within 5% of the file's roof's
# (the datasheet roof of the measured H200; the paper's L4 roof beside the
# L4 projection) runs close beside it: figures leave it out and say so, with
# its numbers, in `under` instead of drawing a legend entry without a
# visible line. Its bandwidth may differ by more (H200 datasheet 4800 GB/s,
# measured 4546-4647), so the text gives the numbers and claims no side.
FR = 0
do for [i = 1:NR] { if (is_file_roof(i)) { FR = i } }
hidden(i) = FR > 0 && i != FR && RN[i] eq RN[FR] && abs(RR[i] / RR[FR] - 1) < 0.05
drawn(i) = !hidden(i)
under = ""
do for [i = 1:NR] { if (hidden(i)) { under = under . sprintf("The %s roof (%s: %.0f G inst/s, %.0f GB/s, ridge %.1f) is not drawn: its ridge is within 5%% of the %s one's.", RN[i], roof_what(i), RI[i], RB[i], RR[i], RK[FR]) } }

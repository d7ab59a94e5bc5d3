# lib-ridges.gp - one label per ridge, RLABEL[1..NR], from RN (GPU names) and
# RR (ridges) as lib-roofs.gp reads them: two roofs of one GPU whose ridges lie
# within 5% of each other (its datasheet and measured roofs, 7.0 and 7.1 on the
# H200) share the first one's label ("H200 ridges 7.0, 7.1") and the second
# gets "", so that their rotated labels do not print over each other.
array RLABEL[8]
do for [i = 1:NR] {
    pair = 0
    do for [k = 1:NR] { if (k != i && RN[k] eq RN[i] && abs(RR[k] / RR[i] - 1) < 0.05) { pair = k } }
    RLABEL[i] = pair == 0 ? sprintf("%s ridge %.1f", RN[i], RR[i]) : \
                (pair > i ? sprintf("%s ridges %.1f, %.1f", RN[i], RR[i], RR[pair]) : "")
}

# lib-term.gp - loaded inside `do for [t=1:2] { ... }`: t = 1 writes
# OUT.png (pngcairo), t = 2 OUT.pdf (pdfcairo), at the figure's W x H.
if (t == 1) {
    set terminal pngcairo size W, H enhanced font "Sans,11" linewidth 1.2
    set output out.".png"
} else {
    set terminal pdfcairo size (W / 100.0), (H / 100.0) enhanced font "Sans,8" linewidth 1.2
    set output out.".pdf"
}

# lib-term.gp - loaded inside `do for [t = 1:3] { ... }`: t = 1 writes
# OUT.png (pngcairo), t = 2 OUT.pdf (pdfcairo), t = 3 OUT.svg (svg, for web
# pages and editors), at the figure's W x H.
if (t == 1) {
    set terminal pngcairo size W, H enhanced font "Sans,11" linewidth 1.2
    set output out.".png"
} else {
    if (t == 2) {
        set terminal pdfcairo size (W / 100.0), (H / 100.0) enhanced font "Sans,8" linewidth 1.2
        set output out.".pdf"
    } else {
        set terminal svg size W, H enhanced font "Sans,11" linewidth 1.2 background rgb "white"
        set output out.".svg"
    }
}

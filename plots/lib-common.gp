# lib-common.gp - loaded first by every plots/fig*.gp (after it sets `fig`):
# checks the -e variables, reads the figure's info table (GPU and whether the
# results are measured or projected; written by `wallbench export`), and
# defines the styles. Lines and points differ in dash type and point type as
# well as colour, so that every figure stays readable in black and white.
if (!exists("data") || !exists("out")) {
    print "usage: gnuplot -e \"data='EXPORT_DIR'; out='OUTPUT_STEM'\" ".ARG0
    exit status 2
}
if (!exists("gpdir")) { gpdir = "" }

# Data-derived text (variant names, file names) is escaped before it enters
# enhanced text, where "_" and "^" would otherwise become sub/superscripts.
esc(s) = strlen(s) == 0 ? "" : ((strstrt("_^@&{}", s[1:1]) > 0 ? "\\" : "") . s[1:1] . esc(s[2:]))

gpu = "?"; kind = "?"; stem = "?"; shape_rule = "?"; board = "-"; revision = "-"
stats data."/".fig."-info.dat" using (gpu = strcol(1), kind = strcol(2), stem = strcol(3), \
      shape_rule = (strlen(strcol(4)) ? strcol(4) : "?"), board = strcol(5), revision = strcol(6), 0) nooutput
# the export writes spaces as "_"; the launch-shape rule reads as words
unus(s) = strlen(s) == 0 ? "" : ((s[1:1] eq "_" ? " " : s[1:1]) . unus(s[2:]))
shape_rule = unus(shape_rule)
# every title names its source; a projection says loudly that it is one
source = esc((kind eq "projected") ? sprintf("%s PROJECTED (not measured), %s", gpu, stem) \
       : (kind eq "reference") ? "reference GPU table (harness/gpus.tsv)" \
       : sprintf("%s %s, %s", gpu, kind, stem))
# figures that pick one launch shape per point (the family figures) say which
# rule they used (wallbench export --shape): "fastest launch shape per point"
# or the fixed shape
source_shaped = source . "; " . shape_rule
# the footer every figure prints at its bottom left (lib-footer.gp): which
# board and revision measured the file, and the launch-shape rule
footer = (kind eq "reference") ? "reference GPU table (harness/gpus.tsv); no measured file" \
       : sprintf("%s %s, board %s, revision %s, file %s.h5; %s", gpu, kind, \
                 (board eq "-" ? (kind eq "projected" ? "of the measured source" : "not recorded") : board), revision, stem, shape_rule)

# Okabe-Ito colours (colour-blind safe); dash and point types vary with them
array COL[8] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999"]
array PT[8] = [7, 5, 9, 13, 11, 15, 1, 2]       # filled circle, square, triangle, diamond, ...
array PTO[8] = [6, 4, 8, 12, 10, 14, 3, 2]      # the same shapes open: the second variant of a pair
col(i) = COL[(int(i) % 8) + 1]
pt(i) = PT[(int(i) % 8) + 1]
pto(i) = PTO[(int(i) % 8) + 1]
dash(i) = (int(i) % 5) + 1

W = 1000; H = 650     # pixels of the PNG; the PDF is W/100 x H/100 inches
set encoding utf8
set key noautotitle
set grid lc rgb "#dddddd"
set border lw 1.2
# block b (1-based) of a pair-ordered table: same shape for blocks 2k+1 and
# 2k+2, filled for the first, open for the second
pair_pt(b) = ((int(b) - 1) % 2 == 0) ? pt((int(b) - 1) / 2) : pto((int(b) - 1) / 2)
# how titles name the file's own roof
measured_word = (kind eq "projected") ? "projected" : "measured"
# the value of axis k on a family table's "# fixed: n=... dtype=... ..." line
# (wallbench export writes it second), or "?"
fixed_axis(f, k) = system(sprintf("sed -n 's/^# fixed:.* %s=\\([^ ;]*\\).*/\\1/p' '%s' | head -n 1", k, f))

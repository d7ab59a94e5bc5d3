# lib-blocks.gp - reads the table F (blocks separated by two blank lines,
# series name in column 1) into NB (blocks) and SER[1..NB] (their names).
# An absent or empty table leaves NB = 0.
NB = 0
array SER[64]
undefine STATS_*
stats F using 0 nooutput
if (exists("STATS_blocks")) { NB = STATS_blocks }
NB = NB > 64 ? 64 : NB
do for [b = 1:NB] {
    stats F index (b - 1) every ::0::0 using (SER[b] = strcol(1), 0) nooutput
}

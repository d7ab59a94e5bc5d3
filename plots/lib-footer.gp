# lib-footer.gp - loaded by every plots/fig*.gp right before its plot (after
# its `unset label`): the footer lib-common.gp composed (board, revision,
# file, launch-shape rule) in small grey type at the bottom left of the canvas.
# Its label number (990) stays clear of the figures' own numbered labels; the
# bottom margin leaves the x label room above it (a figure that needs more
# sets its own after this; a multiplot figure leaves the margins to its layout).
set label 990 footer at screen 0.005, screen 0.012 left noenhanced font ",8" tc rgb "#555555" front
# A multiplot figure (its layout sets the margins) sets multi_panel = 1 first.
if (!exists("multi_panel")) { set bmargin 4.2 }

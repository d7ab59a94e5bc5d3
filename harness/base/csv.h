/* csv.h - the CSV cells the exporters share (RFC 4180): every string
 * quoted with its quotes doubled, reals that round-trip (%.17g) with NaN
 * and inf spelled as pandas and numpy read them. */
#ifndef WB_CSV_H
#define WB_CSV_H

#include <stdio.h>

void wb_csv_str(FILE *f, const char *s);
/* %.17g; "NaN", "inf" or "-inf" when not finite. */
void wb_csv_num(FILE *f, double v);

#endif

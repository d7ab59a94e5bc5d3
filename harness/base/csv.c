/* csv.c - CSV cells (see csv.h). */
#include "harness/base/csv.h"

#include <math.h>

void wb_csv_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void wb_csv_num(FILE *f, double v) {
    if (isnan(v)) fputs("NaN", f);
    else if (isinf(v)) fputs(v > 0 ? "inf" : "-inf", f);
    else fprintf(f, "%.17g", v);
}

/* json.c - JSON scalars (see json.h). */
#include "harness/base/json.h"

#include <math.h>

void wb_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
        if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
        else if (*c == '\n') fputs("\\n", f);
        else if (*c == '\t') fputs("\\t", f);
        else if (*c < 0x20) fprintf(f, "\\u%04x", *c);
        else fputc(*c, f);
    }
    fputc('"', f);
}

void wb_json_num(FILE *f, double v) {
    if (isfinite(v)) fprintf(f, "%.17g", v);
    else fputs("null", f);
}

void wb_json_key(FILE *f, const char *key, int first) {
    if (!first) fputc(',', f);
    wb_json_str(f, key);
    fputc(':', f);
}

void wb_json_kv_str(FILE *f, const char *key, const char *value) {
    wb_json_key(f, key, 0);
    if (value) wb_json_str(f, value);
    else fputs("null", f);
}

void wb_json_kv_num(FILE *f, const char *key, double value) {
    wb_json_key(f, key, 0);
    wb_json_num(f, value);
}

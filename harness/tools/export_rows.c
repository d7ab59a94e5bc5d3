/* export_rows.c - /points and /samples as CSV or JSON (see export_rows.h). */
#include "harness/tools/export_rows.h"

#include <math.h>
#include <string.h>

#include "harness/base/json.h"
#include "harness/store/schema.h"

static const char *const type_names[] = {[WB_COL_I32] = "int32", [WB_COL_I64] = "int64", [WB_COL_F64] = "float64",
                                         [WB_COL_STR] = "string"};

static void csv_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double v) {
    if (isnan(v)) fputs("NaN", f);
    else if (isinf(v)) fputs(v > 0 ? "inf" : "-inf", f);
    else fprintf(f, "%.17g", v);
}

/* One cell of column c of row w, in the format's spelling. */
static void cell(FILE *f, wb_table_format fmt, const wb_row *w, const wb_column *c) {
    const char *s = wb_row_str(w, c);
    if (s) {
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)c->size, s); /* fixed-width field: may lack its NUL */
        fmt == WB_TABLE_CSV ? csv_str(f, buf) : wb_json_str(f, buf);
    } else if (c->type == WB_COL_F64) {
        fmt == WB_TABLE_CSV ? csv_num(f, wb_row_get(w, c)) : wb_json_num(f, wb_row_get(w, c));
    } else {
        fprintf(f, "%.0f", wb_row_get(w, c)); /* integers: exact in a double up to 2^53 */
    }
}

static void header_name(FILE *f, const char *name, const char *unit) {
    fputs(name, f);
    if (unit && *unit) fprintf(f, "[%s]", unit);
}

static void points_csv(const wb_results *r, FILE *f) {
    int n;
    const wb_column *cols = wb_schema_columns(&n);
    fputs("point", f);
    for (int k = 0; k < n; k++) {
        fputc(',', f);
        header_name(f, cols[k].name, cols[k].unit);
    }
    fputc('\n', f);
    for (int64_t i = 0; i < r->nrows; i++) {
        char name[256];
        csv_str(f, wb_point_name(&r->rows[i].p, name, sizeof name));
        for (int k = 0; k < n; k++) {
            fputc(',', f);
            cell(f, WB_TABLE_CSV, &r->rows[i], &cols[k]);
        }
        fputc('\n', f);
    }
}

static void samples_csv(const wb_results *r, FILE *f) {
    fputs("point,id,sample,time_ms[ms]\n", f);
    for (int64_t i = 0; i < r->nrows; i++) {
        char name[256];
        wb_point_name(&r->rows[i].p, name, sizeof name);
        for (int s = 0; s < r->sample_count[i]; s++) {
            csv_str(f, name);
            fprintf(f, ",%lld,%d,", (long long)r->rows[i].m.id, s);
            csv_num(f, r->sample_ms[r->sample_start[i] + s]);
            fputc('\n', f);
        }
    }
}

static void json_head(const wb_results *r, const char *format, FILE *f) {
    fputc('{', f);
    wb_json_key(f, "format", 1);
    wb_json_str(f, format);
    wb_json_key(f, "schema_version", 0);
    fprintf(f, "%d", WB_SCHEMA_VERSION);
    wb_json_key(f, "results_file", 0);
    wb_json_str(f, r->path);
    wb_json_key(f, "provenance", 0);
    fputc('{', f);
    for (int i = 0; i < r->nattrs; i++) {
        wb_json_key(f, r->attrs[i].name, i == 0);
        if (r->attrs[i].is_number) {
            double v = 0;
            sscanf(r->attrs[i].value, "%lf", &v);
            wb_json_num(f, v);
        } else {
            wb_json_str(f, r->attrs[i].value);
        }
    }
    fputs("},\n", f);
}

/* Opens the JSON object of row i with its "point" key: the rows of both tables start alike. */
static void json_row_open(FILE *f, const wb_results *r, int64_t i) {
    char name[256];
    fputs(i ? ",\n{" : "\n{", f);
    wb_json_key(f, "point", 1);
    wb_json_str(f, wb_point_name(&r->rows[i].p, name, sizeof name));
}

static void points_json(const wb_results *r, FILE *f) {
    int n;
    const wb_column *cols = wb_schema_columns(&n);
    json_head(r, "wallbench-points", f);
    wb_json_key(f, "columns", 1);
    fputs("[{\"name\":\"point\",\"unit\":\"\",\"type\":\"string\",\"description\":\"the point's name (Google "
          "Benchmark name, NVTX range)\",\"ncu_metric\":\"\"}",
          f);
    for (int k = 0; k < n; k++) {
        fputs(",\n{", f);
        wb_json_key(f, "name", 1);
        wb_json_str(f, cols[k].name);
        wb_json_key(f, "unit", 0);
        wb_json_str(f, cols[k].unit);
        wb_json_key(f, "type", 0);
        wb_json_str(f, type_names[cols[k].type]);
        wb_json_key(f, "description", 0);
        wb_json_str(f, cols[k].desc);
        wb_json_key(f, "ncu_metric", 0);
        wb_json_str(f, cols[k].source);
        fputc('}', f);
    }
    fputs("],\n", f);
    wb_json_key(f, "units", 1);
    fputs("{\"point\":\"\"", f);
    for (int k = 0; k < n; k++) {
        wb_json_key(f, cols[k].name, 0);
        wb_json_str(f, cols[k].unit);
    }
    fputs("},\n", f);
    wb_json_key(f, "points", 1);
    fputc('[', f);
    for (int64_t i = 0; i < r->nrows; i++) {
        json_row_open(f, r, i);
        for (int k = 0; k < n; k++) {
            wb_json_key(f, cols[k].name, 0);
            cell(f, WB_TABLE_JSON, &r->rows[i], &cols[k]);
        }
        fputc('}', f);
    }
    fputs("]}\n", f);
}

static void samples_json(const wb_results *r, FILE *f) {
    json_head(r, "wallbench-samples", f);
    wb_json_key(f, "units", 1);
    fputs("{\"point\":\"\",\"id\":\"\",\"time_ms\":\"ms\"},\n", f);
    wb_json_key(f, "samples", 1);
    fputc('[', f);
    for (int64_t i = 0; i < r->nrows; i++) {
        json_row_open(f, r, i);
        wb_json_key(f, "id", 0);
        fprintf(f, "%lld", (long long)r->rows[i].m.id);
        wb_json_key(f, "time_ms", 0);
        fputc('[', f);
        for (int s = 0; s < r->sample_count[i]; s++) {
            if (s) fputc(',', f);
            wb_json_num(f, r->sample_ms[r->sample_start[i] + s]);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
}

int wb_export_rows(const wb_results *r, wb_table_kind kind, wb_table_format fmt, FILE *f, wb_err *e) {
    if (kind == WB_TABLE_POINTS) fmt == WB_TABLE_CSV ? points_csv(r, f) : points_json(r, f);
    else fmt == WB_TABLE_CSV ? samples_csv(r, f) : samples_json(r, f);
    if (fflush(f) != 0 || ferror(f)) return wb_fail(e, "write error");
    return WB_OK;
}

/* export_rows.c - /points and /samples as CSV or JSON (see export_rows.h). */
#include "harness/tools/export_rows.h"

#include <string.h>

#include "harness/base/csv.h"
#include "harness/base/json.h"
#include "harness/store/schema.h"

static const char *const type_names[] = {[WB_COL_I32] = "int32", [WB_COL_I64] = "int64", [WB_COL_F64] = "float64",
                                         [WB_COL_STR] = "string"};

/* One cell of column c of row w, in the format's spelling. */
static void cell(FILE *f, wb_table_format fmt, const wb_row *w, const wb_column *c) {
    const char *s = wb_row_str(w, c);
    if (s) {
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)c->size, s); /* fixed-width field: may lack its NUL */
        fmt == WB_TABLE_CSV ? wb_csv_str(f, buf) : wb_json_str(f, buf);
    } else if (c->type == WB_COL_F64) {
        fmt == WB_TABLE_CSV ? wb_csv_num(f, wb_row_get(w, c)) : wb_json_num(f, wb_row_get(w, c));
    } else {
        fprintf(f, "%.0f", wb_row_get(w, c)); /* integers: exact in a double up to 2^53 */
    }
}

/* The CSV header is the column names alone (df["n"] works); their units
 * are in the file's /columns and in the sidecar (wb_export_columns). */
static void points_csv(const wb_results *r, FILE *f) {
    int n;
    const wb_column *cols = wb_schema_columns(&n);
    for (int k = 0; k < n; k++) fprintf(f, "%s%s", k ? "," : "", cols[k].name);
    fputc('\n', f);
    for (int64_t i = 0; i < r->nrows; i++) {
        for (int k = 0; k < n; k++) {
            if (k) fputc(',', f);
            cell(f, WB_TABLE_CSV, &r->rows[i], &cols[k]);
        }
        fputc('\n', f);
    }
}

static void samples_csv(const wb_results *r, FILE *f) {
    fputs("name,point_id,rep,time_ms\n", f); /* /samples' own column names */
    for (int64_t i = 0; i < r->nrows; i++) {
        for (int s = 0; s < r->sample_count[i]; s++) {
            wb_csv_str(f, r->rows[i].name);
            fprintf(f, ",%lld,%d,", (long long)r->rows[i].m.id, s);
            wb_csv_num(f, r->sample_ms[r->sample_start[i] + s]);
            fputc('\n', f);
        }
    }
}

/* {"name", "unit", "type", "description", "source"} of one column: /columns' names (source: the ncu
 * metric or counter a column comes from, or why it is NaN). */
static void column_json(FILE *f, const char *name, const char *unit, const char *type, const char *desc,
                        const char *source) {
    fputc('{', f);
    wb_json_key(f, "name", 1);
    wb_json_str(f, name);
    wb_json_key(f, "unit", 0);
    wb_json_str(f, unit);
    wb_json_key(f, "type", 0);
    wb_json_str(f, type);
    wb_json_key(f, "description", 0);
    wb_json_str(f, desc);
    wb_json_key(f, "source", 0);
    wb_json_str(f, source);
    fputc('}', f);
}

/* "columns": [...] of the table kind, without the surrounding braces. */
static void columns_json(wb_table_kind kind, FILE *f) {
    wb_json_key(f, "columns", 1);
    fputc('[', f);
    if (kind == WB_TABLE_SAMPLES) {
        column_json(f, "name", "", "string", "the point's name (/points name)", "");
        fputs(",\n", f);
        column_json(f, "point_id", "", "int64", "the point's /points row (its id)", "");
        fputs(",\n", f);
        column_json(f, "rep", "", "int32", "0-based sample index (the CSV only; JSON: the position in time_ms)", "");
        fputs(",\n", f);
        column_json(f, "time_ms", "ms", "float64", "one timed sample (CUDA events)", "");
    } else {
        int n;
        const wb_column *cols = wb_schema_columns(&n);
        for (int k = 0; k < n; k++) {
            if (k) fputs(",\n", f);
            column_json(f, cols[k].name, cols[k].unit, type_names[cols[k].type], cols[k].desc, cols[k].source);
        }
    }
    fputc(']', f);
}

int wb_export_columns(wb_table_kind kind, FILE *f, wb_err *e) {
    fputc('{', f);
    wb_json_key(f, "format", 1);
    wb_json_str(f, "wallbench-columns");
    wb_json_key(f, "schema_version", 0);
    fprintf(f, "%d,\n", WB_SCHEMA_VERSION);
    columns_json(kind, f);
    fputs("}\n", f);
    if (fflush(f) != 0 || ferror(f)) return wb_fail(e, "write error");
    return WB_OK;
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
    for (int i = 0, first = 1; i < r->nattrs; i++) {
        if (r->attrs[i].from_ceilings) continue; /* under "ceilings" below */
        wb_json_key(f, r->attrs[i].name, first);
        first = 0;
        if (r->attrs[i].is_number) {
            double v = 0;
            sscanf(r->attrs[i].value, "%lf", &v);
            wb_json_num(f, v);
        } else {
            wb_json_str(f, r->attrs[i].value);
        }
    }
    fputs("},\n", f);
    wb_json_key(f, "ceilings", 1);
    fputc('[', f);
    for (int i = 0; i < r->nceilings; i++) {
        const wb_ceiling_entry *c = &r->ceilings[i];
        fputs(i ? ",\n{" : "{", f);
        wb_json_key(f, "name", 1);
        wb_json_str(f, c->name);
        wb_json_kv_num(f, "size_bytes", c->size_bytes);
        wb_json_kv_str(f, "unit", c->unit);
        wb_json_kv_num(f, "value", c->value);
        wb_json_kv_str(f, "kernel", c->kernel);
        wb_json_kv_str(f, "launch", c->launch);
        fputc('}', f);
    }
    fputs("],\n", f);
}

/* Opens the JSON object of row i with its "name" key: the rows of both tables start alike. */
static void json_row_open(FILE *f, const wb_results *r, int64_t i) {
    fputs(i ? ",\n{" : "\n{", f);
    wb_json_key(f, "name", 1);
    wb_json_str(f, r->rows[i].name);
}

static void points_json(const wb_results *r, FILE *f) {
    int n;
    const wb_column *cols = wb_schema_columns(&n);
    json_head(r, "wallbench-points", f);
    columns_json(WB_TABLE_POINTS, f);
    fputs(",\n", f);
    wb_json_key(f, "units", 1);
    fputc('{', f);
    for (int k = 0; k < n; k++) {
        wb_json_key(f, cols[k].name, k == 0);
        wb_json_str(f, cols[k].unit);
    }
    fputs("},\n", f);
    wb_json_key(f, "points", 1);
    fputc('[', f);
    for (int64_t i = 0; i < r->nrows; i++) {
        json_row_open(f, r, i);
        for (int k = 0; k < n; k++) {
            if (!strcmp(cols[k].name, "name")) continue; /* opened the row */
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
    fputs("{\"name\":\"\",\"point_id\":\"\",\"time_ms\":\"ms\"},\n", f);
    wb_json_key(f, "samples", 1);
    fputc('[', f);
    for (int64_t i = 0; i < r->nrows; i++) {
        json_row_open(f, r, i);
        wb_json_key(f, "point_id", 0);
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

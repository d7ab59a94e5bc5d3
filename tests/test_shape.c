/* test_shape.c - the launch-shape rule (harness/tools/shape.h): parsing and
 * its errors, matching (peers pass every rule), the words keys print, and
 * the filter a report applies (fixed: only that shape; fastest: the least
 * median time per point, other points untouched). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "harness/tools/shape.h"

static wb_row row(const char *variant, int64_t n, int ilp, double occ, int block, double ms) {
    wb_row r;
    wb_row_init(&r);
    snprintf(r.p.family, sizeof r.p.family, "groupby");
    snprintf(r.p.variant, sizeof r.p.variant, "%s", variant);
    snprintf(r.m.status, sizeof r.m.status, "ok");
    r.p.n = n;
    r.p.launch.ilp = ilp, r.p.launch.occupancy_target = occ, r.p.launch.block = block;
    r.m.time_median_ms = ms;
    return r;
}

int main(void) {
    wb_shape s;
    wb_err e;
    char buf[96];
    CHECK(wb_shape_parse("fastest", &s, &e) == WB_OK && s.fastest);
    CHECK(strcmp(wb_shape_text(&s, buf, sizeof buf), "fastest launch shape per point") == 0);
    CHECK(wb_shape_parse("ilp=4,occ=1,block=256", &s, &e) == WB_OK && !s.fastest && s.ilp == 4 && s.occ == 1 &&
          s.block == 256 && s.sms == -1);
    CHECK(strcmp(wb_shape_text(&s, buf, sizeof buf), "launch shape ILP 4, occupancy 1, block 256") == 0);
    CHECK(wb_shape_parse("ilp=16,occ=0.5", &s, &e) == WB_OK && s.block == -1);
    CHECK(wb_shape_parse("ilp=0", &s, &e) == WB_ERR && strstr(e.msg, "bad ilp=0"));
    CHECK(wb_shape_parse("occ=2", &s, &e) == WB_ERR);
    CHECK(wb_shape_parse("ilp", &s, &e) == WB_ERR && strstr(e.msg, "not name=value"));
    CHECK(wb_shape_parse("warp=32", &s, &e) == WB_ERR);
    CHECK(wb_shape_parse("", &s, &e) == WB_ERR);
    /* out of int's range, not whole, signed or spelled as a double: one sentence naming key and value
     * (the value was cast to int unchecked, and the rule then filtered nothing) */
    CHECK(wb_shape_parse("ilp=99999999999999999999", &s, &e) == WB_ERR && strstr(e.msg, "bad ilp=99999999999999999999"));
    CHECK(wb_shape_parse("block=99999999999", &s, &e) == WB_ERR && strstr(e.msg, "bad block=99999999999"));
    CHECK(wb_shape_parse("sms=1e300", &s, &e) == WB_ERR && strstr(e.msg, "bad sms=1e300"));
    CHECK(wb_shape_parse("ilp=inf", &s, &e) == WB_ERR && strstr(e.msg, "bad ilp=inf"));
    CHECK(wb_shape_parse("block=2.5", &s, &e) == WB_ERR && strstr(e.msg, "bad block=2.5"));
    CHECK(wb_shape_parse("sms=-1", &s, &e) == WB_ERR && strstr(e.msg, "bad sms=-1"));
    CHECK(wb_shape_parse("occ=nan", &s, &e) == WB_ERR && strstr(e.msg, "bad occ=nan"));
    CHECK(wb_shape_parse("sms=0", &s, &e) == WB_OK && s.sms == 0 && s.ilp == -1);
    CHECK(wb_shape_parse("ilp=1048576,block=1024", &s, &e) == WB_OK && s.ilp == 1048576 && s.block == 1024);
    /* a key given twice: refused, not the last one silently kept */
    CHECK(wb_shape_parse("ilp=1,ilp=2", &s, &e) == WB_ERR && strstr(e.msg, "ilp given twice"));
    CHECK(wb_shape_parse("occ=1,ilp=4,occ=0.5", &s, &e) == WB_ERR && strstr(e.msg, "occ given twice"));
    CHECK(wb_shape_parse("sms=0,sms=0", &s, &e) == WB_ERR && strstr(e.msg, "sms given twice"));
    /* a rule longer than the parser's 127 characters is refused, not cut short and parsed */
    char longrule[200];
    snprintf(longrule, sizeof longrule, "ilp=4,occ=1%0*d", 150, 0);
    CHECK(wb_shape_parse(longrule, &s, &e) == WB_ERR && strstr(e.msg, "longer than 127 characters"));

    wb_results r;
    memset(&r, 0, sizeof r);
    wb_row rows[] = {
        row("shared", 1 << 28, 4, 1, 256, 3.0),    /* G = 8192 at ILP 4: 3.0 ms */
        row("shared", 1 << 28, 16, 0.5, 256, 2.5), /* ... at ILP 16, occ 0.5: faster */
        row("shared", 1 << 26, 4, 1, 256, 1.0),    /* another point: alone, kept by both rules */
        row("cub", 1 << 28, -1, NAN, -1, 9.0),     /* a peer: no shape, passes every rule */
        row("shared", 1 << 28, 1, 1, 256, 0.1),    /* failed: never picked, always kept */
    };
    rows[0].p.groups = rows[1].p.groups = 8192;
    snprintf(rows[4].m.status, sizeof rows[4].m.status, "failed");
    wb_row copy[5];
    memcpy(copy, rows, sizeof rows);
    r.rows = copy;
    r.nrows = 5;
    CHECK(wb_shape_parse("ilp=4,occ=1", &s, &e) == WB_OK);
    CHECK(wb_shape_match(&s, &rows[0]) && !wb_shape_match(&s, &rows[1]) && wb_shape_match(&s, &rows[3]));
    CHECK(wb_shape_filter(&r, &s) == 4);
    CHECK(r.rows[0].m.time_median_ms == 3.0 && r.rows[1].m.time_median_ms == 1.0 && !strcmp(r.rows[2].p.variant, "cub"));

    memcpy(copy, rows, sizeof rows);
    r.nrows = 5;
    CHECK(wb_shape_filter(&r, &wb_shape_fastest) == 4);
    CHECK(r.rows[0].m.time_median_ms == 2.5 && r.rows[0].p.launch.ilp == 16);
    CHECK(r.rows[1].m.time_median_ms == 1.0);
    return TEST_DONE();
}

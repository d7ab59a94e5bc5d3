/* test_measure.c - the run's time report: steps add up per family and in
 * the total, families past WB_SPENT_FAMILIES count in the total only, and
 * the report line carries every step and the counter/timing ratio. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/run/measure.h"

int main(void) {
    static wb_run r; /* zeroed: no points run */
    wb_spent_add(&r, "select", WB_SPENT_DATA, 1.5);
    wb_spent_add(&r, "scan", WB_SPENT_TIMING, 2.0);
    wb_spent_add(&r, "select", WB_SPENT_COUNTERS, 3.0);
    wb_spent_add(&r, "select", WB_SPENT_TIMING, 1.0);
    CHECK(r.nspent_by == 2);
    CHECK(strcmp(r.spent_by[0].family, "select") == 0 && strcmp(r.spent_by[1].family, "scan") == 0);
    CHECK(r.spent_by[0].s[WB_SPENT_DATA] == 1.5 && r.spent_by[0].s[WB_SPENT_COUNTERS] == 3.0);
    CHECK(r.spent_by[1].s[WB_SPENT_TIMING] == 2.0 && r.spent_by[1].s[WB_SPENT_DATA] == 0.0);
    CHECK(r.spent.s[WB_SPENT_TIMING] == 3.0 && r.spent.s[WB_SPENT_DATA] == 1.5);
    CHECK(wb_spent_of(&r, "select") == &r.spent_by[0]);

    /* Past the table: the total still counts, no entry appears. */
    static char names[WB_SPENT_FAMILIES + 1][16];
    for (int i = 0; i <= WB_SPENT_FAMILIES; i++) {
        snprintf(names[i], sizeof names[i], "f%d", i);
        wb_spent_add(&r, names[i], WB_SPENT_VERIFY, 1.0);
    }
    CHECK(r.nspent_by == WB_SPENT_FAMILIES);
    CHECK(r.spent.s[WB_SPENT_VERIFY] == WB_SPENT_FAMILIES + 1.0);
    CHECK(wb_spent_of(&r, "one too many") == NULL);

    char line[320];
    r.spent_by[0].points = 7;
    wb_spent_line(&r.spent_by[0], "select", line, sizeof line);
    CHECK(strcmp(line, "select: 7 points: data 1.5 s, verify 0.0 s, counter pass 3.0 s, timing pass 1.0 s "
                       "(counter pass = 3.00 x timing pass)") == 0);
    /* No counter pass, no ratio; a short buffer stays terminated. */
    wb_spent_line(&r.spent_by[1], "scan", line, sizeof line);
    CHECK(strstr(line, "timing pass 2.0 s") && !strstr(line, "x timing pass"));
    char tiny[12];
    wb_spent_line(&r.spent_by[0], "select", tiny, sizeof tiny);
    CHECK(strlen(tiny) == sizeof tiny - 1);
    return TEST_DONE();
}

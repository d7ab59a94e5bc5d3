/* test_sweep.c - which points join a counter batch (wb_sweep_batch_after):
 * only selected, uncounted points of the leader's family and of at most so
 * many data sets, in run order, passing over points of other data, ending
 * with the family, capped. */
#include <string.h>

#include "tests/check.h"
#include "harness/run/sweep.h"

/* Two points share data when their sizes agree. */
static int same_n(const wb_point *a, const wb_point *b) { return a->n == b->n; }

static const wb_family fam_a = {.name = "a", .same_data = same_n};
static const wb_family fam_b = {.name = "b", .same_data = same_n};

static void set(wb_run_point *q, const wb_family *f, int64_t n, int selected, int counted) {
    memset(q, 0, sizeof *q);
    wb_point_init(&q->p);
    q->family = f;
    q->p.n = n;
    q->selected = selected;
    q->counted = counted;
}

int main(void) {
    wb_run_point pts[10];
    int idx[16];
    set(&pts[0], &fam_a, 100, 1, 0); /* the leader */
    set(&pts[1], &fam_a, 100, 1, 0); /* joins */
    set(&pts[2], &fam_a, 100, 0, 0); /* filtered out: skipped, the batch goes on */
    set(&pts[3], &fam_a, 100, 1, 1); /* counted by an earlier batch: skipped */
    set(&pts[4], &fam_a, 100, 1, 0); /* joins */
    set(&pts[5], &fam_a, 200, 0, 0); /* other data but not selected: does not end the batch */
    set(&pts[6], &fam_a, 100, 1, 0); /* joins */
    set(&pts[7], &fam_b, 100, 1, 0); /* another family: ends it */
    set(&pts[8], &fam_a, 100, 1, 0); /* past the end */
    set(&pts[9], &fam_a, 100, 1, 0);
    int n = wb_sweep_batch_after(pts, 10, 0, idx, 16, 1);
    CHECK(n == 3 && idx[0] == 1 && idx[1] == 4 && idx[2] == 6);

    /* The cap holds, in run order. */
    n = wb_sweep_batch_after(pts, 10, 0, idx, 2, 1);
    CHECK(n == 2 && idx[0] == 1 && idx[1] == 4);

    /* Other data, selected, is passed over: the batch takes the leader's data after it. */
    set(&pts[5], &fam_a, 200, 1, 0);
    n = wb_sweep_batch_after(pts, 10, 0, idx, 16, 1);
    CHECK(n == 3 && idx[0] == 1 && idx[1] == 4 && idx[2] == 6);
    /* and that point leads its own batch, of its data alone */
    CHECK(wb_sweep_batch_after(pts, 10, 5, idx, 16, 1) == 0);

    /* The last point leads a batch of itself alone; so does a leader whose family ends next. */
    CHECK(wb_sweep_batch_after(pts, 10, 9, idx, 16, 1) == 0);
    CHECK(wb_sweep_batch_after(pts, 10, 6, idx, 16, 1) == 0);
    /* A later leader of the other family's data takes its own points. */
    n = wb_sweep_batch_after(pts, 10, 7, idx, 16, 1);
    CHECK(n == 0);
    set(&pts[8], &fam_b, 100, 1, 0);
    n = wb_sweep_batch_after(pts, 10, 7, idx, 16, 1);
    CHECK(n == 1 && idx[0] == 8);

    /* Over two data sets: the leader's and the first other one met (300),
     * a third (200, twice) passed over, the points after it still joining. */
    set(&pts[5], &fam_a, 200, 1, 0);
    set(&pts[2], &fam_a, 300, 1, 0);
    set(&pts[3], &fam_a, 200, 1, 0);
    n = wb_sweep_batch_after(pts, 10, 0, idx, 16, 2);
    CHECK(n == 4 && idx[0] == 1 && idx[1] == 2 && idx[2] == 4 && idx[3] == 6);
    /* Three: the 200 points join too, and the family still ends the batch. */
    n = wb_sweep_batch_after(pts, 10, 0, idx, 16, 3);
    CHECK(n == 6 && idx[0] == 1 && idx[1] == 2 && idx[5] == 6);
    return TEST_DONE();
}

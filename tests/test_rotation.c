/* test_rotation.c - --rotate's choice of group (harness/profile/inject/rotation.h) without a GPU:
 * a shape launched n times gets each of the n groups once; shapes interleaved as a program's
 * kernels are (each launched in turn, several rounds) change group only once a round, not at every
 * launch as a per-shape count (k mod n) did; a shape that moves on takes the next group after the
 * active one, not the lowest it lacks; with keep, a shape repeats the active group; the choice stays
 * in range at n = 1 and n = 64. `test_rotation KEYS N [HOLD]` prints the batches and group changes
 * the rule makes over a file of launch shapes, one a line, a group held for at least HOLD launches
 * (counting.c's WB_PROFILE_ROTATE_HOLD), as examples/profile-graph/rotation_batches.py counts them
 * (tests/sh_rotation_replay.sh checks that the two agree). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/profile/inject/rotation.h"

/* Launches of `shapes` shapes in turn for `rounds` rounds with n groups, a group kept for at least
 * `hold` launches: the number of group changes between consecutive launches (each one a new
 * batch), and whether every shape had every group once in each full run of n of its launches. */
static int changes_held(int shapes, int rounds, int n, int hold, int *every_group) {
    uint64_t seen[128] = {0}, had[128] = {0}; /* shapes <= 128 */
    int active = -1, count = 0, held = 0;
    *every_group = 1;
    for (int r = 0; r < rounds; r++)
        for (int s = 0; s < shapes; s++) {
            int g = wb_rotation_pick(&seen[s], active, held < hold, n);
            if (g < 0 || g >= n) { /* out of range: no bit to set (a shift by it is undefined) */
                *every_group = 0;
                continue;
            }
            if (had[s] >> g & 1) *every_group = 0;
            had[s] |= (uint64_t)1 << g;
            if ((r + 1) % n == 0) {
                if (had[s] != (n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1)) *every_group = 0;
                had[s] = 0;
            }
            count += active >= 0 && g != active;
            held = g == active ? held + 1 : 1;
            active = g;
        }
    return count;
}
static int changes(int shapes, int rounds, int n, int *every_group) { return changes_held(shapes, rounds, n, 0, every_group); }

/* Batches over the shapes of `path` with n groups: a new one at each change of group and when 256
 * ranges (a launch and its flush: two) are full, as counting.c's room() starts them; a group is
 * kept for at least `hold` launches (counting.c's rotation_set). */
static int replay(const char *path, int n, int hold) {
    FILE *f = fopen(path, "r");
    if (!f || n < 1 || n > 64) {
        fprintf(stderr, "test_rotation: cannot read %s, or N=%d is not 1..64\n", path, n);
        if (f) fclose(f);
        return 2;
    }
    static char keys[4096][640];
    static uint64_t seen[4096];
    int nkeys = 0, active = -1, batches = 0, used = 0, held = 0, changes = 0;
    char line[640];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        int k = 0;
        while (k < nkeys && strcmp(keys[k], line)) k++;
        if (k == nkeys) {
            if (nkeys == 4096) break;
            snprintf(keys[nkeys++], sizeof keys[0], "%s", line);
        }
        int g = wb_rotation_pick(&seen[k], active, held < hold, n);
        if (active < 0 || g != active || used + 2 > 256) batches++, used = 0;
        if (g != active) changes += active >= 0, held = 0;
        active = g, used += 2, held++;
    }
    fclose(f);
    printf("%d %d\n", batches, changes);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 || argc == 4) return replay(argv[1], atoi(argv[2]), argc == 4 ? atoi(argv[3]) : 0);
    int every = 0;
    /* tpch_like.py's shape: 65 shapes, 3 launches each, 18 groups: two changes, not 2 x 65 */
    CHECK(changes(65, 3, 18, &every) == 2);
    CHECK(every == 1);
    /* 36 rounds of 10 shapes, 18 groups: every group twice, a change a round but where the second
     * pass over the groups begins (it keeps group 17 open) */
    CHECK(changes(10, 36, 18, &every) == 34);
    CHECK(every == 1);
    /* a group held for 25 launches: 10 shapes x 36 rounds change at most 360 / 25 times, where
     * without the hold they change 34 times; the repeats cost the shapes groups (not every one) */
    int held = changes_held(10, 36, 18, 25, &every);
    CHECK(held >= 1 && held <= 360 / 25);
    CHECK(every == 0);
    /* one group: never a change */
    CHECK(changes(5, 7, 1, &every) == 0);
    CHECK(every == 1);
    /* 64 groups: the mask's full width */
    CHECK(changes(3, 128, 64, &every) == 126);
    CHECK(every == 1);
    /* the same shape launched back to back takes its groups in turn; a new round begins with the
     * group still open (17: no change), then the next after it: 0, 1, ..., 16; the third round
     * begins with 16, then 17, 0, 1, ... */
    uint64_t seen = 0;
    int active = -1;
    for (int k = 0; k < 42; k++) {
        int g = wb_rotation_pick(&seen, active, 0, 18);
        CHECK(g == (k < 18 ? k : k == 18 ? 17 : k < 36 ? k - 19 : k == 36 ? 16 : k == 37 ? 17 : k - 38));
        active = g;
    }
    /* a shape that had the active group 5 and groups 0-2 moves on to 6, the next after 5, not to
     * the lowest it lacks (3); with 6 had too, to 7 */
    seen = 0x27; /* 0, 1, 2, 5 */
    CHECK(wb_rotation_pick(&seen, 5, 0, 8) == 6 && seen == 0x67);
    seen = 0x67;
    CHECK(wb_rotation_pick(&seen, 5, 0, 8) == 7 && seen == 0xe7);
    /* the next after the last group wraps to the lowest lacking: n = 8, active 7 had, 0 had: 1 */
    seen = 0x81;
    CHECK(wb_rotation_pick(&seen, 7, 0, 8) == 1 && seen == 0x83);
    /* keep: a shape that had the active group repeats it, its groups unchanged */
    seen = 0x27;
    CHECK(wb_rotation_pick(&seen, 5, 1, 8) == 5 && seen == 0x27);
    /* keep with no active group: the first it lacks */
    seen = 0x3;
    CHECK(wb_rotation_pick(&seen, -1, 1, 8) == 2 && seen == 0x7);
    /* an active group out of range (not one of the n) is ignored */
    seen = 0;
    CHECK(wb_rotation_pick(&seen, 99, 0, 4) == 0 && seen == 1);
    return TEST_DONE();
}

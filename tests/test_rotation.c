/* test_rotation.c - --rotate's choice of group (harness/profile/inject/rotation.h) without a GPU:
 * a shape launched n times gets each of the n groups once; shapes interleaved as a program's
 * kernels are (each launched in turn, several rounds) change group only once a round, not at every
 * launch as a per-shape count (k mod n) did; the choice stays in range at n = 1 and n = 64.
 * `test_rotation KEYS N` prints the batches the rule starts over a file of launch shapes, one a
 * line, as examples/profile-graph/rotation_batches.py counts them (tests/sh_rotation_replay.sh
 * checks that the two agree). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/profile/inject/rotation.h"

/* Launches of `shapes` shapes in turn for `rounds` rounds with n groups: the number of group
 * changes between consecutive launches (each one a new batch), and whether every shape had every
 * group once in each full run of n of its launches. */
static int changes(int shapes, int rounds, int n, int *every_group) {
    uint64_t seen[128] = {0}, had[128] = {0}; /* shapes <= 128 */
    int active = -1, count = 0;
    *every_group = 1;
    for (int r = 0; r < rounds; r++)
        for (int s = 0; s < shapes; s++) {
            int g = wb_rotation_pick(&seen[s], active, n);
            if (g < 0 || g >= n || (had[s] >> g & 1)) *every_group = 0;
            had[s] |= (uint64_t)1 << g;
            if ((r + 1) % n == 0) {
                if (had[s] != (n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1)) *every_group = 0;
                had[s] = 0;
            }
            count += active >= 0 && g != active;
            active = g;
        }
    return count;
}

/* Batches over the shapes of `path` with n groups: a new one at each change of group and when 256
 * ranges (a launch and its flush: two) are full, as counting.c's room() starts them. */
static int replay(const char *path, int n) {
    FILE *f = fopen(path, "r");
    if (!f || n < 1 || n > 64) {
        fprintf(stderr, "test_rotation: cannot read %s, or N=%d is not 1..64\n", path, n);
        if (f) fclose(f);
        return 2;
    }
    static char keys[4096][640];
    static uint64_t seen[4096];
    int nkeys = 0, active = -1, batches = 0, used = 0;
    char line[640];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        int k = 0;
        while (k < nkeys && strcmp(keys[k], line)) k++;
        if (k == nkeys) {
            if (nkeys == 4096) break;
            snprintf(keys[nkeys++], sizeof keys[0], "%s", line);
        }
        int g = wb_rotation_pick(&seen[k], active, n);
        if (active < 0 || g != active || used + 2 > 256) batches++, used = 0;
        active = g, used += 2;
    }
    fclose(f);
    printf("%d\n", batches);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3) return replay(argv[1], atoi(argv[2]));
    int every = 0;
    /* tpch_like.py's shape: 65 shapes, 3 launches each, 18 groups: two changes, not 2 x 65 */
    CHECK(changes(65, 3, 18, &every) == 2);
    CHECK(every == 1);
    /* 36 rounds of 10 shapes, 18 groups: every group twice, a change a round but where the second
     * pass over the groups begins (it keeps group 17 open) */
    CHECK(changes(10, 36, 18, &every) == 34);
    CHECK(every == 1);
    /* one group: never a change */
    CHECK(changes(5, 7, 1, &every) == 0);
    CHECK(every == 1);
    /* 64 groups: the mask's full width */
    CHECK(changes(3, 128, 64, &every) == 126);
    CHECK(every == 1);
    /* the same shape launched back to back takes its groups in turn; a new round begins with the
     * group still open (17: no change), then 0, 1, ... */
    uint64_t seen = 0;
    int active = -1;
    for (int k = 0; k < 40; k++) {
        int g = wb_rotation_pick(&seen, active, 18);
        CHECK(g == (k < 18 ? k : k == 18 ? 17 : k < 36 ? k - 19 : k == 36 ? 16 : k - 37));
        active = g;
    }
    /* an active group out of range (not one of the n) is ignored */
    seen = 0;
    CHECK(wb_rotation_pick(&seen, 99, 4) == 0 && seen == 1);
    return TEST_DONE();
}

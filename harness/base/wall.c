/* wall.c - the random-access wall by table size (see wall.h). */
#include "harness/base/wall.h"

#include <math.h>
#include <string.h>

void wb_wall_init(wb_wall *w) { memset(w, 0, sizeof *w); }

int wb_wall_add(wb_wall *w, double bytes, double greqs) {
    if (!(isfinite(bytes) && bytes > 0 && isfinite(greqs) && greqs > 0)) return 0;
    int i = 0;
    while (i < w->n && w->bytes[i] < bytes) i++;
    if (i < w->n && w->bytes[i] == bytes) {
        if (greqs <= w->greqs[i]) return 0;
        w->greqs[i] = greqs;
        return 1;
    }
    if (w->n == WB_WALL_MAX) return 0;
    memmove(&w->bytes[i + 1], &w->bytes[i], (size_t)(w->n - i) * sizeof w->bytes[0]);
    memmove(&w->greqs[i + 1], &w->greqs[i], (size_t)(w->n - i) * sizeof w->greqs[0]);
    w->bytes[i] = bytes;
    w->greqs[i] = greqs;
    w->n++;
    return 1;
}

double wb_wall_at(const wb_wall *w, double bytes) {
    if (!(w->n > 0 && isfinite(bytes) && bytes >= w->bytes[0] && bytes <= w->bytes[w->n - 1])) return NAN;
    int i = 0;
    while (w->bytes[i] < bytes) i++;
    if (w->bytes[i] == bytes) return w->greqs[i];
    const double t = log(bytes / w->bytes[i - 1]) / log(w->bytes[i] / w->bytes[i - 1]);
    return exp(log(w->greqs[i - 1]) + t * log(w->greqs[i] / w->greqs[i - 1]));
}

/* shard.h - one shard of a sweep, `wallbench run --shard I/N`: a
 * deterministic 1/N of the sweep's points, balanced by expected cost, for
 * running one sweep on many GPUs at once (harness/node_run.sh, harness/slurm/).
 * Points that share data (family->same_data, consecutive in run order) stay
 * in one shard unless that group alone outweighs a shard's share: data
 * creation dominates some families. The ceiling family runs in every shard,
 * because each shard's roofline is judged against its own GPU's ceilings.
 * `wallbench merge` (tools/merge.c) checks the attributes written here. */
#ifndef WB_SHARD_H
#define WB_SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "harness/base/error.h"
#include "harness/base/shard_spec.h"
#include "harness/run/sweep.h"
#include "harness/store/store_h5.h"

/* Expected cost of every point, in one unit: ms of a previous run's timing +
 * counter pass when cost_path names a results file (matched by point name;
 * points it lacks get
 * their bytes scaled by that file's ms per byte), else device bytes (what
 * the point moves, each sample). source says which. */
int wb_shard_costs(const wb_run_point *pts, int n, const char *cost_path, double *cost, char *source, size_t len,
                   wb_err *e);

/* shard_of[i]: 0..count-1, or -1 for ceiling points (every shard). Groups
 * of shared data go whole, heaviest first, to the least loaded shard (ties:
 * lowest index); a group heavier than total/count is cut into consecutive
 * pieces of at most that much first. Deterministic for equal inputs. */
void wb_shard_assign(const wb_run_point *pts, int n, const double *cost, int count, int *shard_of);

/* The whole sweep's identity: FNV-1a 64 of every point name in run order,
 * as 16 hex digits. Shards of one sweep agree on it. */
void wb_shard_fingerprint(const wb_run_point *pts, int n, char out[17]);

/* What a shard records about itself and the sweep. */
typedef struct wb_shard {
    int index, count;            /* 1-based index; count 0: not sharded */
    char fingerprint[17];
    char cost_source[160];
    int points;                  /* this shard's points, ceilings included */
    int ceilings;                /* ceiling points (in every shard) */
    char counts[1024];           /* non-ceiling points per shard, "c1,c2,...,cN" */
} wb_shard;

/* Computes costs and the assignment, keeps in pts (in run order) the points
 * of shard sh->index plus the ceilings, updates *n and fills sh. With
 * sh->count 0 only the fingerprint is set and nothing is dropped. */
int wb_shard_select(wb_run_point *pts, int *n, const char *cost_path, wb_shard *sh, wb_err *e);

/* Writes sweep_fingerprint and, when sharded, shard, shard_count,
 * shard_points, shard_ceiling_points, shard_counts and shard_cost. */
int wb_shard_write_attrs(wb_store *s, const wb_shard *sh, wb_err *e);

#endif

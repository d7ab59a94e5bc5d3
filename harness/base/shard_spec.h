/* shard_spec.h - the words `run --shard I/N` and `wallbench merge` share,
 * without the sweep (and so without CUDA): the I/N parser and the family
 * that every shard measures. The assignment is harness/run/shard.h. */
#ifndef WB_SHARD_SPEC_H
#define WB_SHARD_SPEC_H

#include "harness/base/error.h"
#include "harness/base/roof_contract.h"

#define WB_SHARD_MAX 4096
/* Runs in every shard: each shard's roofline is judged against its own GPU. */
#define WB_SHARD_CEILING_FAMILY WB_CEILING_FAMILY

/* "I/N" with 1 <= I <= N <= WB_SHARD_MAX; WB_ERR with one sentence otherwise. */
int wb_shard_parse(const char *s, int *index, int *count, wb_err *e);

#endif

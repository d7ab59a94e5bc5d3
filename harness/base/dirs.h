/* dirs.h - output folders: every command that writes into a folder it is
 * given (run --out, export --out, project --out) creates it, and its
 * parents, the same way. */
#ifndef WB_DIRS_H
#define WB_DIRS_H

#include "harness/base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Creates dir and its missing parents; WB_ERR naming dir, the part that
 * failed and why (a part that exists but is not a folder, no permission). */
int wb_make_dirs(const char *dir, wb_err *e);

#ifdef __cplusplus
}
#endif
#endif

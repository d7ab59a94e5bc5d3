/* dirs.c - see dirs.h. */
#include "harness/base/dirs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int wb_make_dirs(const char *dir, wb_err *e) {
    char path[1024];
    struct stat st;
    if (!dir || !*dir) return wb_fail(e, "empty folder name");
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) return wb_fail(e, "folder name too long: %s", dir);
    for (char *p = path + 1;; p++) {
        const char c = *p;
        if (c != '/' && c != '\0') continue;
        *p = '\0';
        if (stat(path, &st) != 0) {
            if (errno != ENOENT || (mkdir(path, 0777) != 0 && errno != EEXIST))
                return wb_fail(e, "cannot create folder %s: %s (at %s)", dir, strerror(errno), path);
        } else if (!S_ISDIR(st.st_mode)) {
            return wb_fail(e, "cannot use folder %s: %s is not a folder", dir, path);
        }
        *p = c;
        if (!c) return WB_OK;
    }
}

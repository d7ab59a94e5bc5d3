/* export_profile.h - `wallbench export` on a profile file: its one figure
 * (fig4-profile: the kernels on the roofline) or one of its tables
 * (launches, kernels, ranges) as CSV or JSON. export.c parses the options
 * of both file kinds and hands a profile's here. */
#ifndef WB_EXPORT_PROFILE_H
#define WB_EXPORT_PROFILE_H

/* The options as given (NULL: not given); fig "fig4" also for --all. */
typedef struct wb_export_profile_args {
    const char *fig, *table, *format;
    const char *file; /* -o/--output */
    const char *dir;  /* --out */
    const char *with; /* refused: fig-compare is for results files */
} wb_export_profile_args;

/* Writes what a asks; the exit code (0, 2 bad input, 3 no kernel to draw). */
int wb_export_profile(const char *path, const wb_export_profile_args *a);

#endif

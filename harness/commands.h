/* commands.h - the subcommands of the one binary, `wallbench <command>`;
 * each returns the process exit code (0 ok, 1 failure/violation, 2 bad input). */
#ifndef WB_COMMANDS_H
#define WB_COMMANDS_H

/* The release `wallbench --version` names (CITATION.cff states the same;
 * tests/docs_check.py holds them together). */
#define WB_VERSION "0.1.0"

int wb_cmd_run(int argc, char **argv);      /* run.c: measure, store HDF5 */
int wb_cmd_list(int argc, char **argv);     /* run.c: families, variants, sweep sizes */
int wb_cmd_info(int argc, char **argv);     /* run/info.c: GPU, clocks, profile */
int wb_cmd_roofline(int argc, char **argv); /* roofline.c: Table 2 for the measured GPU vs L4, GH200 */
int wb_cmd_report(int argc, char **argv);   /* report.c: seed 000 Tables 2, 6, 7, 8, 9 */
int wb_cmd_export(int argc, char **argv);   /* export.c: the table one figure script reads */
int wb_cmd_compare(int argc, char **argv);  /* compare.c: two results files */
int wb_cmd_merge(int argc, char **argv);    /* merge.c: shards of one sweep as one file */
int wb_cmd_check(int argc, char **argv);    /* check.c: regression thresholds */
int wb_cmd_project(int argc, char **argv);  /* project.c: predicted results for another GPU */
int wb_cmd_profile(int argc, char **argv);  /* profile/profile_cmd.c: any program's kernels on the roofline */

#endif

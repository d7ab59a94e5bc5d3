/* main.c - `wallbench <command>`: the one binary. Each command lives in its
 * own file (commands.h) and returns the process exit code. */
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/commands.h"
#include "harness/store/schema.h"
#include "micro/families.h"
#include "micro/family_figures.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"run", wb_cmd_run, "measure the chosen points and store them in an HDF5 results file"},
    {"list", wb_cmd_list, "families, variants, sweep sizes and point names"},
    {"info", wb_cmd_info, "the GPU, its clocks and the profile it matches"},
    {"roofline", wb_cmd_roofline, "the instruction roofline of a results file against L4 and GH200"},
    {"report", wb_cmd_report, "the paper's tables from a results file"},
    {"export", wb_cmd_export, "the table one figure script reads"},
    {"compare", wb_cmd_compare, "two results files side by side; three or more: the fleet matrix"},
    {"merge", wb_cmd_merge, "the shards of one sweep (run --shard I/N) as one results file"},
    {"check", wb_cmd_check, "regression thresholds on a results file"},
    {"project", wb_cmd_project, "predicted results for another GPU"},
    {"profile", wb_cmd_profile, "any CUDA program's kernels on the roofline (profile -- CMD ARGS)"},
};
#define N_COMMANDS ((int)(sizeof commands / sizeof commands[0]))

static void usage(FILE *f) {
    fprintf(f, "usage: wallbench <command> [options]   (wallbench <command> --help for its options)\n\ncommands:\n");
    for (int i = 0; i < N_COMMANDS; i++) fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\nwallbench measures pairs of ways to write relational operators on the GPU against\n"
            "the instruction roofline: make run GPU=<profile> runs and plots, make test tests.\n"
            "--out is always a folder, -o/--output always a file; wallbench --version names the release.\n"
            "exit codes: 0 ok, 1 failure, 2 bad input, 3 no usable GPU\n");
}

/* A crash must still say where it happened: the results file already holds
 * every finished point (flushed row by row); this adds the stack, which with
 * `addr2line -f -e wallbench <offset>` names the function. */
static void on_fatal(int sig) {
    static const char head[] = "wallbench: fatal signal; stack (binary+offset):\n";
    (void)!write(2, head, sizeof head - 1);
    void *frames[64];
    int n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

int main(int argc, char **argv) {
    signal(SIGSEGV, on_fatal);
    signal(SIGBUS, on_fatal);
    signal(SIGFPE, on_fatal);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("wallbench %s (writes results schema %d, reads %d to %d)\n", WB_VERSION, WB_SCHEMA_VERSION,
               WB_SCHEMA_OLDEST, WB_SCHEMA_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    wb_err e;
    if (wb_micro_families_add(&e) != WB_OK || wb_micro_figures_add(&e) != WB_OK) {
        /* a broken micro/families.def: a build error in all but name */
        fprintf(stderr, "wallbench: %s\n", e.msg);
        return 1;
    }
    for (int i = 0; i < N_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "wallbench: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

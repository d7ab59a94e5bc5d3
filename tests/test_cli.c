/* test_cli.c - every subcommand parses options one way (harness/base/cli.c,
 * getopt_long): "--opt value" and "--opt=value" alike, positionals before,
 * between or after options, a missing value, an unknown option and a value
 * given to a flag each one sentence and exit 2, and a second parse in the
 * same process starting clean. Checked on wb_cli_next itself, on run/list
 * (run_opts.c), and through compare, check, report, project, roofline and
 * export on synthetic files (compare --family=select used to fail). */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/synth_results.h"
#include "harness/base/cli.h"
#include "harness/commands.h"
#include "harness/gpu/counters.h"
#include "harness/run/run_opts.h"
#include "micro/family_figures.h"

enum { O_NAME = 300, O_FLAG };
static const struct option longs[] = {{"name", required_argument, NULL, O_NAME}, {"flag", no_argument, NULL, O_FLAG}, {0, 0, 0, 0}};

/* What the last parse found: the option values and the positionals joined by '|'. */
static const char *got_name;
static int got_flag;
static char got_pos[256];

/* A command over longs: returns the last code of wb_cli_next. */
static int parse(int argc, char **argv) {
    wb_cli c = {"test", longs, 0};
    const char *v;
    int k, first = argc;
    got_name = NULL;
    got_flag = 0;
    got_pos[0] = '\0';
    while ((k = wb_cli_next(&c, argc, argv, &v, &first)) != WB_CLI_END) {
        if (k == WB_CLI_BAD || k == WB_CLI_HELP) return k;
        if (k == O_NAME) got_name = v;
        if (k == O_FLAG) got_flag = 1;
    }
    for (int i = first; i < argc; i++) {
        strncat(got_pos, argv[i], sizeof got_pos - strlen(got_pos) - 1);
        strncat(got_pos, "|", sizeof got_pos - strlen(got_pos) - 1);
    }
    return WB_CLI_END;
}

static int cli_run(int argc, char **argv, const char **name, int *flag, char *pos, char *err, size_t errlen) {
    int rc = synth_run(parse, argc, argv, err, errlen);
    *name = got_name;
    *flag = got_flag;
    snprintf(pos, 256, "%s", got_pos);
    return rc;
}

static void test_cli_next(void) {
    const char *name;
    int flag;
    char pos[256], err[1024];
    char *a[] = {"test", "one", "--name", "x", "two", "--flag", NULL};
    CHECK(cli_run(6, a, &name, &flag, pos, err, sizeof err) == WB_CLI_END);
    CHECK(name && !strcmp(name, "x") && flag && !strcmp(pos, "one|two|"));
    char *b[] = {"test", "--name=y", "three", NULL};
    CHECK(cli_run(3, b, &name, &flag, pos, err, sizeof err) == WB_CLI_END); /* a second parse starts clean */
    CHECK(name && !strcmp(name, "y") && !flag && !strcmp(pos, "three|"));
    char *c[] = {"test", "--name", NULL};
    CHECK(cli_run(2, c, &name, &flag, pos, err, sizeof err) == WB_CLI_BAD);
    CHECK(strstr(err, "wallbench test: option --name needs a value (see wallbench test --help)") != NULL);
    char *d[] = {"test", "--nosuch", NULL};
    CHECK(cli_run(2, d, &name, &flag, pos, err, sizeof err) == WB_CLI_BAD);
    CHECK(strstr(err, "unknown option '--nosuch'") != NULL);
    char *e[] = {"test", "--flag=1", NULL};
    CHECK(cli_run(2, e, &name, &flag, pos, err, sizeof err) == WB_CLI_BAD);
    CHECK(strstr(err, "option --flag takes no value") != NULL);
    char *f[] = {"test", "-x", NULL};
    CHECK(cli_run(2, f, &name, &flag, pos, err, sizeof err) == WB_CLI_BAD);
    CHECK(strstr(err, "unknown option '-x'") != NULL);
    char *g[] = {"test", "-h", NULL};
    CHECK(cli_run(2, g, &name, &flag, pos, err, sizeof err) == WB_CLI_HELP);
    /* an option with a value given twice is refused (the last one won without a word); a flag twice is
     * harmless; a new parse forgets the first. run takes every option again, the last one winning (make
     * run's ARGS override its --sweep, --out, --profile) and --plugin adding one: below */
    char *twice[] = {"test", "--name", "x", "--name=y", NULL};
    CHECK(cli_run(4, twice, &name, &flag, pos, err, sizeof err) == WB_CLI_BAD);
    CHECK(strstr(err, "option --name given twice: give it once") != NULL);
    char *flags[] = {"test", "--flag", "--flag", "--name", "z", NULL};
    CHECK(cli_run(5, flags, &name, &flag, pos, err, sizeof err) == WB_CLI_END && name && !strcmp(name, "z"));
    char *h[] = {"test", "--", "--flag", NULL}; /* after "--" everything is a positional */
    CHECK(cli_run(3, h, &name, &flag, pos, err, sizeof err) == WB_CLI_END);
    CHECK(!flag && !strcmp(pos, "--flag|"));
}

static void test_run_opts(void) {
    wb_run_opts o;
    char *a[] = {"run", "--family=select", "--reps", "7", "--plugin=a.so", "--plugin", "b.so", "--summary-json=s.json",
                 "--no-counters", "--n=2^20,5", NULL};
    CHECK(wb_run_opts_parse("run", 10, a, 1, &o) == 0);
    CHECK(!strcmp(o.family, "select") && o.reps == 7 && !o.counters && !strcmp(o.sizes, "2^20,5"));
    CHECK(o.nplugins == 2 && !strcmp(o.plugins[0], "a.so") && !strcmp(o.plugins[1], "b.so"));
    CHECK(!strcmp(o.summary_json, "s.json") && !o.ncu);
    char *again[] = {"run", "--sweep", "quick", "--sweep=full", NULL}; /* make run SWEEP=quick ARGS=--sweep=full */
    CHECK(wb_run_opts_parse("run", 4, again, 1, &o) == 0 && o.sweep == WB_SWEEP_FULL);
    char *b[] = {"run", "--ncu", "--reps=9", "--warmup", "3", NULL};
    CHECK(wb_run_opts_parse("run", 5, b, 1, &o) == 0);
    CHECK(o.ncu && o.reps == 1 && o.warmup == 0 && !o.counters); /* one timed launch, nothing else */
    char *c[] = {"list", "--reps=3", NULL}; /* a run option is unknown to list */
    CHECK(wb_run_opts_parse("list", 2, c, 0, &o) == 2);
    char *d[] = {"list", "--points", "--sweep=test", NULL};
    CHECK(wb_run_opts_parse("list", 3, d, 0, &o) == 0 && o.points && o.sweep == WB_SWEEP_TEST);
    char *e[] = {"run", "--reps=0", NULL};
    CHECK(wb_run_opts_parse("run", 2, e, 1, &o) == 2);
    char *f[] = {"run", "stray", NULL};
    CHECK(wb_run_opts_parse("run", 2, f, 1, &o) == 2);
    char *g[] = {"run", "--help", NULL};
    CHECK(wb_run_opts_parse("run", 2, g, 1, &o) == 1);
    /* The counter set: the roofline's for the quick sweep unless told, the whole set otherwise. */
    char *q[] = {"run", NULL}, *full[] = {"run", "--sweep=full", NULL}, *qa[] = {"run", "--counters=all", NULL};
    char *fr[] = {"run", "--sweep", "full", "--counters", "roofline", NULL}, *bad[] = {"run", "--counters=stalls", NULL};
    CHECK(wb_run_opts_parse("run", 1, q, 1, &o) == 0 && o.counter_set == WB_COUNTER_SET_ROOFLINE);
    CHECK(wb_run_opts_parse("run", 2, full, 1, &o) == 0 && o.counter_set == WB_COUNTER_SET_ALL);
    CHECK(wb_run_opts_parse("run", 2, qa, 1, &o) == 0 && o.counter_set == WB_COUNTER_SET_ALL);
    CHECK(wb_run_opts_parse("run", 5, fr, 1, &o) == 0 && o.counter_set == WB_COUNTER_SET_ROOFLINE);
    CHECK(wb_run_opts_parse("run", 2, bad, 1, &o) == 2);
}

/* The tools: "--opt=value" where they used to take "--opt value" only. */
static void test_tools(const char *dir) {
    const char *a = synth_path(dir, "a.h5"), *b = synth_path(dir, "b.h5");
    for (int k = 0; k < 2; k++) {
        synth z;
        synth_open(&z, k ? b : a, "NVIDIA H200");
        wb_row r = synth_row("select", "if_tile", 1 << 20, k ? 1.1 : 1.0);
        synth_put(&z, &r, NULL, 0);
        wb_row s = synth_row("scan", "cub", 1 << 20, 2.0);
        synth_put(&z, &s, NULL, 0);
        CHECK(synth_close(&z) == WB_OK);
    }
    char out[16384], fa[512], fb[512];
    snprintf(fa, sizeof fa, "%s", a);
    snprintf(fb, sizeof fb, "%s", b);
    char *cmp[] = {"compare", fa, fb, "--family=select", NULL};
    CHECK(synth_run(wb_cmd_compare, 4, cmp, out, sizeof out) == 0);
    CHECK(strstr(out, "select") != NULL && strstr(out, "scan") == NULL);
    char *cmp2[] = {"compare", "--family", "scan", fa, fb, NULL};
    CHECK(synth_run(wb_cmd_compare, 5, cmp2, out, sizeof out) == 0);
    CHECK(strstr(out, "scan") != NULL);
    char *cmp3[] = {"compare", fa, fb, "--family", NULL};
    CHECK(synth_run(wb_cmd_compare, 4, cmp3, out, sizeof out) == 2);
    CHECK(strstr(out, "option --family needs a value") != NULL);
    char *rep[] = {"report", "--markdown", fa, NULL};
    CHECK(synth_run(wb_cmd_report, 3, rep, out, sizeof out) == 0);
    char *rep2[] = {"report", fa, "--markdown=yes", NULL};
    CHECK(synth_run(wb_cmd_report, 3, rep2, out, sizeof out) == 2);
    CHECK(strstr(out, "option --markdown takes no value") != NULL);
    char *roof[] = {"roofline", fa, "--nosuch", NULL};
    CHECK(synth_run(wb_cmd_roofline, 3, roof, out, sizeof out) == 2);
    CHECK(strstr(out, "unknown option '--nosuch'") != NULL);
    char *proj[] = {"project", fa, "--to=nosuch", NULL};
    CHECK(synth_run(wb_cmd_project, 3, proj, out, sizeof out) == 2);
    CHECK(strstr(out, "nosuch") != NULL);
    char *chk[] = {"check", "--metrics", NULL};
    CHECK(synth_run(wb_cmd_check, 2, chk, out, sizeof out) == 0);
    CHECK(strstr(out, "time_median_ms") != NULL);
    char *chk2[] = {"check", fa, "--baseline=/nonexistent.h5", "--thresholds", "/nonexistent.txt", NULL};
    CHECK(synth_run(wb_cmd_check, 5, chk2, out, sizeof out) == 2);
    CHECK(strstr(out, "/nonexistent") != NULL);
    char *exp[] = {"export", fa, "--fig=select", "--out", (char *)dir, NULL};
    CHECK(synth_run(wb_cmd_export, 5, exp, out, sizeof out) != 2);
    char *info[] = {"info", "--device=x", NULL};
    CHECK(synth_run(wb_cmd_info, 2, info, out, sizeof out) == 2);
    CHECK(strstr(out, "bad --device 'x'") != NULL);
}

int main(void) {
    char dir[] = "/tmp/wb_cli_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    wb_err fe;
    if (wb_micro_figures_add(&fe) != WB_OK) return fprintf(stderr, "figures: %s\n", fe.msg), 1; /* as main does */
    test_cli_next();
    test_run_opts();
    test_tools(dir);
    synth_remove_dir(dir);
    return TEST_DONE();
}

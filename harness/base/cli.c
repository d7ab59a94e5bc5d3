/* cli.c - getopt_long for every subcommand (see cli.h). */
#include "harness/base/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WB_CLI_MAX 64

int wb_cli_bad(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "wallbench %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see wallbench %s --help)\n", cmd);
    return 2;
}

int wb_cli_next(wb_cli *c, int argc, char **argv, const char **value, int *first) {
    struct option all[WB_CLI_MAX + 2];
    int n = 0;
    for (; n < WB_CLI_MAX && c->longs[n].name; n++) all[n] = c->longs[n];
    all[n++] = (struct option){"help", no_argument, NULL, 'h'};
    all[n] = (struct option){0, 0, 0, 0};
    if (!c->started) {
        optind = 0; /* glibc: 0 re-initialises, so a second parse in one process starts clean */
        c->started = 1;
        c->nseen = 0;
    }
    opterr = 0;
    *value = NULL;
    /* The leading ':' tells a missing value (':') from an unknown option ('?'). */
    /* -o is --output (a file) wherever a command has that option: one meaning across commands */
    int has_output = 0;
    for (int i = 0; i < n; i++) has_output |= !strcmp(all[i].name, "output") && all[i].val == 'o';
    int k = getopt_long(argc, argv, has_output ? ":ho:" : ":h", all, NULL);
    const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
    switch (k) {
    case -1: *first = optind; return WB_CLI_END;
    case 'h': return WB_CLI_HELP;
    case ':': return wb_cli_bad(c->cmd, "option %s needs a value", arg), WB_CLI_BAD;
    case '?':
        if (strncmp(arg, "--", 2) != 0) return wb_cli_bad(c->cmd, "unknown option '-%c'", optopt), WB_CLI_BAD;
        /* An "--flag=value" given to a flag also lands here. */
        for (int i = 0; i < n; i++) {
            size_t len = strlen(all[i].name);
            if (!strncmp(arg, "--", 2) && !strncmp(arg + 2, all[i].name, len) && arg[2 + len] == '=' &&
                all[i].has_arg == no_argument)
                return wb_cli_bad(c->cmd, "option --%s takes no value", all[i].name), WB_CLI_BAD;
        }
        return wb_cli_bad(c->cmd, "unknown option '%s'", arg), WB_CLI_BAD;
    default:
        for (int r = 0; c->repeatable && c->repeatable[r]; r++)
            if (c->repeatable[r] == k || c->repeatable[r] == -1) goto take;
        for (int i = 0; i < n; i++) {
            if (all[i].val != k || all[i].has_arg == no_argument) continue;
            for (int s = 0; s < c->nseen; s++)
                if (c->seen[s] == k)
                    return wb_cli_bad(c->cmd, "option --%s given twice: give it once", all[i].name), WB_CLI_BAD;
            if (c->nseen < (int)(sizeof c->seen / sizeof c->seen[0])) c->seen[c->nseen++] = k;
            break;
        }
    take:
        *value = optarg;
        return k;
    }
}

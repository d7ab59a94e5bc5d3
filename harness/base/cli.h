/* cli.h - one way to parse options for every subcommand: getopt_long over
 * a table of long options, so that "--opt value" and "--opt=value" both
 * work, and one wording for every mistake. */
#ifndef WB_CLI_H
#define WB_CLI_H

#include <getopt.h>

/* What wb_cli_next returns besides an option's val. */
#define WB_CLI_END (-1)  /* no more options: positionals are argv[*first..argc) */
#define WB_CLI_BAD (-2)  /* bad input; the sentence is printed */
#define WB_CLI_HELP (-3) /* -h or --help */

typedef struct wb_cli {
    const char *cmd;            /* "compare": messages start "wallbench compare: " */
    const struct option *longs; /* terminated by {0}; -h/--help are added, and -o for a long "output"
                                   whose val is 'o' (--out is a folder, -o/--output a file, everywhere) */
    int started;
    const int *repeatable;      /* vals that may come more than once, 0-terminated; NULL: none; (const int[]){-1, 0}:
                                   every option, the last one winning (run: make run's ARGS come after its own) */
    int seen[64], nseen;        /* the vals of options with a value given so far: a second one is refused */
} wb_cli;

/* The next option of argv; *value is its argument (NULL for flags).
 * Unknown options, missing values, values given to flags and an option with a value given twice
 * (the last would win without a word) print
 * "wallbench <cmd>: ... (see wallbench <cmd> --help)" and return WB_CLI_BAD.
 * At WB_CLI_END, *first is the index of the first positional argument
 * (getopt_long moves them to the end). Restarts getopt on the first call,
 * so commands may be parsed more than once in one process (tests). */
int wb_cli_next(wb_cli *c, int argc, char **argv, const char **value, int *first);

/* Prints "wallbench <cmd>: <message> (see wallbench <cmd> --help)"; returns 2. */
int wb_cli_bad(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif

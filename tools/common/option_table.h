/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * option_table.h - the one table of a program's options: each option is one
 * row (its names, its value's name, its help, where its value goes), and
 * everything else is derived from the rows: getopt_long()'s arguments,
 * the option lines of --help, the shell completions and the list that
 * make check compares with the man pages.
 *
 * equix-cli (every command), equix-bench and equix-count describe their
 * options with it. How a value is checked stays with the program: the
 * kinds below are the two every program shares; a program numbers its
 * own from TOOL_OPT_OWN and reads those itself.
 */
#ifndef EQUIX_TOOLS_OPTION_TABLE_H
#define EQUIX_TOOLS_OPTION_TABLE_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum tool_option_kind {
	TOOL_OPT_FLAG = 0, /* no value: the int field becomes 1 */
	TOOL_OPT_TEXT,     /* the value, as given, into a const char * */
	TOOL_OPT_OWN,      /* the program's own kinds start here */
};

/* One option. Rows may name the first fields in order and the rest by
 * designator (.short_name = 'q'): the omitted ones are 0. */
typedef struct tool_option {
	const char *name; /* the long name, without "--" */
	const char *arg;  /* the value's name ("HEX"); NULL: a flag */
	const char *help; /* the --help text; '\n' continues the line */
	int kind;         /* a tool_option_kind, or the program's own */
	size_t field;     /* offsetof() its field in the program's values */
	double lo, hi;    /* a range, for kinds that check one */
	int lo_ok;        /* lo itself is in the range */
	char short_name;  /* '\0': none */
	int hidden;       /* not in --help nor in the completions */
} tool_option;

/* A command: a program, or a subcommand of one ("pow solve"). */
typedef struct tool_command {
	const char *name;     /* "equix-cli", "solve", "pow solve" */
	const char *synopsis; /* after the name in a list ("CHALLENGE") */
	const char *summary;  /* one line, for the list of commands */
	const tool_option *options;
	size_t n_options;
	/* The operands complete as command names (equix-cli help CMD). */
	int operand_is_command;
	/* --help: `head`, the option lines, `foot`. */
	const char *head, *foot;
} tool_command;



#define TOOL_OPTIONS(table) (table), (sizeof(table) / sizeof((table)[0]))

/* The option lines of --help, help texts at `column` (0: two past the
 * widest "  -q, --quiet ARG"). */
void tool_options_help(FILE *f, const tool_option *options, size_t n,
		       int column);

/* getopt_long()'s arguments for the table: longopts (n + 1 entries, the
 * last all zero) whose val is the short name, else 256 + the row's index;
 * shortopts (at least 2 * n + 2 bytes) starting with ':'. */
void tool_options_getopt(const tool_option *options, size_t n,
			 struct option *longopts, char *shortopts);

/* The row of the option getopt_long() returned as `val`, or NULL. */
const tool_option *tool_option_by_val(const tool_option *options, size_t n,
				      int val);

/* The longest table a scan takes. */
#define TOOL_MAX_OPTIONS 48

/* One scan of a command's argv[1..] against its table: getopt_long()
 * with the table's arguments, restarted, printing nothing itself. What
 * an option's value means, and the wording of every refusal, stay the
 * program's. */
typedef struct tool_scan {
	const tool_option *options;
	size_t n;
	struct option longopts[TOOL_MAX_OPTIONS + 1];
	char shortopts[2 * TOOL_MAX_OPTIONS + 3];
} tool_scan;

/* Starts a scan. `in_order`: the options end at the first operand (else
 * they may follow operands, which getopt_long() moves to the end).
 * False when the table is longer than TOOL_MAX_OPTIONS. */
bool tool_scan_begin(tool_scan *s, const tool_option *options, size_t n,
		     bool in_order);

/* The next option: 0 with its row in `*row`; -1 after the last (optind
 * is then the first operand); or what getopt_long() refused, '?' (an
 * unknown option, or a value given to a flag) or ':' (a missing value),
 * with optopt and argv[optind - 1] as it left them. */
int tool_scan_next(tool_scan *s, int argc, char **argv,
		   const tool_option **row);

/* The row whose "--name" or "-c" is exactly `word`, or NULL. */
const tool_option *tool_option_by_word(const tool_option *options, size_t n,
				       const char *word);

/* The completion script for `shell` ("bash", "zsh" or "fish") of the
 * program cmds[0], whose subcommands are cmds[1..n-1] (a subcommand of
 * a subcommand is named "PARENT NAME"). Returns 0, or -1 for another
 * shell. */
int tool_completions(FILE *f, const char *shell, const tool_command *cmds,
		     size_t n);

/* One line per visible option of every command: "COMMAND\t--NAME\t-C"
 * (the last field empty without a short name); the program's own name
 * for cmds[0]. What tests/man_options.sh compares with the man page. */
void tool_options_list(FILE *f, const tool_command *cmds, size_t n);

#endif /* EQUIX_TOOLS_OPTION_TABLE_H */

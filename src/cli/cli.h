/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli.h - what the parts of equix-cli share: its exit statuses (args.h,
 * in the tools' library, since the simulator returns them too), the
 * table of each command (option_table.h: its options, --help, the
 * completions) and the entry point of each subcommand.
 *
 * Every subcommand takes its own argv, whose argv[0] is the subcommand's
 * name ("solve", "pow solve", ...), and returns the process exit status.
 */
#ifndef EQUIX_CLI_H
#define EQUIX_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "args.h"
#include "option_table.h"

/* The row of -h/--help, for values (type `T`) with an int field `help`. */
#define CLI_HELP_OPTION(T)                                                 \
	{"help", NULL, "show this help", TOOL_OPT_FLAG, offsetof(T, help),   \
	 0, 0, 0, 'h', 0}

/* The row of --json, for values with an int field `json`; `what` says
 * what the object holds. */
#define CLI_JSON_OPTION(T, what)                                           \
	{"json", NULL, "one JSON object per line: " what, TOOL_OPT_FLAG,     \
	 offsetof(T, json), 0, 0, 0, 0, 0}

/* The row of --id, the service's blinded ID, which both pow commands
 * take the same way: for values with a text field `id`. */
#define CLI_POW_ID_OPTION(T)                                               \
	{"id", "HEX", "the service's blinded ID, 64 hex digits (\"-\":\n"    \
		      "the line on standard input)", TOOL_OPT_TEXT,        \
	 offsetof(T, id), 0, 0, 0, 0, 0}

extern const tool_command cli_solve_command, cli_verify_command,
	cli_hash_command, cli_pow_solve_command, cli_pow_verify_command,
	cli_pow_simulate_command;

int cmd_solve(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_pow_solve(int argc, char **argv);
int cmd_pow_verify(int argc, char **argv);
int cmd_pow_simulate(int argc, char **argv);

/* The command's --help on stdout: CLI_OK, or CLI_FAIL when it could not
 * be written (reported). */
int cli_print_help(const tool_command *cmd);
/* The same with `extra` writing more after the option lines. */
int cli_print_help_with(const tool_command *cmd, void (*extra)(FILE *f));

#endif /* EQUIX_CLI_H */

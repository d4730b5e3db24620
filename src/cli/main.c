/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c - equix-cli: solve and check Equi-X puzzles, HashX hashes and
 * Tor PoW v1 proofs from the command line.
 *
 * This file picks the subcommand and answers --help, --version and help
 * COMMAND; each subcommand reads its own options (cli.h). The commands'
 * tables (option_table.h) also give the top-level --help and, through the
 * hidden --completions SHELL and --list-options, the shell completions
 * and the list that tests/man_options.sh compares with the man page.
 * Around them, it makes the standard descriptors safe and checks that
 * all output was written (output.h).
 */
/* open_memstream: POSIX, also under -std=c11. */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include <hashx.h>

#include "args.h"
#include "cli.h"
#include "output.h"

/* The values of the top level's and of "pow"'s and "help"'s options. */
typedef struct top_args {
	int help, version;
	const char *completions;
	int list_options;
} top_args;

static const tool_option top_options[] = {
	{"help", NULL, "this help; \"equix-cli help COMMAND\" or\n"
		       "\"equix-cli COMMAND --help\": the options of COMMAND",
	 TOOL_OPT_FLAG, offsetof(top_args, help), .short_name = 'h'},
	{"version", NULL, "the version", TOOL_OPT_FLAG,
	 offsetof(top_args, version), .short_name = 'V'},
	{"completions", "SHELL", "the completion script for bash, zsh or fish",
	 TOOL_OPT_TEXT, offsetof(top_args, completions), .hidden = 1},
	{"list-options", NULL, "every option of every command, one a line",
	 TOOL_OPT_FLAG, offsetof(top_args, list_options), .hidden = 1},
};

static const tool_option help_only[] = {
	CLI_HELP_OPTION(top_args),
};

/* clang-format off */
static const tool_command top_command = {
	"equix-cli", NULL, NULL, TOOL_OPTIONS(top_options), 0,
	"usage: equix-cli COMMAND [OPTIONS] [ARGUMENTS]\n"
	"\n", /* then the commands, then the options */
	"\n"
	"Exit status: 0 success or valid, 1 invalid or failed (also: the output\n"
	"could not be written), 2 usage error or malformed input.\n",
};

static const tool_command pow_command = {
	"pow", "solve|verify|simulate ...", "Tor's PoW v1",
	TOOL_OPTIONS(help_only), 0,
	"usage: equix-cli pow solve --id HEX --seed HEX --effort N [OPTIONS]\n"
	"       equix-cli pow verify --id HEX --seed HEX [OPTIONS]\n"
	"       equix-cli pow simulate [--scenario NAME|FILE] [OPTIONS]\n"
	"Tor's onion-service proof of work, version 1. \"equix-cli pow solve\n"
	"--help\", \"equix-cli pow verify --help\" and \"equix-cli pow simulate\n"
	"--help\" tell more.\n"
	"\n",
	NULL,
};

static const tool_command help_command = {
	"help", "[COMMAND]", "the options of COMMAND (COMMAND --help)",
	TOOL_OPTIONS(help_only), 1,
	"usage: equix-cli help [COMMAND]\n"
	"The --help of COMMAND (\"pow solve\", say), or of equix-cli.\n"
	"\n",
	NULL,
};
/* clang-format on */

/* Every command: the program first, a parent before its subcommands. */
static const struct {
	const tool_command *cmd;
	int (*run)(int argc, char **argv);
} commands[] = {
	{&top_command, NULL},
	{&cli_solve_command, cmd_solve},
	{&cli_verify_command, cmd_verify},
	{&cli_hash_command, cmd_hash},
	{&pow_command, NULL},
	{&cli_pow_solve_command, cmd_pow_solve},
	{&cli_pow_verify_command, cmd_pow_verify},
	{&cli_pow_simulate_command, cmd_pow_simulate},
	{&help_command, NULL},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* The tables alone, for option_table.h's generators. */
static void command_tables(tool_command *out)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		out[i] = *commands[i].cmd;
}

/* The list of commands in the top-level --help: each that has no
 * subcommands, its synopsis, its summary at the column. */
static void list_commands(FILE *f)
{
	for (size_t i = 1; i < N_COMMANDS; i++) {
		const tool_command *c = commands[i].cmd;
		int n;

		if (commands[i].run == NULL && c != &help_command)
			continue;
		n = fprintf(f, "  %s %s", c->name, c->synopsis);
		if (n >= 28) {
			fputc('\n', f);
			n = 0;
		}
		fprintf(f, "%*s%s\n", 28 - n, "", c->summary);
	}
	fputc('\n', f);
}

/* The text of `cmd`'s --help, with `extra` (if any) after its options:
 * built in memory, then printed with the checks of cli_printf(). */
int cli_print_help_with(const tool_command *cmd, void (*extra)(FILE *f))
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	int status;

	if (f == NULL)
		return cli_fail("out of memory");
	fputs(cmd->head ? cmd->head : "", f);
	if (cmd == &top_command)
		list_commands(f);
	tool_options_help(f, cmd->options, cmd->n_options, 0);
	if (extra != NULL)
		extra(f);
	fputs(cmd->foot ? cmd->foot : "", f);
	if (fclose(f) != 0 || text == NULL) {
		free(text);
		return cli_fail("out of memory");
	}
	status = cli_printf("%s", text) ? CLI_OK : CLI_FAIL;
	free(text);
	return status;
}

int cli_print_help(const tool_command *cmd)
{
	return cli_print_help_with(cmd, NULL);
}

/* The release; and, for a library built with another salt, a warning
 * that its hashes and solutions are not the standard family's (Tor's). */
static bool print_version(void)
{
	if (!cli_printf("equix-cli %s\n", PACKAGE_VERSION))
		return false;
	if (strcmp(hashx_salt(), HASHX_SALT_STANDARD) == 0)
		return true;
	return cli_printf("HashX salt \"%s\", not the standard \"%s\": "
			  "hashes and solutions differ from Tor's\n",
			  hashx_salt(), HASHX_SALT_STANDARD);
}

/* The generated text of --completions SHELL or --list-options. */
static int print_generated(const char *shell)
{
	tool_command tables[N_COMMANDS];
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	int rc = 0, status;

	if (f == NULL)
		return cli_fail("out of memory");
	command_tables(tables);
	if (shell == NULL)
		tool_options_list(f, tables, N_COMMANDS);
	else
		rc = tool_completions(f, shell, tables, N_COMMANDS);
	if (fclose(f) != 0 || text == NULL) {
		free(text);
		return cli_fail("out of memory");
	}
	status = rc != 0 ? cli_usage_error("--completions: expected bash, "
					   "zsh or fish, got '%s'",
					   cli_quote(shell).text)
	       : cli_printf("%s", text) ? CLI_OK
					: CLI_FAIL;
	free(text);
	return status;
}

/* The command whose name is the next one or two words of argv (from
 * argv[0]), or NULL; `*words` is how many it took. */
static size_t find_command(int argc, char **argv, int *words)
{
	size_t best = 0;

	*words = 0;
	for (size_t i = 1; i < N_COMMANDS; i++) {
		const char *name = commands[i].cmd->name;
		const char *space = strchr(name, ' ');
		size_t len = space ? (size_t)(space - name) : strlen(name);
		int k = space ? 2 : 1;

		if (argc < k || strncmp(argv[0], name, len) != 0 ||
		    argv[0][len] != '\0' ||
		    (space && strcmp(argv[1], space + 1) != 0))
			continue;
		if (k > *words) {
			best = i;
			*words = k;
		}
	}
	return best;
}

/* "equix-cli pow": a subcommand of pow, or pow --help. */
static int run_pow(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("pow: missing command: expected solve, "
				       "verify or simulate");
	if (tool_option_by_word(help_only, 1, argv[1]) != NULL)
		return cli_print_help(&pow_command);
	return cli_usage_error("pow: unknown command '%s': expected solve, "
			       "verify or simulate",
			       cli_quote(argv[1]).text);
}

/* "equix-cli help [COMMAND]": the same as "equix-cli COMMAND --help". */
static int run_help(int argc, char **argv)
{
	char *help_argv[] = {NULL, "--help", NULL};
	size_t i;
	int words;

	if (argc < 2)
		return cli_print_help(&top_command);
	if (tool_option_by_word(help_only, 1, argv[1]) != NULL && argc == 2)
		return cli_print_help(&help_command);
	i = find_command(argc - 1, argv + 1, &words);
	if (i == 0)
		return cli_usage_error("help: unknown command '%s' (see "
				       "equix-cli --help)",
				       cli_quote(argv[1]).text);
	if (argc > 1 + words)
		return cli_usage_error("help: too many operands ('%s'): "
				       "expected a command",
				       cli_quote(argv[1 + words]).text);
	if (commands[i].run == NULL)
		return cli_print_help(commands[i].cmd);
	help_argv[0] = (char *)commands[i].cmd->name;
	return commands[i].run(2, help_argv);
}

/* A top-level option: --help, --version, and the hidden generators. */
static int top_option(int argc, char **argv)
{
	const char *word = argv[1];
	size_t eq = strcspn(word, "=");
	const tool_option *o;
	char name[32];

	snprintf(name, sizeof name, "%.*s", (int)eq, word);
	o = tool_option_by_word(top_options, sizeof top_options /
						     sizeof top_options[0],
				name);
	if (o == NULL || (word[eq] == '=' && o->arg == NULL))
		return cli_usage_error("unknown command '%s' (see equix-cli "
				       "--help)",
				       cli_quote(word).text);
	if (o->arg != NULL) { /* --completions SHELL or --completions=SHELL */
		const char *value = word[eq] == '=' ? word + eq + 1
				    : argc > 2      ? argv[2]
						    : NULL;
		if (value == NULL)
			return cli_usage_error("option '%s' needs an "
					       "argument", name);
		if (argc > (word[eq] == '=' ? 2 : 3))
			return cli_usage_error("%s takes one argument", name);
		return print_generated(value);
	}
	if (argc > 2)
		return cli_usage_error("%s takes no arguments, got '%s'", word,
				       cli_quote(argv[2]).text);
	if (strcmp(o->name, "help") == 0)
		return cli_print_help(&top_command);
	if (strcmp(o->name, "version") == 0)
		return print_version() ? CLI_OK : CLI_FAIL;
	return print_generated(NULL);
}

/* The command named by argv[1]; its exit status. `argv[0]` of the
 * command becomes its name ("pow solve"), for messages. */
static int dispatch(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	size_t i;
	int words;

	if (argc < 2)
		return cli_usage_error("missing command (see equix-cli "
				       "--help)");
	if (cmd[0] == '-')
		return top_option(argc, argv);
	i = find_command(argc - 1, argv + 1, &words);
	if (i == 0)
		return cli_usage_error("unknown command '%s' (see equix-cli "
				       "--help)",
				       cli_quote(cmd).text);
	if (commands[i].cmd == &help_command)
		return run_help(argc - 1, argv + 1);
	if (commands[i].run == NULL)
		return run_pow(argc - 1, argv + 1);
	argv[words] = (char *)commands[i].cmd->name;
	return commands[i].run(argc - words, argv + words);
}

int main(int argc, char **argv)
{
	/* Before anything is opened: a closed descriptor must not be taken
	 * by a --batch file. */
	if (!cli_std_fds_open())
		return CLI_FAIL;
	/* The status tells whether all the output was written. */
	return cli_close_stdout(dispatch(argc, argv));
}

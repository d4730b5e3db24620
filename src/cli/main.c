/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c - equix-cli: solve and check Equi-X puzzles, HashX hashes and
 * Tor PoW v1 proofs from the command line.
 *
 * This file picks the subcommand and answers --help and --version; each
 * subcommand reads its own options (cli.h). Around them, it makes the
 * standard descriptors safe and checks that all output was written
 * (output.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

#include <hashx.h>

#include "args.h"
#include "cli.h"
#include "output.h"

/* clang-format off */
static const char usage[] =
"usage: equix-cli COMMAND [OPTIONS] [ARGUMENTS]\n"
"\n"
"  solve CHALLENGE           the Equi-X solutions of CHALLENGE\n"
"  verify CHALLENGE SOLUTION check an Equi-X solution\n"
"  hash SEED NONCE           the HashX hash of NONCE under SEED\n"
"  pow solve --id HEX --seed HEX --effort N ...\n"
"                            find a Tor PoW v1 proof\n"
"  pow verify --id HEX --seed HEX ...\n"
"                            check Tor PoW v1 proofs\n"
"  pow simulate [--scenario NAME|FILE] ...\n"
"                            simulate a service's defence under attack\n"
"\n"
"  equix-cli COMMAND --help  the options of COMMAND\n"
"  equix-cli --version       the version\n"
"\n"
"Exit status: 0 success or valid, 1 invalid or failed (also: the output\n"
"could not be written), 2 usage error or malformed input.\n";
/* clang-format on */

/* clang-format off */
static const char pow_usage[] =
"usage: equix-cli pow solve --id HEX --seed HEX --effort N [OPTIONS]\n"
"       equix-cli pow verify --id HEX --seed HEX [OPTIONS]\n"
"       equix-cli pow simulate [--scenario NAME|FILE] [OPTIONS]\n"
"Tor's onion-service proof of work, version 1. \"equix-cli pow solve\n"
"--help\", \"equix-cli pow verify --help\" and \"equix-cli pow simulate\n"
"--help\" tell more.\n";
/* clang-format on */

static bool is_help(const char *arg)
{
	return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* `argv[0]` becomes "pow solve" / "pow verify", for messages. */
static int run_pow(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("pow: missing command: expected solve, "
				       "verify or simulate");
	if (is_help(argv[1]))
		return cli_printf("%s", pow_usage) ? CLI_OK : CLI_FAIL;
	if (strcmp(argv[1], "solve") == 0) {
		argv[1] = "pow solve";
		return cmd_pow_solve(argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "verify") == 0) {
		argv[1] = "pow verify";
		return cmd_pow_verify(argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "simulate") == 0) {
		argv[1] = "pow simulate";
		return cmd_pow_simulate(argc - 1, argv + 1);
	}
	return cli_usage_error("pow: unknown command '%s': expected solve, "
			       "verify or simulate",
			       cli_quote(argv[1]).text);
}

/* The command named by argv[1]; its exit status. */
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

static int dispatch(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (argc < 2)
		return cli_usage_error("missing command (see equix-cli "
				       "--help)");
	if ((is_help(cmd) || strcmp(cmd, "--version") == 0) && argc > 2)
		return cli_usage_error("%s takes no arguments, got '%s'", cmd,
				       cli_quote(argv[2]).text);
	if (is_help(cmd))
		return cli_printf("%s", usage) ? CLI_OK : CLI_FAIL;
	if (strcmp(cmd, "--version") == 0)
		return print_version() ? CLI_OK : CLI_FAIL;
	if (strcmp(cmd, "solve") == 0)
		return cmd_solve(argc - 1, argv + 1);
	if (strcmp(cmd, "verify") == 0)
		return cmd_verify(argc - 1, argv + 1);
	if (strcmp(cmd, "hash") == 0)
		return cmd_hash(argc - 1, argv + 1);
	if (strcmp(cmd, "pow") == 0)
		return run_pow(argc - 1, argv + 1);
	return cli_usage_error("unknown command '%s' (see equix-cli --help)",
			       cli_quote(cmd).text);
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

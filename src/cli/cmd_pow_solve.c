/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_pow_solve.c - "pow solve": the client's search for a Tor PoW v1
 * proof, with limits, Ctrl-C, a progress line, and text or JSON output.
 */
/* sigaction, isatty: POSIX, also under -std=c11. */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include <equix_pow.h>

#include "args.h"
#include "clock.h"
#include "cancel.h"
#include "cli.h"
#include "hash_mode.h"
#include "output.h"
#include "progress.h"
#include "solution_text.h"
#include "stdin_arg.h"

/* The option texts as given; checked after the scan, so that --help
 * wins over a bad value. */
typedef struct solve_text {
	const char *id, *seed, *effort, *nonce, *threads, *max_attempts,
		*timeout;
	int json, quiet, help, interpret, compile;
	cli_hash_mode mode;
} solve_text;

#define F(m) .field = offsetof(solve_text, m)

static const tool_option options[] = {
	CLI_POW_ID_OPTION(solve_text),
	{"seed", "HEX", "the seed from the descriptor, 64 hex digits\n"
			"(\"-\": the line on standard input)", TOOL_OPT_TEXT,
	 F(seed)},
	{"effort", "N", "the effort, 0 to 4294967295", TOOL_OPT_TEXT,
	 F(effort)},
	{"nonce", "HEX", "the first nonce, 32 hex digits (default: random)",
	 TOOL_OPT_TEXT, F(nonce)},
	{"threads", "N", "worker threads, 1 to 1024 (default 1); any count\n"
			 "finds the same proof", TOOL_OPT_TEXT, F(threads)},
	{"max-attempts", "N", "give up after N nonces (0: no limit)",
	 TOOL_OPT_TEXT, F(max_attempts)},
	{"timeout", "SECONDS", "give up after SECONDS (0: no limit)",
	 TOOL_OPT_TEXT, F(timeout)},
	CLI_JSON_OPTION(solve_text, "nonce, effort,\nseed_head, solution, "
				    "attempts, seconds"),
	CLI_HASH_MODE_OPTIONS(solve_text),
	{"quiet", NULL, "no progress line (shown only when stderr is a\n"
			"terminal)", TOOL_OPT_FLAG, F(quiet), .short_name = 'q'},
	CLI_HELP_OPTION(solve_text),
};

/* clang-format off */
const tool_command cli_pow_solve_command = {
	"pow solve", "--id HEX --seed HEX --effort N ...",
	"find a Tor PoW v1 proof", TOOL_OPTIONS(options), 0,
"usage: equix-cli pow solve --id HEX --seed HEX --effort N [OPTIONS]\n"
"Searches nonces for a Tor PoW v1 proof (Equi-X plus the effort check),\n"
"as Tor's client does, and prints it.\n"
"\n",
"\n"
"Exit status: 0 found, 1 limit reached, cancelled (Ctrl-C) or --compile\n"
"impossible here, 2 usage error.\n",
};
/* clang-format on */

/* What the search needs, parsed. */
typedef struct solve_args {
	uint8_t id[EQUIX_POW_ID_LEN];
	uint8_t seed[EQUIX_POW_SEED_LEN];
	uint8_t nonce[EQUIX_POW_NONCE_LEN];
	int have_nonce;
	uint32_t effort;
	equix_pow_solve_options options;
	int json, quiet;
} solve_args;

static bool scan(int argc, char **argv, solve_text *t)
{
	memset(t, 0, sizeof *t);
	if (!cli_scan(&cli_pow_solve_command, argc, argv, t) ||
	    !cli_hash_mode_pick(t->interpret, t->compile, &t->mode))
		return false;
	return t->help ||
	       cli_check_operands(argc, argv, optind, 0, 0, "no operands");
}

static bool require(const char *cmd, const char *value, const char *name)
{
	if (value == NULL)
		cli_usage_error("%s: %s is required", cmd, name);
	return value != NULL;
}

/* The numeric options, into `a->options`. */
static bool parse_limits(const solve_text *t, solve_args *a)
{
	uint64_t v;

	if (t->threads != NULL) {
		if (!cli_parse_uint("--threads", t->threads, 1,
				    EQUIX_POW_MAX_THREADS, &v))
			return false;
		a->options.threads = (unsigned)v;
	}
	if (t->max_attempts != NULL &&
	    !cli_parse_uint("--max-attempts", t->max_attempts, 0, UINT64_MAX,
			    &a->options.max_attempts))
		return false;
	if (t->timeout != NULL && !cli_parse_seconds("--timeout", t->timeout,
						     &a->options.max_seconds))
		return false;
	return true;
}

static bool parse(const char *cmd, solve_text *t, solve_args *a)
{
	uint64_t effort;

	memset(a, 0, sizeof *a);
	equix_pow_solve_options_init(&a->options);
	if (!require(cmd, t->id, "--id") || !require(cmd, t->seed, "--seed") ||
	    !require(cmd, t->effort, "--effort"))
		return false;
	if (!cli_stdin_arg("--id", &t->id) ||
	    !cli_stdin_arg("--seed", &t->seed) ||
	    !cli_parse_hex_exact("--id", t->id, a->id, sizeof a->id) ||
	    !cli_parse_hex_exact("--seed", t->seed, a->seed, sizeof a->seed) ||
	    !cli_parse_uint("--effort", t->effort, 0, UINT32_MAX, &effort))
		return false;
	a->effort = (uint32_t)effort;
	if (t->nonce != NULL) {
		if (!cli_parse_hex_exact("--nonce", t->nonce, a->nonce,
					 sizeof a->nonce))
			return false;
		a->have_nonce = 1;
	}
	a->options.ctx_flags = cli_hash_mode_equix_flags(t->mode);
	a->json = t->json;
	a->quiet = t->quiet;
	return parse_limits(t, a);
}

/* false when it could not be written (reported): the proof is lost. */
static bool print_proof(const solve_args *a, const equix_pow_solution *proof,
			uint64_t attempts, double seconds)
{
	char nonce[2 * EQUIX_POW_NONCE_LEN + 1];
	char head[2 * EQUIX_POW_SEED_HEAD_LEN + 1];
	char solution[CLI_SOLUTION_HEX_SIZE];

	sodium_bin2hex(nonce, sizeof nonce, proof->nonce, sizeof proof->nonce);
	sodium_bin2hex(head, sizeof head, proof->seed_head,
		       sizeof proof->seed_head);
	cli_solution_format_hex(proof->solution, solution);
	if (a->json)
		return cli_printf(
			"{\"nonce\":\"%s\",\"effort\":%lu,\"seed_head\":\"%s\","
			"\"solution\":\"%s\",\"attempts\":%llu,"
			"\"seconds\":%.3f}\n",
			nonce, (unsigned long)proof->effort, head, solution,
			(unsigned long long)attempts, seconds);
	return cli_printf(
		"nonce: %s\neffort: %lu\nseed_head: %s\nsolution: %s\n"
		"attempts: %llu\nseconds: %.3f\n",
		nonce, (unsigned long)proof->effort, head, solution,
		(unsigned long long)attempts, seconds);
}

static int report_failure(equix_pow_result r, uint64_t attempts)
{
	switch (r) {
	case EQUIX_POW_FAIL_CANCELLED:
		return cli_fail("pow solve: cancelled after %llu nonces",
				(unsigned long long)attempts);
	case EQUIX_POW_FAIL_LIMIT:
		return cli_fail("pow solve: no proof within the limit (%llu "
				"nonces tried)",
				(unsigned long long)attempts);
	case EQUIX_POW_FAIL_COMPILE:
		return cli_fail("pow solve: --compile: no compiled HashX here");
	default:
		return cli_fail("pow solve: %s", equix_pow_result_string(r));
	}
}

/* The search, with Ctrl-C and (on a terminal) the progress line. */
static int run(solve_args *a)
{
	struct sigaction old_sigint;
	const volatile int *cancel = cli_cancel_install(&old_sigint);
	cli_progress progress;
	equix_pow_solution proof;
	uint64_t attempts = 0;
	double start = cli_now();
	equix_pow_result r;

	cli_progress_init(&progress, a->effort);
	a->options.cancel = cancel;
	if (!a->quiet && isatty(STDERR_FILENO)) {
		a->options.progress = cli_progress_update;
		a->options.progress_user = &progress;
	}
	r = equix_pow_solve(a->id, a->seed, a->effort,
			    a->have_nonce ? a->nonce : NULL, &a->options,
			    &proof, &attempts);
	cli_progress_clear(&progress);
	if (cancel != NULL)
		cli_cancel_restore(&old_sigint);
	if (r != EQUIX_POW_OK)
		return report_failure(r, attempts);
	return print_proof(a, &proof, attempts, cli_now() - start) ? CLI_OK
							       : CLI_FAIL;
}

int cmd_pow_solve(int argc, char **argv)
{
	solve_text t;
	solve_args a;

	if (!scan(argc, argv, &t))
		return CLI_USAGE;
	if (t.help)
		return cli_print_help(&cli_pow_solve_command);
	if (!parse(argv[0], &t, &a))
		return CLI_USAGE;
	if (!cli_hash_mode_usable(t.mode, 0))
		return CLI_FAIL;
	return run(&a);
}

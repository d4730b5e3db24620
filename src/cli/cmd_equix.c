/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_equix.c - the Equi-X and HashX subcommands: solve, verify, hash.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <equix.h>
#include <hashx.h>

#include "args.h"
#include "cli.h"
#include "hash_mode.h"
#include "output.h"
#include "solution_text.h"

/* Long-only options, numbered past every character. */
enum { OPT_HEX = 256, OPT_INTERPRET, OPT_COMPILE, OPT_INDICES };

/* clang-format off */
static const char solve_help[] =
"usage: equix-cli solve [OPTIONS] CHALLENGE\n"
"Finds the Equi-X solutions of CHALLENGE and prints each on its own line,\n"
"in the solver's order, as 32 hex digits (the 16-byte wire form).\n"
"\n"
"  --hex        CHALLENGE is hex digits (default: its bytes as text)\n"
"  --indices    print eight comma-separated hex indices instead\n"
"  --interpret  interpreted HashX only\n"
"  --compile    compiled HashX or failure (default: compiled where possible)\n"
"  -q, --quiet  no note on stderr when there are no solutions\n"
"  -h, --help   show this help\n"
"\n"
"Exit status: 0 solved (also with no solutions), 1 the challenge has no\n"
"HashX function or --compile is impossible here, 2 usage error.\n";
/* clang-format on */

/* clang-format off */
static const char verify_help[] =
"usage: equix-cli verify [OPTIONS] CHALLENGE SOLUTION\n"
"Checks an Equi-X solution of CHALLENGE; prints \"valid\", or\n"
"\"invalid: REASON\" (order, challenge, partial sum, final sum).\n"
"SOLUTION is 32 hex digits (the wire form) or eight comma-separated hex\n"
"indices.\n"
"\n"
"  --hex        CHALLENGE is hex digits (default: its bytes as text)\n"
"  --interpret  interpreted HashX only\n"
"  --compile    compiled HashX or failure (default: compiled where possible)\n"
"  -q, --quiet  accepted for symmetry; the verdict is always printed\n"
"  -h, --help   show this help\n"
"\n"
"Exit status: 0 valid, 1 invalid (or --compile impossible here),\n"
"2 usage error.\n";
/* clang-format on */

/* clang-format off */
static const char hash_help[] =
"usage: equix-cli hash [OPTIONS] SEED NONCE\n"
"Prints the HashX hash of NONCE under the function of SEED, in hex.\n"
"NONCE is a 64-bit unsigned integer, decimal or 0x-prefixed hex.\n"
"\n"
"  --hex        SEED is hex digits (default: its bytes as text)\n"
"  --interpret  interpreted HashX only\n"
"  --compile    compiled HashX or failure (default: compiled where possible)\n"
"  -q, --quiet  accepted for symmetry\n"
"  -h, --help   show this help\n"
"\n"
"Exit status: 0 hashed, 1 the seed has no HashX function (or --compile is\n"
"impossible here), 2 usage error.\n";
/* clang-format on */

static const struct option equix_options[] = {
	{"hex", no_argument, NULL, OPT_HEX},
	{"indices", no_argument, NULL, OPT_INDICES},
	{"interpret", no_argument, NULL, OPT_INTERPRET},
	{"compile", no_argument, NULL, OPT_COMPILE},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* What the options of the three subcommands set. */
typedef struct equix_args {
	int hex;
	int indices;
	int quiet;
	int help;
	cli_hash_mode mode;
	int operands; /* argv index of the first operand */
} equix_args;

/* Scans the options; --indices only where `indices_ok`. Returns true, or
 * false after printing one line. */
static bool scan_options(int argc, char **argv, int indices_ok,
			 equix_args *args)
{
	cli_options opts;
	int c;

	memset(args, 0, sizeof *args);
	cli_options_begin(&opts, ":hq", equix_options);
	while ((c = cli_next_option(&opts, argc, argv)) != -1) {
		switch (c) {
		case OPT_HEX:
			args->hex = 1;
			break;
		case OPT_INTERPRET:
			if (!cli_hash_mode_set(&args->mode, CLI_HASH_INTERPRET))
				return false;
			break;
		case OPT_COMPILE:
			if (!cli_hash_mode_set(&args->mode, CLI_HASH_COMPILE))
				return false;
			break;
		case OPT_INDICES:
			if (!indices_ok) {
				cli_usage_error("%s: only solve has --indices",
						argv[0]);
				return false;
			}
			args->indices = 1;
			break;
		case 'q':
			args->quiet = 1;
			break;
		case 'h':
			args->help = 1;
			break;
		default:
			return false;
		}
	}
	args->operands = optind;
	return true;
}

/* A challenge or seed operand: its bytes, or with --hex the bytes its hex
 * digits spell. `*owned` is what to free afterwards. */
static bool read_bytes(const char *name, const char *text, int hex,
		       const void **data, size_t *size, uint8_t **owned)
{
	*owned = NULL;
	if (!hex) {
		*data = text;
		*size = strlen(text);
		return true;
	}
	if (!cli_parse_hex_any(name, text, owned, size))
		return false;
	*data = *owned;
	return true;
}

/* Shared start of each subcommand: options, --help, operand count.
 * Returns -1 to go on, else the exit status. */
static int begin(int argc, char **argv, int indices_ok, const char *help,
		 int operands, const char *names, equix_args *args)
{
	if (!scan_options(argc, argv, indices_ok, args))
		return CLI_USAGE;
	if (args->help)
		return cli_printf("%s", help) ? CLI_OK : CLI_FAIL;
	if (!cli_check_operands(argc, argv, args->operands, operands, operands,
				names))
		return CLI_USAGE;
	return -1;
}

/* ---- solve ----------------------------------------------------------- */

/* false when they could not be written (reported). */
static bool print_solutions(const equix_solutions_buffer *sols, int indices)
{
	unsigned i;

	for (i = 0; i < sols->count; i++) {
		char text[CLI_SOLUTION_INDICES_SIZE + CLI_SOLUTION_HEX_SIZE];
		uint8_t wire[EQUIX_SOLUTION_BYTES];

		if (indices) {
			cli_solution_format_indices(&sols->sols[i], text);
		} else {
			equix_solution_pack(&sols->sols[i], wire);
			cli_solution_format_hex(wire, text);
		}
		if (!cli_printf("%s\n", text))
			return false;
	}
	return true;
}

static int solve(const equix_args *args, const void *challenge, size_t size)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE |
				     cli_hash_mode_equix_flags(args->mode));
	equix_solutions_buffer sols;
	equix_result r;

	if (ctx == NULL)
		return cli_fail("solve: out of memory");
	r = equix_solve(ctx, challenge, size, &sols);
	equix_free(ctx);
	switch (r) {
	case EQUIX_OK:
		if (!print_solutions(&sols, args->indices))
			return CLI_FAIL;
		if (sols.count == 0 && !args->quiet)
			fputs("equix-cli: no solutions\n", stderr);
		return CLI_OK;
	case EQUIX_FAIL_CHALLENGE:
		return cli_fail("solve: this challenge has no HashX function "
				"(EQUIX_FAIL_CHALLENGE)");
	case EQUIX_FAIL_COMPILE:
		return cli_fail("solve: --compile: no compiled HashX here");
	default:
		return cli_fail("solve: internal error (%d)", (int)r);
	}
}

int cmd_solve(int argc, char **argv)
{
	equix_args args;
	const void *challenge;
	size_t size;
	uint8_t *owned;
	int status = begin(argc, argv, 1, solve_help, 1, "CHALLENGE", &args);

	if (status >= 0)
		return status;
	if (!read_bytes("CHALLENGE", argv[args.operands], args.hex, &challenge,
			&size, &owned))
		return CLI_USAGE;
	status = !cli_hash_mode_usable(args.mode)
			 ? CLI_FAIL
			 : solve(&args, challenge, size);
	free(owned);
	return status;
}

/* ---- verify ---------------------------------------------------------- */

/* The verdict line for a failed check; NULL for results that are errors
 * rather than verdicts. */
static const char *invalid_reason(equix_result r)
{
	switch (r) {
	case EQUIX_FAIL_ORDER:
		return "order (the indices are not in tree order)";
	case EQUIX_FAIL_CHALLENGE:
		return "challenge (it has no HashX function)";
	case EQUIX_FAIL_PARTIAL_SUM:
		return "partial sum (a pair or quad sum lacks its zero bits)";
	case EQUIX_FAIL_FINAL_SUM:
		return "final sum (the hashes do not sum to 0 mod 2^60)";
	default:
		return NULL;
	}
}

static int verify(const equix_args *args, const void *challenge, size_t size,
		  const uint8_t wire[EQUIX_SOLUTION_BYTES])
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_VERIFY |
				     cli_hash_mode_equix_flags(args->mode));
	equix_solution sol;
	equix_result r;

	if (ctx == NULL)
		return cli_fail("verify: out of memory");
	equix_solution_unpack(wire, &sol);
	r = equix_verify(ctx, challenge, size, &sol);
	equix_free(ctx);
	if (r == EQUIX_OK)
		return cli_printf("valid\n") ? CLI_OK : CLI_FAIL;
	if (invalid_reason(r) != NULL) {
		cli_printf("invalid: %s\n", invalid_reason(r));
		return CLI_FAIL;
	}
	if (r == EQUIX_FAIL_COMPILE)
		return cli_fail("verify: --compile: no compiled HashX here");
	return cli_fail("verify: internal error (%d)", (int)r);
}

int cmd_verify(int argc, char **argv)
{
	equix_args args;
	const void *challenge;
	size_t size;
	uint8_t *owned;
	uint8_t wire[EQUIX_SOLUTION_BYTES];
	const char *bad;
	int status = begin(argc, argv, 0, verify_help, 2, "CHALLENGE SOLUTION",
			   &args);

	if (status >= 0)
		return status;
	bad = cli_solution_parse(argv[args.operands + 1], wire);
	if (bad != NULL)
		return cli_usage_error("SOLUTION: %s", bad);
	if (!read_bytes("CHALLENGE", argv[args.operands], args.hex, &challenge,
			&size, &owned))
		return CLI_USAGE;
	status = !cli_hash_mode_usable(args.mode)
			 ? CLI_FAIL
			 : verify(&args, challenge, size, wire);
	free(owned);
	return status;
}

/* ---- hash ------------------------------------------------------------ */

static int hash(const equix_args *args, const void *seed, size_t size,
		uint64_t nonce)
{
	hashx_ctx *ctx = hashx_alloc(cli_hash_mode_hashx_type(args->mode));
	uint8_t out[HASHX_SIZE];
	char text[2 * HASHX_SIZE + 1];
	hashx_result r;

	if (ctx == NULL)
		return cli_fail("hash: out of memory");
	r = hashx_make(ctx, seed, size);
	if (r == HASHX_OK)
		r = hashx_exec(ctx, nonce, out);
	hashx_free(ctx);
	switch (r) {
	case HASHX_OK:
		sodium_bin2hex(text, sizeof text, out, sizeof out);
		return cli_printf("%s\n", text) ? CLI_OK : CLI_FAIL;
	case HASHX_FAIL_SEED:
		return cli_fail("hash: this seed has no HashX function "
				"(HASHX_FAIL_SEED)");
	case HASHX_FAIL_COMPILE:
		return cli_fail("hash: --compile: no compiled HashX here");
	default:
		return cli_fail("hash: internal error (%d)", (int)r);
	}
}

int cmd_hash(int argc, char **argv)
{
	equix_args args;
	const void *seed;
	size_t size;
	uint8_t *owned;
	uint64_t nonce;
	int status = begin(argc, argv, 0, hash_help, 2, "SEED NONCE", &args);

	if (status >= 0)
		return status;
	if (!cli_parse_u64("NONCE", argv[args.operands + 1], &nonce))
		return CLI_USAGE;
	if (!read_bytes("SEED", argv[args.operands], args.hex, &seed, &size,
			&owned))
		return CLI_USAGE;
	status = !cli_hash_mode_usable(args.mode)
			 ? CLI_FAIL
			 : hash(&args, seed, size, nonce);
	free(owned);
	return status;
}

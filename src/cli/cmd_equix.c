/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_equix.c - the Equi-X and HashX subcommands: solve, verify, hash.
 * With --v2 they run Equi-X v2 and HashWX (hashwx.h) instead.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <equix.h>
#include <hashwx.h>
#include <hashx.h>

#include "args.h"
#include "cli.h"
#include "hash_mode.h"
#include "output.h"
#include "solution_text.h"
#include "stdin_arg.h"

/* What the options of the three subcommands set. */
typedef struct equix_args {
	int hex, indices, json, quiet, help, interpret, compile, v2;
	cli_hash_mode mode;
	int operands; /* argv index of the first operand */
} equix_args;

#define F(m) offsetof(equix_args, m)
#define HEX_OPTION(what)                                                   \
	{"hex", NULL, what " is hex digits (default: its bytes as text)",  \
	 TOOL_OPT_FLAG, F(hex), 0, 0, 0, 0, 0}
#define V2_OPTION(what)                                                    \
	{"v2", NULL, what, TOOL_OPT_FLAG, F(v2), 0, 0, 0, 0, 0}

static const tool_option solve_options[] = {
	HEX_OPTION("CHALLENGE"),
	{"indices", NULL, "print eight comma-separated hex indices instead",
	 TOOL_OPT_FLAG, F(indices), 0, 0, 0, 0, 0},
	CLI_JSON_OPTION(equix_args, "{\"solutions\": [...]}"),
	CLI_HASH_MODE_OPTIONS(equix_args),
	V2_OPTION("Equi-X v2 (HashWX) instead of v1"),
	{"quiet", NULL, "no note on stderr when there are no solutions",
	 TOOL_OPT_FLAG, F(quiet), 0, 0, 0, 'q', 0},
	CLI_HELP_OPTION(equix_args),
};

static const tool_option verify_options[] = {
	HEX_OPTION("CHALLENGE"),
	CLI_JSON_OPTION(equix_args, "{\"valid\": true|false, ...}"),
	CLI_HASH_MODE_OPTIONS(equix_args),
	V2_OPTION("Equi-X v2 (HashWX) instead of v1"),
	{"quiet", NULL, "accepted for symmetry; the verdict is always printed",
	 TOOL_OPT_FLAG, F(quiet), 0, 0, 0, 'q', 0},
	CLI_HELP_OPTION(equix_args),
};

static const tool_option hash_options[] = {
	HEX_OPTION("SEED"),
	CLI_JSON_OPTION(equix_args, "{\"hash\": HEX}"),
	CLI_HASH_MODE_OPTIONS(equix_args),
	V2_OPTION("HashWX instead of HashX: SEED is 64 hex digits\n"
		  "(32 bytes), the hash a 64-bit number"),
	{"quiet", NULL, "accepted for symmetry", TOOL_OPT_FLAG, F(quiet), 0, 0,
	 0, 'q', 0},
	CLI_HELP_OPTION(equix_args),
};

/* clang-format off */
const tool_command cli_solve_command = {
	"solve", "CHALLENGE", "the Equi-X solutions of CHALLENGE",
	TOOL_OPTIONS(solve_options), 0,
"usage: equix-cli solve [OPTIONS] CHALLENGE\n"
"Finds the Equi-X solutions of CHALLENGE and prints each on its own line,\n"
"in the solver's order, as 32 hex digits (the 16-byte wire form).\n"
"CHALLENGE \"-\" is the line on standard input. --v2 solves Equi-X v2.\n"
"\n",
"\n"
"Exit status: 0 solved (also with no solutions), 1 the challenge has no\n"
"HashX function or --compile is impossible here, 2 usage error.\n",
};

const tool_command cli_verify_command = {
	"verify", "CHALLENGE SOLUTION", "check an Equi-X solution",
	TOOL_OPTIONS(verify_options), 0,
"usage: equix-cli verify [OPTIONS] CHALLENGE SOLUTION\n"
"Checks an Equi-X solution of CHALLENGE; prints \"valid\", or\n"
"\"invalid: REASON\" (order, challenge, partial sum, final sum).\n"
"SOLUTION is 32 hex digits (the wire form) or eight comma-separated hex\n"
"indices. CHALLENGE \"-\" is the line on standard input. --v2 checks an\n"
"Equi-X v2 solution.\n"
"\n",
"\n"
"Exit status: 0 valid, 1 invalid (or --compile impossible here),\n"
"2 usage error.\n",
};

const tool_command cli_hash_command = {
	"hash", "SEED NONCE", "the HashX hash of NONCE under SEED",
	TOOL_OPTIONS(hash_options), 0,
"usage: equix-cli hash [OPTIONS] SEED NONCE\n"
"Prints the HashX hash of NONCE under the function of SEED, in hex.\n"
"NONCE is a 64-bit unsigned integer, decimal or 0x-prefixed hex.\n"
"SEED \"-\" is the line on standard input.\n"
"With --v2, the HashWX hash instead: SEED is exactly 32 bytes as 64 hex\n"
"digits, and the hash is a 64-bit number, printed as 16 hex digits (most\n"
"significant first), not bytes.\n"
"\n",
"\n"
"Exit status: 0 hashed, 1 the seed has no HashX function (or --compile is\n"
"impossible here), 2 usage error (also: a --v2 SEED not 32 bytes).\n",
};
/* clang-format on */

/* Scans the options of `cmd`. Returns true, or false after printing one
 * line. */
static bool scan_options(const tool_command *cmd, int argc, char **argv,
			 equix_args *args)
{
	memset(args, 0, sizeof *args);
	if (!cli_scan(cmd, argc, argv, args) ||
	    !cli_hash_mode_pick(args->interpret, args->compile, &args->mode))
		return false;
	args->operands = optind;
	return true;
}

/* A challenge or seed operand: its bytes, or with --hex the bytes its hex
 * digits spell. `*owned` is what to free afterwards. */
static bool read_bytes(const char *name, const char *text, int hex,
		       const void **data, size_t *size, uint8_t **owned)
{
	*owned = NULL;
	if (!cli_stdin_arg(name, &text))
		return false;
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
static int begin(int argc, char **argv, const tool_command *cmd,
		 int operands, const char *names, equix_args *args)
{
	if (!scan_options(cmd, argc, argv, args))
		return CLI_USAGE;
	if (args->help)
		return cli_print_help(cmd);
	if (!cli_check_operands(argc, argv, args->operands, operands, operands,
				names))
		return CLI_USAGE;
	return -1;
}

/* EQUIX_CTX_V2 for --v2, else nothing (v1). */
static equix_ctx_flags version_flag(const equix_args *args)
{
	return args->v2 ? EQUIX_CTX_V2 : (equix_ctx_flags)0;
}

/* ---- solve ----------------------------------------------------------- */

/* false when they could not be written (reported). */
static bool print_solutions(const equix_solutions_buffer *sols,
			    const equix_args *args)
{
	unsigned i;

	if (args->json && !cli_printf("{\"solutions\":["))
		return false;
	for (i = 0; i < sols->count; i++) {
		char text[CLI_SOLUTION_INDICES_SIZE + CLI_SOLUTION_HEX_SIZE];
		uint8_t wire[EQUIX_SOLUTION_BYTES];

		if (args->indices) {
			cli_solution_format_indices(&sols->sols[i], text);
		} else {
			equix_solution_pack(&sols->sols[i], wire);
			cli_solution_format_hex(wire, text);
		}
		if (args->json ? !cli_printf("%s\"%s\"", i ? "," : "", text)
			       : !cli_printf("%s\n", text))
			return false;
	}
	return !args->json || cli_printf("]}\n");
}

static int solve(const equix_args *args, const void *challenge, size_t size)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | version_flag(args) |
				     cli_hash_mode_equix_flags(args->mode));
	equix_solutions_buffer sols;
	equix_result r;

	if (ctx == NULL)
		return cli_fail("solve: out of memory");
	r = equix_solve(ctx, challenge, size, &sols);
	equix_free(ctx);
	switch (r) {
	case EQUIX_OK:
		if (!print_solutions(&sols, args))
			return CLI_FAIL;
		if (sols.count == 0 && !args->quiet)
			fputs("equix-cli: no solutions\n", stderr);
		return CLI_OK;
	case EQUIX_FAIL_CHALLENGE:
		return cli_fail("solve: this challenge has no HashX function "
				"(EQUIX_FAIL_CHALLENGE)");
	case EQUIX_FAIL_COMPILE:
		return cli_fail("solve: --compile: no compiled %s here",
				args->v2 ? "HashWX" : "HashX");
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
	int status = begin(argc, argv, &cli_solve_command, 1, "CHALLENGE",
			   &args);

	if (status >= 0)
		return status;
	if (!read_bytes("CHALLENGE", argv[args.operands], args.hex, &challenge,
			&size, &owned))
		return CLI_USAGE;
	status = !cli_hash_mode_usable(args.mode, args.v2)
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
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_VERIFY | version_flag(args) |
				     cli_hash_mode_equix_flags(args->mode));
	equix_solution sol;
	equix_result r;

	if (ctx == NULL)
		return cli_fail("verify: out of memory");
	equix_solution_unpack(wire, &sol);
	r = equix_verify(ctx, challenge, size, &sol);
	equix_free(ctx);
	if (r == EQUIX_OK)
		return cli_printf(args->json ? "{\"valid\":true}\n" : "valid\n")
			       ? CLI_OK
			       : CLI_FAIL;
	if (invalid_reason(r) != NULL) {
		/* The reasons are plain ASCII without quotes: no escapes. */
		cli_printf(args->json ? "{\"valid\":false,\"reason\":\"%s\"}\n"
				      : "invalid: %s\n",
			   invalid_reason(r));
		return CLI_FAIL;
	}
	if (r == EQUIX_FAIL_COMPILE)
		return cli_fail("verify: --compile: no compiled %s here",
				args->v2 ? "HashWX" : "HashX");
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
	int status = begin(argc, argv, &cli_verify_command,
			   2, "CHALLENGE SOLUTION",
			   &args);

	if (status >= 0)
		return status;
	bad = cli_solution_parse(argv[args.operands + 1], wire);
	if (bad != NULL)
		return cli_usage_error("SOLUTION: %s", bad);
	if (!read_bytes("CHALLENGE", argv[args.operands], args.hex, &challenge,
			&size, &owned))
		return CLI_USAGE;
	status = !cli_hash_mode_usable(args.mode, args.v2)
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
		return cli_printf(args->json ? "{\"hash\":\"%s\"}\n" : "%s\n",
				  text)
			       ? CLI_OK
			       : CLI_FAIL;
	case HASHX_FAIL_SEED:
		return cli_fail("hash: this seed has no HashX function "
				"(HASHX_FAIL_SEED)");
	case HASHX_FAIL_COMPILE:
		return cli_fail("hash: --compile: no compiled HashX here");
	default:
		return cli_fail("hash: internal error (%d)", (int)r);
	}
}

/* hash --v2: the HashWX hash of `nonce` under the 32-byte `seed`. */
static int hash_v2(const equix_args *args,
		   const uint8_t seed[HASHWX_SEED_SIZE], uint64_t nonce)
{
	hashwx_ctx *ctx = HASHWX_NOTSUPP;
	uint64_t h;

	/* The default falls back to the interpreter where compiling is
	 * impossible; --compile was checked by cli_hash_mode_usable(). */
	if (args->mode != CLI_HASH_INTERPRET)
		ctx = hashwx_alloc(HASHWX_COMPILED);
	if (ctx == HASHWX_NOTSUPP && args->mode != CLI_HASH_COMPILE)
		ctx = hashwx_alloc(HASHWX_INTERPRETED);
	if (ctx == HASHWX_NOTSUPP)
		return cli_fail("hash: --compile: no compiled HashWX here");
	if (ctx == NULL)
		return cli_fail("hash: out of memory");
	hashwx_make(ctx, seed);
	h = hashwx_exec(ctx, nonce);
	hashwx_free(ctx);
	return cli_printf(args->json ? "{\"hash\":\"%016llx\"}\n"
				     : "%016llx\n",
			  (unsigned long long)h)
		       ? CLI_OK
		       : CLI_FAIL;
}

/* The --v2 SEED: "-" or not, exactly 64 hex digits (--hex is implied). */
static int cmd_hash_v2(const equix_args *args, const char *text,
		       uint64_t nonce)
{
	uint8_t seed[HASHWX_SEED_SIZE];

	if (!cli_stdin_arg("SEED", &text) ||
	    !cli_parse_hex_exact("SEED (--v2: 32 bytes)", text, seed,
				 sizeof seed))
		return CLI_USAGE;
	return !cli_hash_mode_usable(args->mode, 1) ? CLI_FAIL
						    : hash_v2(args, seed, nonce);
}

int cmd_hash(int argc, char **argv)
{
	equix_args args;
	const void *seed;
	size_t size;
	uint8_t *owned;
	uint64_t nonce;
	int status = begin(argc, argv, &cli_hash_command, 2, "SEED NONCE",
			   &args);

	if (status >= 0)
		return status;
	if (!cli_parse_u64("NONCE", argv[args.operands + 1], &nonce))
		return CLI_USAGE;
	if (args.v2)
		return cmd_hash_v2(&args, argv[args.operands], nonce);
	if (!read_bytes("SEED", argv[args.operands], args.hex, &seed, &size,
			&owned))
		return CLI_USAGE;
	status = !cli_hash_mode_usable(args.mode, 0)
			 ? CLI_FAIL
			 : hash(&args, seed, size, nonce);
	free(owned);
	return status;
}

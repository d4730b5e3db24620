/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_pow_verify.c - "pow verify": the service's check of Tor PoW v1
 * proofs, one from the options or a batch of "pow solve --json" lines
 * sharing one replay cache.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <equix_pow.h>

#include "args.h"
#include "cli.h"
#include "hash_mode.h"
#include "json_line.h"
#include "line_reader.h"
#include "output.h"
#include "solution_text.h"

enum {
	OPT_ID = 256,
	OPT_SEED,
	OPT_PREVIOUS_SEED,
	OPT_NONCE,
	OPT_EFFORT,
	OPT_SEED_HEAD,
	OPT_SOLUTION,
	OPT_BATCH,
	OPT_MIN_EFFORT,
	OPT_INTERPRET,
	OPT_COMPILE,
};

/* clang-format off */
static const char help[] =
"usage: equix-cli pow verify --id HEX --seed HEX [--previous-seed HEX]\n"
"           [--min-effort N] --nonce HEX --effort N --seed-head HEX\n"
"           --solution SOLUTION\n"
"       equix-cli pow verify --id HEX --seed HEX [--previous-seed HEX]\n"
"           [--min-effort N] --batch FILE\n"
"Checks Tor PoW v1 proofs as a service does: minimum effort, seed head,\n"
"replay, effort, Equi-X. Prints \"valid\" or \"invalid: REASON\".\n"
"\n"
"  --id HEX             the service's blinded ID, 64 hex digits\n"
"  --seed HEX           the current seed, 64 hex digits\n"
"  --previous-seed HEX  the previous seed, also accepted\n"
"  --nonce HEX          the proof's nonce, 32 hex digits\n"
"  --effort N           its effort, 0 to 4294967295\n"
"  --seed-head HEX      the first 4 bytes of its seed, 8 hex digits\n"
"  --solution SOLUTION  32 hex digits (wire form) or eight comma-separated\n"
"                       hex indices\n"
"  --batch FILE         JSON lines as printed by \"pow solve --json\" (\"-\":\n"
"                       standard input); prints \"line N: VERDICT\" for each\n"
"                       non-blank line, \"line N: malformed: WHAT\" for bad\n"
"                       ones; a proof seen before in the batch is a replay;\n"
"                       no proofs at all is valid, with a note on stderr\n"
"  --min-effort N       refuse proofs of effort below N before any other\n"
"                       check (default 0: none)\n"
"  --interpret          interpreted HashX only\n"
"  --compile            compiled HashX or failure (default: compiled where\n"
"                       possible)\n"
"  -q, --quiet          no note on stderr when a batch has no proofs\n"
"                       (verdicts are always printed)\n"
"  -h, --help           show this help\n"
"\n"
"Exit status: 0 all valid, 1 some invalid (or --compile impossible here),\n"
"2 usage error or a malformed batch line.\n";
/* clang-format on */

static const struct option options[] = {
	{"id", required_argument, NULL, OPT_ID},
	{"seed", required_argument, NULL, OPT_SEED},
	{"previous-seed", required_argument, NULL, OPT_PREVIOUS_SEED},
	{"nonce", required_argument, NULL, OPT_NONCE},
	{"effort", required_argument, NULL, OPT_EFFORT},
	{"seed-head", required_argument, NULL, OPT_SEED_HEAD},
	{"solution", required_argument, NULL, OPT_SOLUTION},
	{"batch", required_argument, NULL, OPT_BATCH},
	{"min-effort", required_argument, NULL, OPT_MIN_EFFORT},
	{"interpret", no_argument, NULL, OPT_INTERPRET},
	{"compile", no_argument, NULL, OPT_COMPILE},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

typedef struct verify_text {
	const char *id, *seed, *previous_seed, *nonce, *effort, *seed_head,
		*solution, *batch, *min_effort;
	int help, quiet;
	cli_hash_mode mode;
} verify_text;

static int scan(int argc, char **argv, verify_text *t)
{
	cli_options opts;
	int c;

	memset(t, 0, sizeof *t);
	cli_options_begin(&opts, ":hq", options);
	while ((c = cli_next_option(&opts, argc, argv)) != -1) {
		switch (c) {
		case OPT_ID:
			t->id = optarg;
			break;
		case OPT_SEED:
			t->seed = optarg;
			break;
		case OPT_PREVIOUS_SEED:
			t->previous_seed = optarg;
			break;
		case OPT_NONCE:
			t->nonce = optarg;
			break;
		case OPT_EFFORT:
			t->effort = optarg;
			break;
		case OPT_SEED_HEAD:
			t->seed_head = optarg;
			break;
		case OPT_SOLUTION:
			t->solution = optarg;
			break;
		case OPT_BATCH:
			t->batch = optarg;
			break;
		case OPT_MIN_EFFORT:
			t->min_effort = optarg;
			break;
		case OPT_INTERPRET:
		case OPT_COMPILE:
			if (!cli_hash_mode_set(&t->mode,
					       c == OPT_COMPILE
						       ? CLI_HASH_COMPILE
						       : CLI_HASH_INTERPRET))
				return 0;
			break;
		case 'q':
			t->quiet = 1;
			break;
		case 'h':
			t->help = 1;
			break;
		default:
			return 0;
		}
	}
	return t->help ||
	       cli_check_operands(argc, argv, optind, 0, 0, "no operands");
}

/* ---- The service state ----------------------------------------------- */

/* A state whose current seed is --seed and, when given, previous seed
 * --previous-seed; NULL after printing a line. */
static equix_pow_service *make_service(const verify_text *t, int *status)
{
	uint8_t id[EQUIX_POW_ID_LEN], seed[EQUIX_POW_SEED_LEN];
	uint8_t previous[EQUIX_POW_SEED_LEN];
	uint64_t min_effort = 0;
	equix_pow_service *svc;

	*status = CLI_USAGE;
	if (t->id == NULL || t->seed == NULL) {
		cli_usage_error("pow verify: %s is required",
				t->id == NULL ? "--id" : "--seed");
		return NULL;
	}
	if (!cli_parse_hex_exact("--id", t->id, id, sizeof id) ||
	    !cli_parse_hex_exact("--seed", t->seed, seed, sizeof seed) ||
	    (t->previous_seed != NULL &&
	     !cli_parse_hex_exact("--previous-seed", t->previous_seed, previous,
				  sizeof previous)) ||
	    (t->min_effort != NULL &&
	     !cli_parse_uint("--min-effort", t->min_effort, 0, UINT32_MAX,
			     &min_effort)))
		return NULL;
	*status = CLI_FAIL;
	if (!cli_hash_mode_usable(t->mode))
		return NULL;
	/* A service learns seeds in order: the previous one first, then the
	 * rotation makes --seed current. */
	svc = equix_pow_service_alloc(id, t->previous_seed ? previous : seed, 0,
				      cli_hash_mode_equix_flags(t->mode));
	if (svc == NULL) {
		cli_fail("pow verify: cannot create the service state");
		return NULL;
	}
	if (t->previous_seed != NULL &&
	    equix_pow_service_rotate(svc, seed) != EQUIX_POW_OK) {
		equix_pow_service_free(svc);
		cli_fail("pow verify: cannot rotate to --seed");
		return NULL;
	}
	equix_pow_service_set_min_effort(svc, (uint32_t)min_effort);
	return svc;
}

/* Prints the verdict on `proof` after `prefix`; CLI_OK or CLI_FAIL. */
static int verdict(equix_pow_service *svc, const equix_pow_solution *proof,
		   const char *prefix)
{
	equix_pow_result r = equix_pow_service_verify(svc, NULL, proof);

	if (r == EQUIX_POW_OK)
		return cli_printf("%svalid\n", prefix) ? CLI_OK : CLI_FAIL;
	cli_printf("%sinvalid: %s\n", prefix, equix_pow_result_string(r));
	return CLI_FAIL;
}

/* ---- One proof from the options -------------------------------------- */

static int parse_proof_options(const verify_text *t, equix_pow_solution *proof)
{
	const char *missing = t->nonce == NULL       ? "--nonce"
			      : t->effort == NULL    ? "--effort"
			      : t->seed_head == NULL ? "--seed-head"
			      : t->solution == NULL  ? "--solution"
						     : NULL;
	const char *bad;
	uint64_t effort;

	if (missing != NULL) {
		cli_usage_error("pow verify: %s is required (or --batch)",
				missing);
		return 0;
	}
	if (!cli_parse_hex_exact("--nonce", t->nonce, proof->nonce,
				 sizeof proof->nonce) ||
	    !cli_parse_uint("--effort", t->effort, 0, UINT32_MAX, &effort) ||
	    !cli_parse_hex_exact("--seed-head", t->seed_head, proof->seed_head,
				 sizeof proof->seed_head))
		return 0;
	proof->effort = (uint32_t)effort;
	bad = cli_solution_parse(t->solution, proof->solution);
	if (bad != NULL) {
		cli_usage_error("--solution: %s", bad);
		return 0;
	}
	return 1;
}

static int verify_one(const verify_text *t)
{
	equix_pow_solution proof;
	equix_pow_service *svc;
	int status;

	if (!parse_proof_options(t, &proof))
		return CLI_USAGE;
	svc = make_service(t, &status);
	if (svc == NULL)
		return status;
	status = verdict(svc, &proof, "");
	equix_pow_service_free(svc);
	return status;
}

/* ---- A batch of JSON lines ------------------------------------------- */

/* A string field that is exactly `size` bytes in hex. */
static const char *hex_field(const json_line *line, const char *key,
			     uint8_t *out, size_t size)
{
	const json_line_field *f = json_line_get(line, key);

	if (f == NULL)
		return "missing key";
	if (f->type != JSON_LINE_STRING)
		return "expected a string";
	if (!cli_hex_exact(f->value, out, size))
		return "wrong length or not hex";
	return NULL;
}

/* The proof a parsed line describes; NULL, or what is wrong, with `*key`
 * naming the field. */
static const char *proof_from_json(const json_line *line,
				   equix_pow_solution *proof, const char **key)
{
	const json_line_field *f;
	const char *bad;
	uint64_t effort;

	if ((bad = hex_field(line, *key = "nonce", proof->nonce,
			     sizeof proof->nonce)) != NULL ||
	    (bad = hex_field(line, *key = "seed_head", proof->seed_head,
			     sizeof proof->seed_head)) != NULL)
		return bad;
	f = json_line_get(line, *key = "solution");
	if (f == NULL)
		return "missing key";
	if (f->type != JSON_LINE_STRING)
		return "expected a string";
	if ((bad = cli_solution_parse(f->value, proof->solution)) != NULL)
		return bad;
	f = json_line_get(line, *key = "effort");
	if (f == NULL)
		return "missing key";
	if (!json_line_uint(f, UINT32_MAX, &effort))
		return "expected an integer from 0 to 4294967295";
	proof->effort = (uint32_t)effort;
	return NULL;
}

static bool is_blank(const char *text, size_t length)
{
	size_t i;

	for (i = 0; i < length; i++)
		if (!strchr(" \t\r", text[i]) || text[i] == '\0')
			return false;
	return true;
}

/* One line: its verdict, CLI_OK, CLI_FAIL or CLI_USAGE (malformed). */
static int verify_line(equix_pow_service *svc, cli_line_reader *reader)
{
	json_line line;
	equix_pow_solution proof;
	const char *bad, *key;
	char prefix[32];
	size_t column = 0;

	snprintf(prefix, sizeof prefix, "line %lu: ", reader->number);
	bad = json_line_parse(reader->text, reader->length, &line, &column);
	if (bad != NULL) {
		cli_printf("%smalformed: %s at column %zu\n", prefix, bad,
			   column);
		return CLI_USAGE;
	}
	bad = proof_from_json(&line, &proof, &key);
	if (bad != NULL) {
		cli_printf("%smalformed: \"%s\": %s\n", prefix, key, bad);
		return CLI_USAGE;
	}
	return verdict(svc, &proof, prefix);
}

/* The verdict on a line the reader refused: CLI_USAGE. */
static int unreadable_line(const cli_line_reader *reader, cli_line_status s)
{
	if (s == CLI_LINE_TOO_LONG)
		cli_printf("line %lu: malformed: longer than %d bytes\n",
			   reader->number, CLI_LINE_MAX);
	else
		cli_printf("line %lu: malformed: NUL byte at column %zu; the "
			   "rest is not read\n",
			   reader->number, reader->length + 1);
	return CLI_USAGE;
}

/* Folds one line's status into the batch's: malformed beats invalid
 * beats valid. */
static int worse(int a, int b)
{
	if (a == CLI_USAGE || b == CLI_USAGE)
		return CLI_USAGE;
	return a == CLI_FAIL || b == CLI_FAIL ? CLI_FAIL : CLI_OK;
}

/* The verdicts of the lines of `in`; `t` for the file's name and
 * --quiet. */
static int read_batch(equix_pow_service *svc, FILE *in, const verify_text *t)
{
	cli_line_reader reader;
	cli_line_status s;
	int status = CLI_OK, proofs = 0;

	cli_line_reader_init(&reader, in);
	while ((s = cli_line_read(&reader)) != CLI_LINE_END) {
		if (s == CLI_LINE_ERROR)
			return cli_usage_error("--batch: cannot read '%s': %s",
					       cli_quote(t->batch).text,
					       strerror(errno));
		if (s == CLI_LINE_OK && is_blank(reader.text, reader.length))
			continue;
		proofs = 1;
		status = worse(status, s == CLI_LINE_OK
					       ? verify_line(svc, &reader)
					       : unreadable_line(&reader, s));
		/* Verdicts appear as they are decided, also in a pipe; once
		 * they cannot be written, the rest would be lost too. */
		if (!cli_flush())
			return worse(status, CLI_FAIL);
	}
	/* "All valid" of nothing: true, but worth a word (a producer that
	 * failed leaves an empty file). */
	if (!proofs && !t->quiet)
		fputs("equix-cli: no proofs in the batch\n", stderr);
	return status;
}

static int verify_batch(const verify_text *t)
{
	int use_stdin = strcmp(t->batch, "-") == 0;
	equix_pow_service *svc;
	FILE *in;
	int status;

	if (t->nonce || t->effort || t->seed_head || t->solution)
		return cli_usage_error("pow verify: --batch excludes --nonce, "
				       "--effort, --seed-head and --solution");
	svc = make_service(t, &status);
	if (svc == NULL)
		return status;
	in = use_stdin ? stdin : fopen(t->batch, "r");
	if (in == NULL) {
		status = cli_usage_error("--batch: cannot open '%s': %s",
					 cli_quote(t->batch).text,
					 strerror(errno));
	} else {
		status = read_batch(svc, in, t);
		if (!use_stdin)
			fclose(in);
	}
	equix_pow_service_free(svc);
	return status;
}

int cmd_pow_verify(int argc, char **argv)
{
	verify_text t;

	if (!scan(argc, argv, &t))
		return CLI_USAGE;
	if (t.help)
		return cli_printf("%s", help) ? CLI_OK : CLI_FAIL;
	return t.batch != NULL ? verify_batch(&t) : verify_one(&t);
}

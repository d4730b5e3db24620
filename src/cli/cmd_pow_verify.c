/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_pow_verify.c - "pow verify": the service's check of Tor PoW v1
 * proofs, one from the options or a batch of "pow solve --json" lines
 * sharing one replay cache.
 */
#include <errno.h>
#include <stddef.h>
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
#include "stdin_arg.h"

typedef struct verify_text {
	const char *id, *seed, *previous_seed, *nonce, *effort, *seed_head,
		*solution, *batch, *min_effort;
	int help, quiet, json, interpret, compile;
	cli_hash_mode mode;
} verify_text;

#define F(m) .field = offsetof(verify_text, m)

static const tool_option options[] = {
	CLI_POW_ID_OPTION(verify_text),
	{"seed", "HEX", "the current seed, 64 hex digits (\"-\": the line\n"
			"on standard input)", TOOL_OPT_TEXT, F(seed)},
	{"previous-seed", "HEX", "the previous seed, also accepted",
	 TOOL_OPT_TEXT, F(previous_seed)},
	{"nonce", "HEX", "the proof's nonce, 32 hex digits", TOOL_OPT_TEXT,
	 F(nonce)},
	{"effort", "N", "its effort, 0 to 4294967295", TOOL_OPT_TEXT,
	 F(effort)},
	{"seed-head", "HEX", "the first 4 bytes of its seed, 8 hex digits",
	 TOOL_OPT_TEXT, F(seed_head)},
	{"solution", "SOLUTION", "32 hex digits (wire form) or eight "
				 "comma-separated\nhex indices",
	 TOOL_OPT_TEXT, F(solution)},
	{"batch", "FILE", "JSON lines as printed by \"pow solve --json\" (\"-\":\n"
			  "standard input); prints \"line N: VERDICT\" for each\n"
			  "non-blank line, \"line N: malformed: WHAT\" for bad\n"
			  "ones; a proof seen before in the batch is a replay;\n"
			  "no proofs at all is valid, with a note on stderr",
	 TOOL_OPT_TEXT, F(batch)},
	{"min-effort", "N", "refuse proofs of effort below N before any other\n"
			    "check (default 0: none)", TOOL_OPT_TEXT,
	 F(min_effort)},
	CLI_JSON_OPTION(verify_text, "{\"valid\": true|false,\n"
				     "\"reason\": WHY} (batch: with \"line\": N;\n"
				     "malformed: {\"line\": N, \"valid\": false,\n"
				     "\"malformed\": WHAT})"),
	CLI_HASH_MODE_OPTIONS(verify_text),
	{"quiet", NULL, "no note on stderr when a batch has no proofs\n"
			"(verdicts are always printed)", TOOL_OPT_FLAG,
	 F(quiet), .short_name = 'q'},
	CLI_HELP_OPTION(verify_text),
};

/* clang-format off */
const tool_command cli_pow_verify_command = {
	"pow verify", "--id HEX --seed HEX ...", "check Tor PoW v1 proofs",
	TOOL_OPTIONS(options), 0,
"usage: equix-cli pow verify --id HEX --seed HEX [--previous-seed HEX]\n"
"           [--min-effort N] --nonce HEX --effort N --seed-head HEX\n"
"           --solution SOLUTION\n"
"       equix-cli pow verify --id HEX --seed HEX [--previous-seed HEX]\n"
"           [--min-effort N] --batch FILE\n"
"Checks Tor PoW v1 proofs as a service does: minimum effort, seed head,\n"
"replay, effort, Equi-X. Prints \"valid\" or \"invalid: REASON\".\n"
"\n",
"\n"
"Exit status: 0 all valid, 1 some invalid (or --compile impossible here),\n"
"2 usage error or a malformed batch line.\n",
};
/* clang-format on */

static int scan(int argc, char **argv, verify_text *t)
{
	memset(t, 0, sizeof *t);
	if (!cli_scan(&cli_pow_verify_command, argc, argv, t) ||
	    !cli_hash_mode_pick(t->interpret, t->compile, &t->mode))
		return 0;
	return t->help ||
	       cli_check_operands(argc, argv, optind, 0, 0, "no operands");
}

/* ---- The verdicts ------------------------------------------------------ */

/* `text` as the inside of a JSON string, in `out` (cut short if need
 * be): '"', '\' and control bytes escaped. */
static void json_escape(const char *text, char *out, size_t size)
{
	size_t n = 0;

	for (; *text != '\0' && n + 7 < size; text++) {
		unsigned char c = (unsigned char)*text;

		if (c == '"' || c == '\\')
			n += (size_t)snprintf(out + n, size - n, "\\%c", c);
		else if (c < 0x20)
			n += (size_t)snprintf(out + n, size - n, "\\u%04x", c);
		else
			out[n++] = (char)c;
	}
	out[n] = '\0';
}

/*
 * One verdict: `kind` "valid", "invalid" or "malformed", with `why` for
 * the last two; for line `line` of a batch (0: the one proof of the
 * options). As text: "[line N: ]KIND[: WHY]"; with --json one object.
 * False when it could not be written.
 */
static bool print_verdict(const verify_text *t, unsigned long line,
			  const char *kind, const char *why)
{
	char prefix[32] = "", escaped[512];

	if (!t->json) {
		if (line > 0)
			snprintf(prefix, sizeof prefix, "line %lu: ", line);
		return why == NULL ? cli_printf("%s%s\n", prefix, kind)
				   : cli_printf("%s%s: %s\n", prefix, kind,
						why);
	}
	if (line > 0)
		snprintf(prefix, sizeof prefix, "\"line\":%lu,", line);
	if (why == NULL)
		return cli_printf("{%s\"valid\":true}\n", prefix);
	json_escape(why, escaped, sizeof escaped);
	return cli_printf("{%s\"valid\":false,\"%s\":\"%s\"}\n", prefix,
			  strcmp(kind, "invalid") == 0 ? "reason" : kind,
			  escaped);
}

/* ---- The service state ----------------------------------------------- */

/* A state whose current seed is --seed and, when given, previous seed
 * --previous-seed; NULL after printing a line. */
static equix_pow_service *make_service(verify_text *t, int *status)
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
	if (!cli_stdin_arg("--id", &t->id) ||
	    !cli_stdin_arg("--seed", &t->seed) ||
	    !cli_parse_hex_exact("--id", t->id, id, sizeof id) ||
	    !cli_parse_hex_exact("--seed", t->seed, seed, sizeof seed) ||
	    (t->previous_seed != NULL &&
	     !cli_parse_hex_exact("--previous-seed", t->previous_seed, previous,
				  sizeof previous)) ||
	    (t->min_effort != NULL &&
	     !cli_parse_uint("--min-effort", t->min_effort, 0, UINT32_MAX,
			     &min_effort)))
		return NULL;
	*status = CLI_FAIL;
	if (!cli_hash_mode_usable(t->mode, 0))
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

/* Prints the verdict on `proof` (line `line` of a batch, else 0);
 * CLI_OK or CLI_FAIL. */
static int verdict(equix_pow_service *svc, const equix_pow_solution *proof,
		   const verify_text *t, unsigned long line)
{
	equix_pow_result r = equix_pow_service_verify(svc, NULL, proof);

	if (r == EQUIX_POW_OK)
		return print_verdict(t, line, "valid", NULL) ? CLI_OK
							     : CLI_FAIL;
	print_verdict(t, line, "invalid", equix_pow_result_string(r));
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

static int verify_one(verify_text *t)
{
	equix_pow_solution proof;
	equix_pow_service *svc;
	int status;

	if (!parse_proof_options(t, &proof))
		return CLI_USAGE;
	svc = make_service(t, &status);
	if (svc == NULL)
		return status;
	status = verdict(svc, &proof, t, 0);
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
static int verify_line(equix_pow_service *svc, cli_line_reader *reader,
		       const verify_text *t)
{
	json_line line;
	equix_pow_solution proof;
	const char *bad, *key;
	char why[160];
	size_t column = 0;

	bad = json_line_parse(reader->text, reader->length, &line, &column);
	if (bad != NULL) {
		snprintf(why, sizeof why, "%s at column %zu", bad, column);
		print_verdict(t, reader->number, "malformed", why);
		return CLI_USAGE;
	}
	bad = proof_from_json(&line, &proof, &key);
	if (bad != NULL) {
		snprintf(why, sizeof why, "\"%s\": %s", key, bad);
		print_verdict(t, reader->number, "malformed", why);
		return CLI_USAGE;
	}
	return verdict(svc, &proof, t, reader->number);
}

/* The verdict on a line the reader refused: CLI_USAGE. */
static int unreadable_line(const cli_line_reader *reader, cli_line_status s,
			   const verify_text *t)
{
	char why[80];

	if (s == CLI_LINE_TOO_LONG)
		snprintf(why, sizeof why, "longer than %d bytes", CLI_LINE_MAX);
	else
		snprintf(why, sizeof why,
			 "NUL byte at column %zu; the rest is not read",
			 reader->length + 1);
	print_verdict(t, reader->number, "malformed", why);
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
				       ? verify_line(svc, &reader, t)
				       : unreadable_line(&reader, s, t));
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

static int verify_batch(verify_text *t)
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
	if (use_stdin && !cli_stdin_claim("--batch")) {
		equix_pow_service_free(svc);
		return CLI_USAGE;
	}
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
		return cli_print_help(&cli_pow_verify_command);
	return t.batch != NULL ? verify_batch(&t) : verify_one(&t);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_cli.c - libFuzzer harness: equix-cli's argument handling on
 * arbitrary bytes, in two modes chosen by the first byte.
 *
 * Parser mode (first byte 0-6): one of the strict parsers (hex of a fixed
 * or any length, integers, seconds, an Equi-X solution, a JSON line) on the
 * rest. What a parser accepts must mean what the text says (the decoded
 * bytes re-encode to the same digits, the number prints back, every field
 * lies inside the line), and it prints nothing; what it refuses gets
 * exactly one message line.
 *
 * Command mode (any other first byte): the rest is NUL-separated words,
 * run as `equix-cli WORD...`; after a 0xff byte comes what the command
 * reads on standard input (pow verify --batch -). The exit status must be
 * 0, 1 or 2, and a usage error (2) says so in at most one printable line
 * that starts with "equix-cli: ". So that every run is short and touches
 * nothing outside, a word containing '/' becomes "-" (standard input, not
 * a file named by path), and "pow solve" gets --threads=2
 * --max-attempts=1 appended (a search runs only with these: the same
 * option given before them makes the command a usage error).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "args.h"
#include "json_line.h"
#include "solution_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* main() of src/cli/main.c, renamed for this harness by the build. */
int equix_cli_main(int argc, char **argv);

#define MAX_WORDS 64

/* ---- Capturing what the code under test prints ----------------------- */

typedef struct capture {
	FILE *saved_out, *saved_err, *saved_in;
	char *err;
	size_t err_len;
} capture;

/* stdout to /dev/null, stderr to memory, stdin from `in` (size bytes).
 * stdout is a new stream each time: equix-cli's main() closes it. */
static void capture_begin(capture *c, const uint8_t *in, size_t size)
{
	c->saved_out = stdout;
	c->saved_err = stderr;
	c->saved_in = stdin;
	c->err = NULL;
	c->err_len = 0;
	stdout = fopen("/dev/null", "w");
	stderr = open_memstream(&c->err, &c->err_len);
	/* fmemopen() refuses a zero size: an empty input is /dev/null. */
	stdin = size > 0 ? fmemopen((void *)in, size, "r")
			 : fopen("/dev/null", "r");
	if (stdout == NULL || stderr == NULL || stdin == NULL)
		abort();
}

/* `stdout_closed`: main() has closed stdout already. */
static void capture_end(capture *c, int stdout_closed)
{
	if (!stdout_closed)
		fclose(stdout);
	fclose(stderr);
	fclose(stdin);
	stdout = c->saved_out;
	stderr = c->saved_err;
	stdin = c->saved_in;
}

/* The number of lines printed on stderr; aborts on a line that is not a
 * clear message: "equix-cli: " then printable ASCII, at most 200 bytes. */
static size_t message_lines(const capture *c)
{
	size_t lines = 0, start = 0, i;

	for (i = 0; i < c->err_len; i++) {
		unsigned char ch = (unsigned char)c->err[i];
		if (ch == '\n') {
			if (strncmp(c->err + start, "equix-cli: ", 11) != 0 ||
			    i - start > 200)
				abort();
			lines++;
			start = i + 1;
		} else if (ch < 0x20 || ch >= 0x7f) {
			abort();
		}
	}
	if (start != c->err_len) /* a message without its newline */
		abort();
	return lines;
}

/* Accepted text prints nothing; refused text prints exactly one line. */
static void expect_messages(const capture *c, int accepted)
{
	if (message_lines(c) != (accepted ? 0u : 1u))
		abort();
}

/* ---- Parser mode ----------------------------------------------------- */

/* `text` is `size` bytes as lowercase hex (upper case in `text` too). */
static int same_hex(const char *text, const uint8_t *bin, size_t size)
{
	char hex[2 * 64 + 1];
	size_t i;

	if (size > 64 || strlen(text) != 2 * size)
		return 0;
	sodium_bin2hex(hex, sizeof hex, bin, size);
	for (i = 0; i < 2 * size; i++) {
		char t = text[i] >= 'A' && text[i] <= 'F'
				 ? (char)(text[i] - 'A' + 'a')
				 : text[i];
		if (t != hex[i])
			return 0;
	}
	return 1;
}

static int parse_hex_exact(const char *text, uint8_t param)
{
	uint8_t out[64];
	size_t n = param % 40;
	int ok = cli_parse_hex_exact("X", text, out, n);

	if (ok && !same_hex(text, out, n))
		abort();
	return ok;
}

static int parse_hex_any(const char *text)
{
	uint8_t *out;
	size_t n;
	int ok = cli_parse_hex_any("X", text, &out, &n);

	if (ok && n <= 64 && !same_hex(text, out, n))
		abort();
	if (ok && n != strlen(text) / 2)
		abort();
	free(out);
	return ok;
}

/* Digits only, and their value is `v`. */
static int decimal_is(const char *text, uint64_t v)
{
	char *end;

	if (text[0] == '\0' || strspn(text, "0123456789") != strlen(text))
		return 0;
	return strtoull(text, &end, 10) == v && *end == '\0';
}

static int parse_uint(const char *text, uint8_t param)
{
	uint64_t min = param & 0x0f, max = UINT64_MAX >> (param >> 2), v;
	int ok = cli_parse_uint("N", text, min, max, &v);

	if (ok && (v < min || v > max || !decimal_is(text, v)))
		abort();
	return ok;
}

static int parse_u64(const char *text)
{
	uint64_t v;
	int ok = cli_parse_u64("N", text, &v);

	if (ok && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		char *end;
		if (strtoull(text + 2, &end, 16) != v || *end != '\0')
			abort();
	} else if (ok && !decimal_is(text, v)) {
		abort();
	}
	return ok;
}

static int parse_seconds(const char *text)
{
	double v;
	int ok = cli_parse_seconds("S", text, &v);

	if (ok && !(isfinite(v) && v >= 0 && v <= 1e9))
		abort();
	/* Only zero digits give 0 ("no limit"); any other digit, however
	 * far after the point, a positive time. */
	if (ok && (v > 0) != (strpbrk(text, "123456789") != NULL))
		abort();
	return ok;
}

/* An accepted solution prints back, in both notations, to text that reads
 * back as the same wire bytes. */
static void parse_solution(const char *text)
{
	uint8_t wire[EQUIX_SOLUTION_BYTES], again[EQUIX_SOLUTION_BYTES];
	char hex[CLI_SOLUTION_HEX_SIZE], indices[CLI_SOLUTION_INDICES_SIZE];
	equix_solution s;

	if (cli_solution_parse(text, wire) != NULL)
		return;
	cli_solution_format_hex(wire, hex);
	if (cli_solution_parse(hex, again) != NULL ||
	    memcmp(again, wire, sizeof wire) != 0)
		abort();
	equix_solution_unpack(wire, &s);
	cli_solution_format_indices(&s, indices);
	if (cli_solution_parse(indices, again) != NULL ||
	    memcmp(again, wire, sizeof wire) != 0)
		abort();
}

/* Every field of an accepted line lies inside it, and its strings are C
 * strings of their stated length. */
static void parse_json(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	json_line line;
	size_t column = 0, i;
	uint64_t v;

	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (json_line_parse(text, size, &line, &column) != NULL) {
		if (column < 1 || column > size + 1)
			abort();
		free(text);
		return;
	}
	if (line.count > JSON_LINE_MAX_FIELDS)
		abort();
	for (i = 0; i < line.count; i++) {
		const json_line_field *f = &line.fields[i];
		if (f->key < text || f->key + f->key_len > text + size ||
		    f->value < text || f->value + f->value_len > text + size ||
		    strlen(f->key) != f->key_len)
			abort();
		if (f->type == JSON_LINE_STRING &&
		    strlen(f->value) != f->value_len)
			abort();
		if (json_line_get(&line, f->key) != f)
			abort();
		if (f->type == JSON_LINE_NUMBER)
			(void)json_line_uint(f, UINT64_MAX, &v);
	}
	free(text);
}

/* A C string from fuzz bytes: up to the first NUL. */
static char *c_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static void parser_mode(uint8_t which, const uint8_t *data, size_t size)
{
	uint8_t param = size > 0 ? data[0] : 0;
	char *text = c_string(data + (size > 0), size - (size > 0));
	capture c;
	int ok = 1;

	capture_begin(&c, NULL, 0);
	switch (which) {
	case 0:
		ok = parse_hex_exact(text, param);
		break;
	case 1:
		ok = parse_hex_any(text);
		break;
	case 2:
		ok = parse_uint(text, param);
		break;
	case 3:
		ok = parse_u64(text);
		break;
	case 4:
		ok = parse_seconds(text);
		break;
	/* These two return their complaint instead of printing it. */
	case 5:
		parse_solution(text);
		break;
	default:
		parse_json(data, size);
		break;
	}
	capture_end(&c, 0);
	expect_messages(&c, ok);
	free(c.err);
	free(text);
}

/* ---- Command mode ---------------------------------------------------- */

typedef struct command {
	char *words[MAX_WORDS + 4];
	int count;
	char *text; /* the words' storage */
} command;

/* Splits `size` bytes at NULs into words after "equix-cli". */
static void command_split(command *cmd, const uint8_t *data, size_t size)
{
	size_t i, start = 0;

	cmd->text = c_string(data, size);
	cmd->words[0] = "equix-cli";
	cmd->count = 1;
	for (i = 0; i <= size && cmd->count < MAX_WORDS; i++) {
		if (i < size && data[i] != '\0')
			continue;
		cmd->words[cmd->count++] = cmd->text + start;
		start = i + 1;
	}
	for (i = 1; i < (size_t)cmd->count; i++)
		if (strchr(cmd->words[i], '/') != NULL)
			cmd->words[i] = "-";
	if (cmd->count >= 3 && strcmp(cmd->words[1], "pow") == 0 &&
	    strcmp(cmd->words[2], "solve") == 0) {
		cmd->words[cmd->count++] = "--threads=2";
		cmd->words[cmd->count++] = "--max-attempts=1";
	}
	cmd->words[cmd->count] = NULL;
}

static void command_mode(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memchr(data, 0xff, size);
	size_t args = sep != NULL ? (size_t)(sep - data) : size;
	const uint8_t *in = sep != NULL ? sep + 1 : data + size;
	command cmd;
	capture c;
	int status;

	command_split(&cmd, data, args);
	capture_begin(&c, in, size - (size_t)(in - data));
	status = equix_cli_main(cmd.count, cmd.words);
	capture_end(&c, 1);
	if (status < 0 || status > 2)
		abort();
	if (message_lines(&c) > 1 && status == 2)
		abort();
	free(c.err);
	free(cmd.text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] <= 6)
		parser_mode(data[0], data + 1, size - 1);
	else
		command_mode(data + 1, size - 1);
	return 0;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * args.h - reading command-line arguments: option scanning with one-line
 * error messages, and strict parsers for hex and numbers.
 *
 * Every parser takes the name of what it parses ("--id", "NONCE") for its
 * message, prints exactly one line "equix-cli: NAME: what is wrong" on
 * stderr when the text is not acceptable, and returns false then (true when
 * it stored a value). Callers turn a false into exit status CLI_USAGE.
 */
#ifndef EQUIX_CLI_ARGS_H
#define EQUIX_CLI_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "option_table.h"

/* equix-cli's exit statuses, the same for every subcommand. */
enum cli_status {
	CLI_OK = 0,    /* success, or the proof / solution is valid */
	CLI_FAIL = 1,  /* invalid, or the operation could not be done */
	CLI_USAGE = 2, /* bad arguments or malformed input */
};

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* "equix-cli: " + message + newline on stderr; returns CLI_USAGE. */
int cli_usage_error(const char *format, ...) CLI_PRINTF(1, 2);
/* The same, returning CLI_FAIL: the arguments were fine, the work
 * failed. */
int cli_fail(const char *format, ...) CLI_PRINTF(1, 2);

/* A copy of `text` safe to show in one line of a message: at most about
 * 40 characters (then "..."), non-printable bytes as '?'. */
typedef struct cli_quoted {
	char text[48];
} cli_quoted;
cli_quoted cli_quote(const char *text);

/*
 * Scans the options of the command `cmd` (argv[0] names it) by its table
 * into `values`: a flag's int field becomes 1, an option with a value
 * stores the text as given in its const char * field, whatever its kind
 * (the command checks the values after the scan). Stops, returning false
 * after one line, at the first refused option: unknown, ambiguous,
 * missing its value, given a value it does not take, or given twice (a
 * short option and its long name are the same option).
 * Returns true with optind at the first operand.
 */
bool cli_scan(const tool_command *cmd, int argc, char **argv, void *values);

/* The operands after the options must number from `min` to `max`;
 * `names` describes them ("CHALLENGE SOLUTION"). Returns true when they
 * do, else prints one line and returns false. */
bool cli_check_operands(int argc, char **argv, int first, int min, int max,
			const char *names);

/* Exactly `size` bytes as 2 * size hex digits. */
bool cli_parse_hex_exact(const char *name, const char *text, uint8_t *out,
			 size_t size);
/* The same without a message: true when `text` is such hex. */
bool cli_hex_exact(const char *text, uint8_t *out, size_t size);
/* Any even number of hex digits (none too); `*out` is malloc'ed, free it
 * (it may be NULL when `*size` is 0). Running out of memory also prints
 * its line and returns false. */
bool cli_parse_hex_any(const char *name, const char *text, uint8_t **out,
		       size_t *size);

/* A decimal integer from `min` to `max`: digits only, no sign, no
 * spaces. */
bool cli_parse_uint(const char *name, const char *text, uint64_t min,
		    uint64_t max, uint64_t *out);
/* A 64-bit unsigned integer, decimal or "0x"-prefixed hex. */
bool cli_parse_u64(const char *name, const char *text, uint64_t *out);
/* A number of seconds: a decimal number from 0 to 10^9. A positive
 * number too small for a double is DBL_TRUE_MIN, never 0. */
bool cli_parse_seconds(const char *name, const char *text, double *out);
/* A decimal number (plain notation, as for seconds) from `min` to `max`;
 * the message gives the range. */
bool cli_parse_decimal(const char *name, const char *text, double min,
		       double max, double *out);

#endif /* EQUIX_CLI_ARGS_H */

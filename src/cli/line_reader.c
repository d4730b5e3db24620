/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * line_reader.c - bounded line reading; see line_reader.h.
 */
#include "line_reader.h"

void cli_line_reader_init(cli_line_reader *reader, FILE *in)
{
	reader->in = in;
	reader->number = 0;
	reader->length = 0;
	reader->skipping = 0;
	reader->stopped = 0;
	reader->text[0] = '\0';
}

/* Skips the rest of a too-long line, already reported: CLI_LINE_OK just
 * past its newline, CLI_LINE_END at the end of the input or at a NUL
 * byte, or CLI_LINE_ERROR. */
static cli_line_status skip_rest(cli_line_reader *reader)
{
	int c;

	reader->skipping = 0;
	while ((c = getc(reader->in)) != EOF && c != '\n') {
		if (c == '\0') {
			reader->stopped = 1;
			return CLI_LINE_END;
		}
	}
	if (ferror(reader->in))
		return CLI_LINE_ERROR;
	return c == EOF ? CLI_LINE_END : CLI_LINE_OK;
}

/* Counts a line of `n` bytes in the buffer, reported as `s`. */
static cli_line_status line(cli_line_reader *reader, size_t n,
			    cli_line_status s)
{
	reader->number++;
	reader->length = n;
	reader->text[n] = '\0';
	return s;
}

cli_line_status cli_line_read(cli_line_reader *reader)
{
	size_t n = 0;
	int c;

	if (reader->stopped)
		return CLI_LINE_END;
	if (reader->skipping) {
		cli_line_status s = skip_rest(reader);
		if (s != CLI_LINE_OK)
			return s;
	}
	while ((c = getc(reader->in)) != EOF && c != '\n') {
		if (c == '\0') {
			reader->stopped = 1;
			return line(reader, n, CLI_LINE_NUL);
		}
		/* The verdict now: the rest may never end. */
		if (n == CLI_LINE_MAX) {
			reader->skipping = 1;
			return line(reader, 0, CLI_LINE_TOO_LONG);
		}
		reader->text[n++] = (char)c;
	}
	if (ferror(reader->in))
		return CLI_LINE_ERROR;
	if (c == EOF && n == 0)
		return CLI_LINE_END;
	return line(reader, n, CLI_LINE_OK);
}

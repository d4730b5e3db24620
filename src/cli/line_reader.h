/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * line_reader.h - reading a stream one bounded line at a time, so that a
 * hostile input can neither exhaust memory nor desynchronize the line
 * count, nor keep the reader busy without a verdict: a line longer than
 * CLI_LINE_MAX bytes is reported as soon as it passes the bound, and the
 * rest of it skipped; a NUL byte, which text never holds, ends the input
 * (an endless stream of them, /dev/zero, has no line end to wait for).
 */
#ifndef EQUIX_CLI_LINE_READER_H
#define EQUIX_CLI_LINE_READER_H

#include <stddef.h>
#include <stdio.h>

/* The longest line accepted, without its newline. */
#define CLI_LINE_MAX 4096

typedef enum cli_line_status {
	CLI_LINE_OK,       /* a line is in the buffer */
	CLI_LINE_TOO_LONG, /* a line passed CLI_LINE_MAX bytes; the next
			    * read skips the rest of it */
	CLI_LINE_NUL,      /* a line has a NUL byte after `length` bytes;
			    * nothing more is read */
	CLI_LINE_END,      /* no more lines (also after a NUL byte) */
	CLI_LINE_ERROR,    /* reading failed (errno says why) */
} cli_line_status;

typedef struct cli_line_reader {
	FILE *in;
	unsigned long number;        /* of the line just read, from 1 */
	size_t length;               /* its bytes, without the newline */
	int skipping;                /* the rest of a too-long line is due */
	int stopped;                 /* a NUL byte was read */
	char text[CLI_LINE_MAX + 1]; /* NUL after `length` bytes */
} cli_line_reader;

void cli_line_reader_init(cli_line_reader *reader, FILE *in);

/* Reads the next line; a last line without a newline counts. */
cli_line_status cli_line_read(cli_line_reader *reader);

#endif /* EQUIX_CLI_LINE_READER_H */

/*
 * line_reader.h - reading a stream one bounded line at a time, so that a
 * hostile input can neither exhaust memory nor desynchronize the line
 * count: a line longer than CLI_LINE_MAX bytes is reported as such and
 * the rest of it skipped.
 */
#ifndef EQUIX_CLI_LINE_READER_H
#define EQUIX_CLI_LINE_READER_H

#include <stddef.h>
#include <stdio.h>

/* The longest line accepted, without its newline. */
#define CLI_LINE_MAX 4096

typedef enum cli_line_status {
	CLI_LINE_OK,       /* a line is in the buffer */
	CLI_LINE_TOO_LONG, /* a line was longer than CLI_LINE_MAX; skipped */
	CLI_LINE_END,      /* no more lines */
	CLI_LINE_ERROR,    /* reading failed (errno says why) */
} cli_line_status;

typedef struct cli_line_reader {
	FILE *in;
	unsigned long number;        /* of the line just read, from 1 */
	size_t length;               /* its bytes, without the newline */
	char text[CLI_LINE_MAX + 1]; /* NUL after `length` bytes (the line
				      * itself may hold NULs too) */
} cli_line_reader;

void cli_line_reader_init(cli_line_reader *reader, FILE *in);

/* Reads the next line; a last line without a newline counts. */
cli_line_status cli_line_read(cli_line_reader *reader);

#endif /* EQUIX_CLI_LINE_READER_H */

/*
 * line_reader.c - bounded line reading; see line_reader.h.
 */
#include "line_reader.h"

void cli_line_reader_init(cli_line_reader *reader, FILE *in)
{
	reader->in = in;
	reader->number = 0;
	reader->length = 0;
	reader->text[0] = '\0';
}

/* Skips to just past the next newline. Returns 0 on a read error. */
static int skip_rest(FILE *in)
{
	int c;

	while ((c = getc(in)) != EOF && c != '\n')
		;
	return !ferror(in);
}

cli_line_status cli_line_read(cli_line_reader *reader)
{
	size_t n = 0;
	int c;

	while ((c = getc(reader->in)) != EOF && c != '\n') {
		if (n == CLI_LINE_MAX) {
			reader->number++;
			reader->length = 0;
			reader->text[0] = '\0';
			return skip_rest(reader->in) ? CLI_LINE_TOO_LONG
						     : CLI_LINE_ERROR;
		}
		reader->text[n++] = (char)c;
	}
	if (ferror(reader->in))
		return CLI_LINE_ERROR;
	if (c == EOF && n == 0)
		return CLI_LINE_END;
	reader->number++;
	reader->length = n;
	reader->text[n] = '\0';
	return CLI_LINE_OK;
}

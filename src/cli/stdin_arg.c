/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stdin_arg.c - an argument read from standard input; see stdin_arg.h.
 */
#include "stdin_arg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "line_reader.h"

/* Who read standard input, NULL before anyone did. */
static const char *owner;
/* The line, kept for the rest of the process. */
static cli_line_reader reader;

bool cli_is_stdin_arg(const char *text)
{
	return text != NULL && strcmp(text, "-") == 0;
}

bool cli_stdin_claim(const char *name)
{
	if (owner != NULL)
		return !cli_usage_error("%s: standard input is read once, and "
					"%s has read it",
					name, owner);
	owner = name;
	return true;
}

/* One line about the reader's status `s` for the first read. */
static bool refuse(const char *name, cli_line_status s)
{
	switch (s) {
	case CLI_LINE_END:
		return !cli_usage_error("%s: '-' reads standard input, which "
					"is empty",
					name);
	case CLI_LINE_TOO_LONG:
		return !cli_usage_error("%s: the line on standard input is "
					"longer than %d bytes",
					name, CLI_LINE_MAX);
	case CLI_LINE_NUL:
		return !cli_usage_error("%s: a NUL byte on standard input",
					name);
	default:
		return !cli_usage_error("%s: cannot read standard input: %s",
					name, strerror(errno));
	}
}

bool cli_stdin_arg(const char *name, const char **text)
{
	cli_line_status s;

	if (!cli_is_stdin_arg(*text))
		return true;
	if (!cli_stdin_claim(name))
		return false;
	cli_line_reader_init(&reader, stdin);
	s = cli_line_read(&reader);
	if (s != CLI_LINE_OK)
		return refuse(name, s);
	/* One line: more would be a value silently dropped. */
	if (getc(stdin) != EOF)
		return !cli_usage_error("%s: more than one line on standard "
					"input", name);
	if (ferror(stdin))
		return refuse(name, CLI_LINE_ERROR);
	*text = reader.text;
	return true;
}

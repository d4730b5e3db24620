/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stdin_arg.h - "-" for a challenge, a seed or an id: the value is read
 * from standard input instead.
 *
 * Exactly one line is read: its bytes without the final newline (a last
 * line without one counts; a carriage return is kept, as any other byte).
 * Refused, with one line on stderr: no input at all, a second line, a
 * line longer than CLI_LINE_MAX bytes, a NUL byte, a read error, and a
 * second "-" in one command (standard input is read once). A challenge
 * or seed that is the one character "-" is given as --hex 2d, or on
 * standard input.
 */
#ifndef EQUIX_CLI_STDIN_ARG_H
#define EQUIX_CLI_STDIN_ARG_H

#include <stdbool.h>

/* Whether `text` asks for standard input: it is "-". */
bool cli_is_stdin_arg(const char *text);

/* When `*text` is "-", replaces it with the line read from standard input
 * (valid until exit); `name` ("CHALLENGE", "--id") is for the messages.
 * Returns false after one line on stderr. */
bool cli_stdin_arg(const char *name, const char **text);

/* Claims standard input for `name` (--batch -): false after one line on
 * stderr when an argument already read it. */
bool cli_stdin_claim(const char *name);

#endif /* EQUIX_CLI_STDIN_ARG_H */

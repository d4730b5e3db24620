/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * say.h - the tools' one form of a message on stderr: "PROGRAM: TEXT" on
 * one line. equix-cli (args.h), equix-bench (benchutil.h) and equix-count
 * each name themselves through it, so the three speak alike.
 */
#ifndef EQUIX_TOOLS_SAY_H
#define EQUIX_TOOLS_SAY_H

#include <stdarg.h>

/* Writes "PROGRAM: ", the formatted message and a newline on stderr. */
void tools_vsay(const char *program, const char *format, va_list ap);

#endif /* EQUIX_TOOLS_SAY_H */

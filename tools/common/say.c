/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * say.c - see say.h.
 */
#include <stdio.h>

#include "say.h"

void tools_vsay(const char *program, const char *format, va_list ap)
{
	fprintf(stderr, "%s: ", program);
	vfprintf(stderr, format, ap);
	fputc('\n', stderr);
}

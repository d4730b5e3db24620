/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.c - see clock.h.
 */
/* clock_gettime: POSIX, also under -std=c11. */
#define _POSIX_C_SOURCE 200809L

#include <time.h>

#include "clock.h"

double cli_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double cli_now(void)
{
	return cli_now_ns() / 1e9;
}

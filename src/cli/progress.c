/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * progress.c - the progress line; see progress.h.
 */
#include "progress.h"

#include <stdio.h>

/* Updates at most this often, and not during the first half second (a
 * quick solve shows nothing). */
#define PROGRESS_INTERVAL 0.25
#define PROGRESS_DELAY 0.5

void cli_progress_init(cli_progress *progress, uint32_t effort)
{
	progress->effort = effort;
	progress->shown_at = 0;
	progress->width = 0;
}

/* "42s", "3m07s", "2h05m", or "days" for more than 99 hours. */
static void format_duration(double seconds, char *out, size_t size)
{
	unsigned long s = seconds < 0 ? 0 : (unsigned long)(seconds + 0.5);

	if (seconds >= 99 * 3600.0)
		snprintf(out, size, "days");
	else if (s < 60)
		snprintf(out, size, "%lus", s);
	else if (s < 3600)
		snprintf(out, size, "%lum%02lus", s / 60, s % 60);
	else
		snprintf(out, size, "%luh%02lum", s / 3600, s / 60 % 60);
}

void cli_progress_update(void *user, uint64_t attempts, double seconds)
{
	cli_progress *progress = user;
	double expected = progress->effort / 2.0;
	double rate;
	char eta[32];
	int n;

	if (seconds < PROGRESS_DELAY ||
	    seconds - progress->shown_at < PROGRESS_INTERVAL)
		return;
	progress->shown_at = seconds;
	rate = (double)attempts / seconds;
	if (expected < 1)
		expected = 1;
	if (rate > 0)
		format_duration(expected / rate, eta, sizeof eta);
	else
		snprintf(eta, sizeof eta, "?");
	n = fprintf(stderr,
		    "\r%llu nonces, %.1f/s, expect ~%s more "
		    "(effort %lu)",
		    (unsigned long long)attempts, rate, eta,
		    (unsigned long)progress->effort);
	/* Pad over the rest of a longer previous line. */
	if (n > 0 && n < progress->width)
		fprintf(stderr, "%*s", progress->width - n, "");
	if (n > progress->width)
		progress->width = n;
	fflush(stderr);
}

void cli_progress_clear(cli_progress *progress)
{
	if (progress->width == 0)
		return;
	fprintf(stderr, "\r%*s\r", progress->width, "");
	fflush(stderr);
	progress->width = 0;
}

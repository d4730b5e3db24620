/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * progress.h - the progress line of a long "pow solve" on a terminal:
 * nonces tried, their rate, and the expected time to a proof.
 *
 * Each nonce gives about two Equi-X solutions, and each passes the effort
 * check with probability about 1/E, so a proof takes about E/2 nonces
 * (at least one). The search is memoryless: however long it has run, about
 * E/2 more nonces are expected, which is what the line shows.
 */
#ifndef EQUIX_CLI_PROGRESS_H
#define EQUIX_CLI_PROGRESS_H

#include <stdint.h>

typedef struct cli_progress {
	uint32_t effort;
	double shown_at; /* seconds into the search of the last update */
	int width;       /* characters of the line on screen, 0: none */
} cli_progress;

void cli_progress_init(cli_progress *progress, uint32_t effort);

/* An equix_pow_progress_fn, `user` being a cli_progress: redraws the
 * line on stderr a few times a second at most. */
void cli_progress_update(void *user, uint64_t attempts, double seconds);

/* Erases the line, if one is shown. */
void cli_progress_clear(cli_progress *progress);

#endif /* EQUIX_CLI_PROGRESS_H */

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cancel.c - the SIGINT flag; see cancel.h.
 */
/* sigaction: POSIX, also under -std=c11. */
#define _POSIX_C_SOURCE 200809L

#include "cancel.h"

#include <string.h>

/* The one piece of global mutable state in equix-cli: a signal handler
 * can reach nothing else. The solver's API takes a volatile int; on every
 * platform this tool builds for, that is sig_atomic_t. */
static volatile int cancel_flag;
_Static_assert(sizeof(int) == sizeof(sig_atomic_t),
	       "the cancel flag must be a sig_atomic_t");

static void on_sigint(int signo)
{
	(void)signo;
	cancel_flag = 1;
}

const volatile int *cli_cancel_install(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	/* A second Ctrl-C gets the default action: no way to hang. */
	sa.sa_flags = SA_RESETHAND;
	cancel_flag = 0;
	/* An ignored SIGINT (a background job of a script) stays ignored. */
	if (sigaction(SIGINT, NULL, old) != 0 || old->sa_handler == SIG_IGN ||
	    sigaction(SIGINT, &sa, NULL) != 0)
		return NULL;
	return &cancel_flag;
}

void cli_cancel_restore(const struct sigaction *old)
{
	sigaction(SIGINT, old, NULL);
}

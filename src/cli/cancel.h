/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cancel.h - Ctrl-C during a long search: the first SIGINT raises a flag
 * the solver polls (equix_pow_solve_options.cancel), so it stops cleanly;
 * a second one interrupts as usual.
 */
#ifndef EQUIX_CLI_CANCEL_H
#define EQUIX_CLI_CANCEL_H

#include <signal.h>

/* Installs the handler, saving the previous one in `*old`. Returns the
 * flag, or NULL when SIGINT is ignored (it stays so) or the handler could
 * not be installed; then there is nothing to restore. */
const volatile int *cli_cancel_install(struct sigaction *old);

/* Puts back the handler saved by cli_cancel_install(). */
void cli_cancel_restore(const struct sigaction *old);

#endif /* EQUIX_CLI_CANCEL_H */

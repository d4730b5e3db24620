/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.h - the one clock the commands time themselves with (pow solve's
 * "seconds", pow simulate's measurements of this machine and its wall
 * time): monotonic, so that a change of the system's date moves nothing.
 */
#ifndef EQUIX_CLI_CLOCK_H
#define EQUIX_CLI_CLOCK_H

/* Seconds since some fixed point in the past. */
double cli_now(void);

#endif /* EQUIX_CLI_CLOCK_H */

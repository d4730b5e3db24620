/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.h - the one clock the tools time themselves with (pow solve's
 * "seconds", pow simulate's measurements of this machine and its wall
 * time, equix-bench's samples): monotonic, so that a change of the
 * system's date moves nothing.
 */
#ifndef EQUIX_CLI_CLOCK_H
#define EQUIX_CLI_CLOCK_H

/* Seconds since some fixed point in the past. */
double cli_now(void);

/* The same clock in nanoseconds, to the clock's own resolution (a double
 * holds every nanosecond of some 100 days exactly). */
double cli_now_ns(void);

#endif /* EQUIX_CLI_CLOCK_H */

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * saturate.h - the one addition the service's defence does on times and
 * totals that come from the caller (queue.c, controller.c): saturating,
 * so that a time near UINT64_MAX or a huge total makes a deadline of
 * "never" instead of wrapping to one in the past.
 */
#ifndef EQUIX_POW_SATURATE_H
#define EQUIX_POW_SATURATE_H

#include <stdint.h>

static inline uint64_t pow_add_saturated(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#endif

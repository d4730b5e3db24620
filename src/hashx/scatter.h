/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scatter.h - the bucket table that HashX's scatter forms fill: Equi-X's
 * stage 0, which hashes a range of inputs and sorts each by its hash. The
 * table's widths are Equi-X's (solver.h names them and fills this
 * descriptor); HashX's back-ends take them from here as data, so that no
 * code of HashX states them.
 *
 * The rule every form follows (hashx_scatter_put is it in C): v, the
 * hash's first 8 bytes as a little-endian integer, goes into bucket
 * b = v & (2^bucket_bits - 1), as its next item if the bucket has fewer
 * than `capacity`: the input, as 16 bits, in idx[b * capacity + item] and
 * v >> bucket_bits in data[...]; a full bucket drops it. Inputs are put in
 * input order, so the items of a bucket are in input order too.
 */
#ifndef HASHX_SCATTER_H
#define HASHX_SCATTER_H

#include <stdint.h>

typedef struct hashx_scatter {
	uint16_t *counts;     /* [2^bucket_bits] */
	uint16_t *idx;        /* [2^bucket_bits * capacity] */
	uint64_t *data;       /* [2^bucket_bits * capacity] */
	uint32_t capacity;    /* items per bucket */
	unsigned bucket_bits; /* 1..16 */
} hashx_scatter;

/* The bucket mask of table `t`. */
static inline uint64_t hashx_scatter_mask(const hashx_scatter *t)
{
	return ((uint64_t)1 << t->bucket_bits) - 1;
}

/* Puts input `input`, whose hash starts with v, into its bucket. Forced
 * inline: the one-hash-at-a-time loops call it per input, and a call
 * there costs 7 instructions per input (make bench-instructions). */
static inline __attribute__((always_inline)) void
hashx_scatter_put(const hashx_scatter *t, uint64_t input, uint64_t v)
{
	unsigned b = (unsigned)(v & hashx_scatter_mask(t));
	unsigned item = t->counts[b];

	if (item >= t->capacity)
		return;
	t->counts[b] = (uint16_t)(item + 1);
	t->idx[b * t->capacity + item] = (uint16_t)input;
	t->data[b * t->capacity + item] = v >> t->bucket_bits;
}

#endif

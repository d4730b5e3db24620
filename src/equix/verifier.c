/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verifier.c - the sums of an Equi-X solution, in the reference's order
 * (pairs, then quads, then the whole), so each bad solution gets the
 * reference's result code. The 8 hashes are computed together first
 * (hash_family.h): for v1 in vector lanes that costs about what 2 hashes
 * one at a time did, so hashing only as far as the first bad pair saves
 * nothing.
 */
#include <config.h>

#include "hash_family.h"
#include "puzzle.h"
#include "verifier.h"

/* The sum of two consecutive leaves' hashes. */
static uint64_t pair_sum(const uint64_t *h)
{
	return h[0] + h[1];
}

/* Sum of one half (four leaves' hashes), or a failure. */
static equix_result half_sum(const uint64_t *h, uint64_t *sum)
{
	uint64_t left = pair_sum(&h[0]);

	if (left & EQUIX_PAIR_MASK)
		return EQUIX_FAIL_PARTIAL_SUM;
	uint64_t right = pair_sum(&h[2]);
	if (right & EQUIX_PAIR_MASK)
		return EQUIX_FAIL_PARTIAL_SUM;
	*sum = left + right;
	return (*sum & EQUIX_QUAD_MASK) ? EQUIX_FAIL_PARTIAL_SUM : EQUIX_OK;
}

equix_result equix_verify_sums(const equix_hash *hash,
			       const equix_solution *s)
{
	uint64_t in[EQUIX_NUM_IDX], h[EQUIX_NUM_IDX], left, right;
	equix_result r;

	for (int i = 0; i < EQUIX_NUM_IDX; i++)
		in[i] = s->idx[i];
	equix_hash_8(hash, in, h);
	r = half_sum(&h[0], &left);
	if (r == EQUIX_OK)
		r = half_sum(&h[4], &right);
	if (r != EQUIX_OK)
		return r;
	return ((left + right) & EQUIX_FULL_MASK) ? EQUIX_FAIL_FINAL_SUM
						  : EQUIX_OK;
}

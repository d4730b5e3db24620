/*
 * verifier.c - the sums of an Equi-X solution, cheapest first: each pair
 * is checked as soon as it is hashed, so most bad solutions cost 2 or 4
 * hashes, not 8.
 */
#include <config.h>

#include "context.h"
#include "puzzle.h"
#include "verifier.h"

static uint64_t pair_sum(const hashx_ctx *hash, const equix_idx *leaves)
{
	return hashx_exec_u64(hash, leaves[0]) +
	       hashx_exec_u64(hash, leaves[1]);
}

/* Sum of one half (four leaves), or a failure. */
static equix_result half_sum(const hashx_ctx *hash, const equix_idx *leaves,
			     uint64_t *sum)
{
	uint64_t left = pair_sum(hash, &leaves[0]);

	if (left & EQUIX_PAIR_MASK)
		return EQUIX_FAIL_PARTIAL_SUM;
	uint64_t right = pair_sum(hash, &leaves[2]);
	if (right & EQUIX_PAIR_MASK)
		return EQUIX_FAIL_PARTIAL_SUM;
	*sum = left + right;
	return (*sum & EQUIX_QUAD_MASK) ? EQUIX_FAIL_PARTIAL_SUM : EQUIX_OK;
}

equix_result equix_verify_sums(const hashx_ctx *hash, const equix_solution *s)
{
	uint64_t left, right;
	equix_result r = half_sum(hash, &s->idx[0], &left);

	if (r == EQUIX_OK)
		r = half_sum(hash, &s->idx[4], &right);
	if (r != EQUIX_OK)
		return r;
	return ((left + right) & EQUIX_FULL_MASK) ? EQUIX_FAIL_FINAL_SUM
						   : EQUIX_OK;
}

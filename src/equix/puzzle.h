/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * puzzle.h - the rules of an Equi-X solution, shared by solver and verifier.
 *
 * Equi-X is Equihash with n = 60, k = 3 over HashX: eight leaves i0..i7
 * whose 64-bit hash values (modular addition) sum to zero in the low 60
 * bits, pairwise in the low 15, by fours in the low 30. Wagner's algorithm
 * finds such trees stage by stage; the ordering rule makes each set of
 * eight indices count once (the tree's children are ordered, smaller
 * first), so a solver cannot present permutations as new solutions.
 */
#ifndef EQUIX_PUZZLE_H
#define EQUIX_PUZZLE_H

#include <stdbool.h>
#include <stdint.h>

#include <equix.h>

/* Zero bits each level of the tree must have in its sum. */
#define EQUIX_PAIR_MASK ((UINT64_C(1) << 15) - 1)  /* two leaves */
#define EQUIX_QUAD_MASK ((UINT64_C(1) << 30) - 1)  /* four leaves */
#define EQUIX_FULL_MASK ((UINT64_C(1) << 60) - 1)  /* all eight */

/*
 * Subtree order: a subtree of 2^k leaves is compared as the little-endian
 * number its indices spell (the first index least significant). A left
 * subtree must not compare greater than its right sibling.
 */
static inline uint64_t equix_subtree_key(const equix_idx *idx, int leaves)
{
	uint64_t key = 0;

	for (int i = leaves - 1; i >= 0; i--)
		key = key << 16 | idx[i];
	return key;
}

static inline bool equix_subtrees_ordered(const equix_idx *left,
					  const equix_idx *right, int leaves)
{
	return equix_subtree_key(left, leaves) <=
	       equix_subtree_key(right, leaves);
}

/* Puts the two sibling subtrees of 2^k leaves at `idx` in order. */
static inline void equix_order_subtrees(equix_idx *idx, int leaves)
{
	if (equix_subtrees_ordered(idx, idx + leaves, leaves))
		return;
	for (int i = 0; i < leaves; i++) {
		equix_idx t = idx[i];

		idx[i] = idx[leaves + i];
		idx[leaves + i] = t;
	}
}

/* Whether a whole solution is in tree order: the halves, the quarters,
 * then each pair. */
static inline bool equix_solution_ordered(const equix_solution *s)
{
	return equix_subtrees_ordered(&s->idx[0], &s->idx[4], 4) &&
	       equix_subtrees_ordered(&s->idx[0], &s->idx[2], 2) &&
	       equix_subtrees_ordered(&s->idx[4], &s->idx[6], 2) &&
	       equix_subtrees_ordered(&s->idx[0], &s->idx[1], 1) &&
	       equix_subtrees_ordered(&s->idx[2], &s->idx[3], 1) &&
	       equix_subtrees_ordered(&s->idx[4], &s->idx[5], 1) &&
	       equix_subtrees_ordered(&s->idx[6], &s->idx[7], 1);
}

#endif

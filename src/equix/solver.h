/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * solver.h - Wagner's algorithm for Equi-X, and the memory it works in.
 *
 * Stage 0 hashes all 2^16 indices into 256 "coarse" buckets by the low 8
 * bits of the hash value. Each following stage pairs every bucket b with
 * its complement -b (mod 256), so that the pair's sum is zero in the bits
 * already sorted on, and finds the partners among them with a scratch
 * table of 128 "fine" buckets on the next 7 bits; each pair whose sum is
 * also zero there goes into the next stage's coarse buckets by its next 8
 * bits. After three stages, a pair of pairs of pairs whose sum is zero in
 * the next 15 bits is a solution.
 *
 * The bucket capacities and the order of every loop decide which solutions
 * are found and in which order (items that do not fit are dropped), and
 * callers rely on that order, so all of them are fixed here.
 */
#ifndef EQUIX_SOLVER_H
#define EQUIX_SOLVER_H

#include <stdint.h>

#include <equix.h>

#include "hash_family.h"

#define EQUIX_INDEX_SPACE (UINT32_C(1) << 16)
#define EQUIX_COARSE_BITS 8 /* a coarse bucket: these low bits of the sum */
#define EQUIX_COARSE_BUCKETS (1 << EQUIX_COARSE_BITS)
#define EQUIX_COARSE_ITEMS 336   /* per coarse bucket; more are dropped */
#define EQUIX_FINE_BUCKETS 128   /* by the next 7 bits, to find partners */
#define EQUIX_FINE_ITEMS 12      /* per fine bucket; more are dropped */

/*
 * A pair found at one stage, as a reference to its two parents in the
 * previous stage: bits 0-7 the left parent's coarse bucket b (the right one
 * is in -b), bits 8-16 the right parent's position, bits 17-25 the left's.
 */
typedef uint32_t equix_pair_ref;

/* The ref's fields: widths and where they start. */
#define EQUIX_REF_BUCKET_BITS 8 /* a coarse bucket, 0..255 */
#define EQUIX_REF_POS_BITS 9    /* a position in a bucket, 0..335 */
#define EQUIX_REF_RIGHT_SHIFT EQUIX_REF_BUCKET_BITS
#define EQUIX_REF_LEFT_SHIFT (EQUIX_REF_RIGHT_SHIFT + EQUIX_REF_POS_BITS)
#define EQUIX_REF_POS_MASK ((1u << EQUIX_REF_POS_BITS) - 1)
#define EQUIX_REF_BITS (EQUIX_REF_LEFT_SHIFT + EQUIX_REF_POS_BITS)

_Static_assert(EQUIX_COARSE_BUCKETS == 1 << EQUIX_REF_BUCKET_BITS,
	       "a ref's bucket field holds exactly every coarse bucket");
_Static_assert(EQUIX_COARSE_ITEMS <= 1 << EQUIX_REF_POS_BITS,
	       "a ref's position fields hold every position in a bucket");
_Static_assert(EQUIX_REF_BITS <= 32, "a ref fits its type");

/* Stage 3's filter: one bit per value of this many low bits of an item. */
#define EQUIX_FILTER_BITS 15

typedef struct equix_stage1 { /* leaves, from stage 0 */
	uint16_t counts[EQUIX_COARSE_BUCKETS];
	equix_idx idx[EQUIX_COARSE_BUCKETS][EQUIX_COARSE_ITEMS];
} equix_stage1;

/*
 * Stage 2's items (pairs) are one word each: the data, of which the 37
 * bits from bit 23 of the tree sum are still needed, in the low
 * EQUIX_PAIR_DATA_BITS, the pair's ref in the 26 bits above. Only the
 * data is read while pairing, and the ref bits above it do not disturb
 * the low bits of sums.
 */
#define EQUIX_PAIR_DATA_BITS 38
_Static_assert(EQUIX_PAIR_DATA_BITS + EQUIX_REF_BITS <= 64,
	       "a stage-2 item holds its data and its ref");

typedef struct equix_stage2 {
	uint16_t counts[EQUIX_COARSE_BUCKETS];
	uint64_t item[EQUIX_COARSE_BUCKETS][EQUIX_COARSE_ITEMS];
} equix_stage2;

/* Stage 3's items (quads): the ref in the high 32 bits, with 32 bits of
 * data below, of which the 23 low ones are exact (the rest comes from the
 * refs in stage 2's items) and stage 3 uses 22. */
#define EQUIX_QUAD_DATA_BITS 32
_Static_assert(EQUIX_QUAD_DATA_BITS + EQUIX_REF_BITS <= 64,
	       "a stage-3 item holds its data and its ref");

typedef struct equix_stage3 {
	uint16_t counts[EQUIX_COARSE_BUCKETS];
	uint64_t item[EQUIX_COARSE_BUCKETS][EQUIX_COARSE_ITEMS];
} equix_stage3;

/*
 * The table a stage pairs one bucket b with its complement in: the
 * complement's items by fine bucket (as positions, already shifted into
 * place in an equix_pair_ref). Stages 1 and 2 then list every matching
 * pair as the ref it will be stored as, in search order; stage 3 uses
 * the filter instead of the list.
 */
typedef struct equix_scratch {
	uint8_t counts[EQUIX_FINE_BUCKETS];
	uint32_t items[EQUIX_FINE_BUCKETS][EQUIX_FINE_ITEMS];
	equix_pair_ref pairs[EQUIX_COARSE_ITEMS * EQUIX_FINE_ITEMS];
	/* Stage 3 only: one bit per value of the low 15 bits of the items
	 * entered (see solver.c). */
	uint64_t filter[(1 << EQUIX_FILTER_BITS) / 64];
} equix_scratch;

/*
 * The solver's memory, 1,576,320 bytes. The hash bits still to be summed
 * ("data") shrink from stage to stage; stage 1's are dead once stage 2 is
 * built, so stage 3's share their space.
 */
typedef struct equix_solver_heap {
	equix_stage1 stage1;
	equix_stage2 stage2;
	union {
		uint64_t stage1_data[EQUIX_COARSE_BUCKETS][EQUIX_COARSE_ITEMS];
		equix_stage3 stage3;
	} u;
	equix_scratch scratch;
} equix_solver_heap;

/* Finds up to EQUIX_MAX_SOLS solutions for the function made last in
 * `hash`; returns how many. */
unsigned equix_solver_solve(equix_hash *hash, equix_solver_heap *heap,
			    equix_solution out[EQUIX_MAX_SOLS]);

#endif

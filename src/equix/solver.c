/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * solver.c - the Equi-X solver (see solver.h for the algorithm).
 */
#include <config.h>

#include <stdbool.h>
#include <string.h>

#include "hash_family.h"
#include "puzzle.h"
#include "solver.h"

/* The complement of a coarse or fine bucket: sums of a value from bucket x
 * and one from its complement are zero in those bits. */
static unsigned coarse_complement(unsigned b)
{
	return (EQUIX_COARSE_BUCKETS - b) % EQUIX_COARSE_BUCKETS;
}

static unsigned fine_complement(unsigned f)
{
	return (EQUIX_FINE_BUCKETS - f) % EQUIX_FINE_BUCKETS;
}

static equix_pair_ref make_ref(unsigned bucket, unsigned left, unsigned right)
{
	return (equix_pair_ref)(left << EQUIX_REF_LEFT_SHIFT |
				right << EQUIX_REF_RIGHT_SHIFT | bucket);
}

/* ---- stage 0: hashing ---------------------------------------------- */

/* Stage 0 hashes every index into the coarse buckets, with HashX's
 * scatter table (scatter.h): Equi-X's widths, handed to the hash as data
 * (hash_family.h: HashX's own scatter forms for v1, HashWX's batches for
 * v2). */
static void hash_leaves(equix_hash *hash, equix_solver_heap *h)
{
	const hashx_scatter table = {
		.counts = h->stage1.counts,
		.idx = &h->stage1.idx[0][0],
		.data = &h->u.stage1_data[0][0],
		.capacity = EQUIX_COARSE_ITEMS,
		.bucket_bits = EQUIX_COARSE_BITS,
	};

	memset(h->stage1.counts, 0, sizeof h->stage1.counts);
	equix_hash_scatter(hash, &table);
}

/* ---- stages 1-3: pairing complementary buckets ---------------------- */

/*
 * Every stage visits bucket b and its complement cb for b = 0..128 (the
 * rest are the same pairs, seen from the other side). Stages 1 and 2 do
 * it in two steps: the candidate pairs in search order (find_pairs), then
 * the sum and store of each (emit_*). Collecting the pairs first keeps
 * the per-item partner loops, whose trip counts are random, out of the
 * code that sums and stores, so the pair loop's branches are
 * predictable. Stage 3 (further down) needs no list.
 */

static unsigned fine_of(uint64_t data)
{
	return (unsigned)(data % EQUIX_FINE_BUCKETS);
}

/* Appends to `out` the pairs of left item `left` (the ref bits of b and
 * of its position in `left_bits`) with the items under fine bucket g, in
 * the order they went in; returns the new end. */
static equix_pair_ref *add_partners(const equix_scratch *restrict s, unsigned g,
				    equix_pair_ref left_bits,
				    equix_pair_ref *restrict out)
{
	/* All capacity slots are copied, whatever the count: a fixed-length
	 * loop the compiler turns into a few vector moves. Entries past the
	 * count are overwritten by the next call or never read. */
	for (unsigned k = 0; k < EQUIX_FINE_ITEMS; k++)
		out[k] = left_bits | s->items[g][k];
	return out + s->counts[g];
}

/* The fine bucket a left item's partners are in: the sum of the two, with
 * the carry out of the coarse bits, is zero in the fine bits. */
static unsigned partner_bucket(unsigned fine, unsigned carry)
{
	return fine_complement((fine + carry) % EQUIX_FINE_BUCKETS);
}

/* Enters item `pos` of the complement under its fine bucket f, unless
 * that is full; returns whether it went in. */
static bool insert_item(equix_scratch *s, unsigned f, unsigned pos)
{
	unsigned n = s->counts[f];

	if (n >= EQUIX_FINE_ITEMS)
		return false;
	s->counts[f] = (uint8_t)(n + 1);
	s->items[f][n] = make_ref(0, 0, pos);
	return true;
}

/* b is its own complement (0 and 128): each item is paired as it enters,
 * with the items before it and itself. */
static unsigned find_pairs_self(equix_scratch *s, unsigned b,
				const uint64_t *data, unsigned n)
{
	equix_pair_ref *end = s->pairs;
	unsigned carry = b != 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned f = fine_of(data[i]);

		if (insert_item(s, f, i))
			end = add_partners(s, partner_bucket(f, carry),
					   make_ref(b, i, 0), end);
	}
	return (unsigned)(end - s->pairs);
}

/* Otherwise all of the complement's items enter first, then each of b's
 * items meets its partners. */
static unsigned find_pairs_other(equix_scratch *s, unsigned b,
				 const uint64_t *left, unsigned b_items,
				 const uint64_t *right, unsigned cb_items)
{
	equix_pair_ref *end = s->pairs;

	for (unsigned i = 0; i < cb_items; i++)
		insert_item(s, fine_of(right[i]), i);
	for (unsigned i = 0; i < b_items; i++)
		end = add_partners(s, partner_bucket(fine_of(left[i]), 1),
				   make_ref(b, i, 0), end);
	return (unsigned)(end - s->pairs);
}

/* The candidate pairs of b and its complement (their data `left` and
 * `right`, the fine bucket in the low bits) in search order, into
 * s->pairs; returns how many. */
static unsigned find_pairs(equix_scratch *s, unsigned b, const uint64_t *left,
			   unsigned b_items, const uint64_t *right,
			   unsigned cb_items)
{
	memset(s->counts, 0, sizeof s->counts);
	if (coarse_complement(b) == b)
		return find_pairs_self(s, b, right, cb_items);
	return find_pairs_other(s, b, left, b_items, right, cb_items);
}

static unsigned ref_left(equix_pair_ref ref)
{
	return ref >> EQUIX_REF_LEFT_SHIFT;
}

static unsigned ref_right(equix_pair_ref ref)
{
	return (ref >> EQUIX_REF_RIGHT_SHIFT) & EQUIX_REF_POS_MASK;
}

#define NO_SLOT UINT32_MAX

/* A pair goes into the next stage's coarse bucket by the next 8 bits of
 * its sum (already without the fine bits), unless that bucket is full.
 * Returns its slot there (bucket * EQUIX_COARSE_ITEMS + position, one
 * index for the refs and the data), or NO_SLOT. */
static uint32_t take_slot(uint16_t *counts, uint64_t sum)
{
	unsigned bucket = (unsigned)(sum % EQUIX_COARSE_BUCKETS);
	unsigned n = counts[bucket];

	if (n >= EQUIX_COARSE_ITEMS)
		return NO_SLOT;
	counts[bucket] = (uint16_t)(n + 1);
	return bucket * EQUIX_COARSE_ITEMS + n;
}

/* The sum of a candidate pair of b's and the complement's data, the
 * carry added on b's side, without the (zero) fine bits. */
static uint64_t pair_sum(const uint64_t *left, const uint64_t *right,
			 uint64_t carry, equix_pair_ref ref)
{
	return (left[ref_left(ref)] + carry + right[ref_right(ref)]) /
	       EQUIX_FINE_BUCKETS;
}

/* An item of stage 2 or 3: the pair's ref above the low `data_bits` of
 * its data (solver.h). Only the data is read while pairing, and the ref
 * bits above it do not disturb the low bits of sums. */
static uint64_t pack_item(equix_pair_ref ref, uint64_t data,
			  unsigned data_bits)
{
	const uint64_t data_mask = (UINT64_C(1) << data_bits) - 1;

	return (uint64_t)ref << data_bits | (data & data_mask);
}

static equix_pair_ref item_ref(uint64_t item, unsigned data_bits)
{
	return (equix_pair_ref)(item >> data_bits);
}

static equix_pair_ref stage2_ref(uint64_t item)
{
	return item_ref(item, EQUIX_PAIR_DATA_BITS);
}

static equix_pair_ref quad_ref(uint64_t item)
{
	return item_ref(item, EQUIX_QUAD_DATA_BITS);
}

static uint32_t quad_data(uint64_t item)
{
	return (uint32_t)(item & ((UINT64_C(1) << EQUIX_QUAD_DATA_BITS) - 1));
}

/*
 * One pairing stage, 1 or 2: every candidate pair of bucket b and its
 * complement (data `in`, counts `in_counts`) goes, as its ref above the
 * low `data_bits` of its sum, into the next stage's coarse bucket by the
 * sum's next bits (`out`, `out_counts`), unless that bucket is full.
 */
static void pair_stage(equix_scratch *s, const uint16_t *in_counts,
		       const uint64_t (*in)[EQUIX_COARSE_ITEMS],
		       uint16_t *out_counts,
		       uint64_t (*out)[EQUIX_COARSE_ITEMS], unsigned data_bits)
{
	uint64_t *items = &out[0][0];

	memset(out_counts, 0, EQUIX_COARSE_BUCKETS * sizeof *out_counts);
	for (unsigned b = 0; b <= EQUIX_COARSE_BUCKETS / 2; b++) {
		unsigned cb = coarse_complement(b);
		const uint64_t *left = in[b], *right = in[cb];
		unsigned n = find_pairs(s, b, left, in_counts[b], right,
					in_counts[cb]);
		uint64_t carry = b != 0;

		for (unsigned k = 0; k < n; k++) {
			equix_pair_ref ref = s->pairs[k];
			uint64_t sum = pair_sum(left, right, carry, ref);
			uint32_t slot = take_slot(out_counts, sum);

			if (slot != NO_SLOT)
				items[slot] = pack_item(
					ref, sum / EQUIX_COARSE_BUCKETS,
					data_bits);
		}
	}
}

static void stage1(equix_solver_heap *h)
{
	pair_stage(&h->scratch, h->stage1.counts,
		   (const uint64_t(*)[EQUIX_COARSE_ITEMS])h->u.stage1_data,
		   h->stage2.counts, h->stage2.item, EQUIX_PAIR_DATA_BITS);
}

static void stage2(equix_solver_heap *h)
{
	pair_stage(&h->scratch, h->stage2.counts,
		   (const uint64_t(*)[EQUIX_COARSE_ITEMS])h->stage2.item,
		   h->u.stage3.counts, h->u.stage3.item, EQUIX_QUAD_DATA_BITS);
}

/* ---- solutions ------------------------------------------------------ */

/* The leaves under a stage-2 pair, ordered. */
static void leaves_of_pair(const equix_solver_heap *h, equix_pair_ref ref,
			   equix_idx out[2])
{
	unsigned b = ref % EQUIX_COARSE_BUCKETS;

	out[0] = h->stage1.idx[b][ref_left(ref)];
	out[1] = h->stage1.idx[coarse_complement(b)][ref_right(ref)];
	equix_order_subtrees(out, 1);
}

/* The leaves under a stage-3 quad, ordered. */
static void leaves_of_quad(const equix_solver_heap *h, equix_pair_ref ref,
			   equix_idx out[4])
{
	unsigned b = ref % EQUIX_COARSE_BUCKETS;

	leaves_of_pair(h, stage2_ref(h->stage2.item[b][ref_left(ref)]),
		       &out[0]);
	leaves_of_pair(
		h,
		stage2_ref(
			h->stage2.item[coarse_complement(b)][ref_right(ref)]),
		&out[2]);
	equix_order_subtrees(out, 2);
}

typedef struct found {
	equix_solution *out;
	unsigned count;
} found;

/* A solution: its leaves, in tree order. The search stops at
 * EQUIX_MAX_SOLS. */
static bool record_solution(equix_solver_heap *h, found *f, unsigned b,
			    unsigned left, unsigned right)
{
	equix_solution *s = &f->out[f->count];

	leaves_of_quad(h, quad_ref(h->u.stage3.item[b][left]), &s->idx[0]);
	leaves_of_quad(h,
		       quad_ref(h->u.stage3.item[coarse_complement(b)][right]),
		       &s->idx[4]);
	equix_order_subtrees(s->idx, 4);
	return ++f->count >= EQUIX_MAX_SOLS;
}

/*
 * Stage 3 keeps only solutions, and they are rare: a candidate pair is
 * one when the sum is zero in 15 more bits, so the right item's low 22
 * bits must be exactly those that cancel the left's. Listing every
 * candidate as stages 1 and 2 do costs more than the test. Instead each
 * item entering the table also sets the bit of its low FILTER_BITS bits
 * in a filter, and a left item looks at its partners only when the bit
 * of the value that would cancel it is set (by chance about one time in
 * 128). It then looks at exactly the partners find_pairs would list, in
 * the same order, so the solutions and their order are unchanged.
 */
#define FILTER_BITS EQUIX_FILTER_BITS /* solver.h sizes the filter */

static void filter_set(uint64_t *filter, uint32_t value)
{
	uint32_t key = value & ((UINT32_C(1) << FILTER_BITS) - 1);

	filter[key / 64] |= UINT64_C(1) << (key % 64);
}

/* Whether an entered item may cancel `value` (the left's, with carry). */
static bool filter_may_cancel(const uint64_t *filter, uint32_t value)
{
	uint32_t key = (0 - value) & ((UINT32_C(1) << FILTER_BITS) - 1);

	return (filter[key / 64] >> (key % 64)) & 1;
}

/* Records, in search order, the solutions of left item `left` of bucket b
 * (its data with the carry: `value`) with its partners in the table;
 * returns true to stop. */
static bool solutions_of(equix_solver_heap *h, found *f, unsigned b,
			 unsigned left, uint32_t value, const uint64_t *right)
{
	const equix_scratch *s = &h->scratch;
	unsigned g = fine_complement(value % EQUIX_FINE_BUCKETS);

	for (unsigned k = 0; k < s->counts[g]; k++) {
		unsigned pos = ref_right(s->items[g][k]);
		uint32_t sum = value + quad_data(right[pos]);

		if (((sum / EQUIX_FINE_BUCKETS) & EQUIX_PAIR_MASK) == 0 &&
		    record_solution(h, f, b, left, pos))
			return true;
	}
	return false;
}

/* Stage 3 at b = 0 or 128 (see find_pairs_self); true to stop. */
static bool stage3_self(equix_solver_heap *h, found *f, unsigned b,
			const uint64_t *items, unsigned n)
{
	equix_scratch *s = &h->scratch;
	uint32_t carry = b != 0;

	for (unsigned i = 0; i < n; i++) {
		uint32_t data = quad_data(items[i]);

		if (!insert_item(s, data % EQUIX_FINE_BUCKETS, i))
			continue;
		filter_set(s->filter, data);
		if (filter_may_cancel(s->filter, data + carry) &&
		    solutions_of(h, f, b, i, data + carry, items))
			return true;
	}
	return false;
}

/* Stage 3 at other values of b (see find_pairs_other); true to stop. */
static bool stage3_other(equix_solver_heap *h, found *f, unsigned b,
			 const uint64_t *left, unsigned b_items,
			 const uint64_t *right, unsigned cb_items)
{
	equix_scratch *s = &h->scratch;

	for (unsigned i = 0; i < cb_items; i++)
		if (insert_item(s, fine_of(right[i]), i))
			filter_set(s->filter, quad_data(right[i]));
	for (unsigned i = 0; i < b_items; i++)
		if (filter_may_cancel(s->filter, quad_data(left[i]) + 1) &&
		    solutions_of(h, f, b, i, quad_data(left[i]) + 1, right))
			return true;
	return false;
}

/* The last stage: quad pairs whose sum is zero in the next 15 bits too
 * are solutions; the search stops at EQUIX_MAX_SOLS. */
static void stage3(equix_solver_heap *h, found *f)
{
	const uint16_t *counts = h->u.stage3.counts;
	equix_scratch *s = &h->scratch;

	for (unsigned b = 0; b <= EQUIX_COARSE_BUCKETS / 2; b++) {
		unsigned cb = coarse_complement(b);
		const uint64_t *left = h->u.stage3.item[b];
		const uint64_t *right = h->u.stage3.item[cb];
		bool stop;

		memset(s->counts, 0, sizeof s->counts);
		memset(s->filter, 0, sizeof s->filter);
		if (cb == b)
			stop = stage3_self(h, f, b, right, counts[cb]);
		else
			stop = stage3_other(h, f, b, left, counts[b], right,
					    counts[cb]);
		if (stop)
			return;
	}
}

unsigned equix_solver_solve(equix_hash *hash, equix_solver_heap *h,
			    equix_solution out[EQUIX_MAX_SOLS])
{
	found f = {out, 0};

	hash_leaves(hash, h);
	/* Slots past a fine bucket's count are copied, never used: clear
	 * them once so no uninitialised memory is read. */
	memset(h->scratch.items, 0, sizeof h->scratch.items);
	stage1(h);
	stage2(h);
	stage3(h, &f);
	return f.count;
}

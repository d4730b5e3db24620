/*
 * solver.c - the Equi-X solver (see solver.h for the algorithm).
 */
#include <config.h>

#include <stdbool.h>
#include <string.h>

#include "context.h"
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
	return (equix_pair_ref)(left << 17 | right << 8 | bucket);
}

/* ---- stage 0: hashing ---------------------------------------------- */

static void hash_leaves(hashx_ctx *hash, equix_solver_heap *h)
{
	const hashx_scatter table = {
		h->stage1.counts, &h->stage1.idx[0][0], &h->u.stage1_data[0][0],
		EQUIX_COARSE_ITEMS,
	};

	memset(h->stage1.counts, 0, sizeof h->stage1.counts);
	hashx_exec_scatter(hash, 0, EQUIX_INDEX_SPACE, &table);
}

/* ---- stages 1-3: pairing complementary buckets ---------------------- */

/* Where a stage reads its items' data and sends the pairs it finds. */
typedef struct stage {
	const uint16_t *counts;
	uint64_t (*data)(const equix_solver_heap *h, unsigned b, unsigned i);
	/* Called with the pair's sum, already divided by the fine bucket
	 * count; returns true to stop the search. */
	bool (*pair)(equix_solver_heap *h, void *ctx, unsigned b,
		     unsigned left, unsigned right, uint64_t sum);
	void *ctx;
} stage;

static inline uint64_t stage1_data(const equix_solver_heap *h, unsigned b,
			    unsigned i)
{
	return h->u.stage1_data[b][i];
}

static inline uint64_t stage2_data(const equix_solver_heap *h, unsigned b,
			    unsigned i)
{
	return h->stage2_data[b][i];
}

static inline uint64_t stage3_data(const equix_solver_heap *h, unsigned b,
			    unsigned i)
{
	return h->u.late.stage3_data[b][i];
}

/*
 * Pairs item `left` of bucket b (its data plus the carry out of the coarse
 * bits) with every item of the complementary bucket that the scratch table
 * holds under the complementary fine bucket, in the order they went in.
 */
static inline __attribute__((always_inline)) bool pair_item(equix_solver_heap *h, const stage *st, unsigned b,
		      unsigned cb, unsigned left, uint64_t value)
{
	unsigned f = fine_complement((unsigned)(value % EQUIX_FINE_BUCKETS));
	unsigned n = h->scratch.counts[f];

	for (unsigned k = 0; k < n; k++) {
		unsigned right = h->scratch.items[f][k];
		uint64_t sum = value + st->data(h, cb, right);

		if (st->pair(h, st->ctx, b, left, right,
			     sum / EQUIX_FINE_BUCKETS))
			return true;
	}
	return false;
}

/*
 * One stage. Bucket b and its complement are visited for b = 0..128 (the
 * rest are the same pairs, seen from the other side). The complement's
 * items enter the scratch table by their low 7 bits; a fine bucket that is
 * full drops the item. When b is its own complement (0 and 128), each item
 * is paired as it enters, with those before it and itself.
 */
static inline __attribute__((always_inline)) bool run_stage(equix_solver_heap *h, const stage *st)
{
	for (unsigned b = 0; b <= EQUIX_COARSE_BUCKETS / 2; b++) {
		unsigned cb = coarse_complement(b);
		/* Low bits b + cb = 256 carry one, except for b = 0. */
		uint64_t carry = b != 0;

		unsigned cb_items = st->counts[cb], b_items = st->counts[b];

		memset(h->scratch.counts, 0, sizeof h->scratch.counts);
		for (unsigned i = 0; i < cb_items; i++) {
			uint64_t value = st->data(h, cb, i);
			unsigned f = (unsigned)(value % EQUIX_FINE_BUCKETS);
			unsigned n = h->scratch.counts[f];

			if (n >= EQUIX_FINE_ITEMS)
				continue;
			h->scratch.counts[f] = (uint8_t)(n + 1);
			h->scratch.items[f][n] = (uint16_t)i;
			if (cb == b &&
			    pair_item(h, st, b, cb, i, value + carry))
				return true;
		}
		if (cb == b)
			continue;
		for (unsigned i = 0; i < b_items; i++)
			if (pair_item(h, st, b, cb, i, st->data(h, b, i) + carry))
				return true;
	}
	return false;
}

/* A pair goes into the next stage's coarse bucket by its next 8 bits,
 * unless that bucket is full; *nb and *slot say where it went. */
static inline bool keep_pair(equix_pairs *next, unsigned b, unsigned left,
		      unsigned right, uint64_t sum, unsigned *nb,
		      unsigned *slot)
{
	unsigned bucket = (unsigned)(sum % EQUIX_COARSE_BUCKETS);
	unsigned n = next->counts[bucket];

	if (n >= EQUIX_COARSE_ITEMS)
		return false;
	next->counts[bucket] = (uint16_t)(n + 1);
	next->ref[bucket][n] = make_ref(b, left, right);
	*nb = bucket;
	*slot = n;
	return true;
}

static inline bool pair_to_stage2(equix_solver_heap *h, void *ctx, unsigned b,
			   unsigned left, unsigned right, uint64_t sum)
{
	unsigned nb, slot;

	(void)ctx;
	if (keep_pair(&h->stage2, b, left, right, sum, &nb, &slot))
		h->stage2_data[nb][slot] = sum / EQUIX_COARSE_BUCKETS;
	return false;
}

static inline bool pair_to_stage3(equix_solver_heap *h, void *ctx, unsigned b,
			   unsigned left, unsigned right, uint64_t sum)
{
	unsigned nb, slot;

	(void)ctx;
	if (keep_pair(&h->u.late.stage3, b, left, right, sum, &nb, &slot))
		h->u.late.stage3_data[nb][slot] =
			(uint32_t)(sum / EQUIX_COARSE_BUCKETS);
	return false;
}

/* ---- solutions ------------------------------------------------------ */

/* The leaves under a stage-2 pair, ordered. */
static void leaves_of_pair(const equix_solver_heap *h, equix_pair_ref ref,
			   equix_idx out[2])
{
	unsigned b = ref % EQUIX_COARSE_BUCKETS;

	out[0] = h->stage1.idx[b][ref >> 17];
	out[1] = h->stage1.idx[coarse_complement(b)][(ref >> 8) & 511];
	equix_order_subtrees(out, 1);
}

/* The leaves under a stage-3 quad, ordered. */
static void leaves_of_quad(const equix_solver_heap *h, equix_pair_ref ref,
			   equix_idx out[4])
{
	unsigned b = ref % EQUIX_COARSE_BUCKETS;

	leaves_of_pair(h, h->stage2.ref[b][ref >> 17], &out[0]);
	leaves_of_pair(h, h->stage2.ref[coarse_complement(b)][(ref >> 8) & 511],
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

	leaves_of_quad(h, h->u.late.stage3.ref[b][left], &s->idx[0]);
	leaves_of_quad(h, h->u.late.stage3.ref[coarse_complement(b)][right],
		       &s->idx[4]);
	equix_order_subtrees(s->idx, 4);
	return ++f->count >= EQUIX_MAX_SOLS;
}

/* The last stage: a quad pair whose sum is zero in the next 15 bits too is
 * a solution (rarely: the test runs inline, the recording does not). */
static inline bool pair_to_solution(equix_solver_heap *h, void *ctx,
				    unsigned b, unsigned left, unsigned right,
				    uint64_t sum)
{
	if ((sum & EQUIX_PAIR_MASK) != 0)
		return false;
	return record_solution(h, ctx, b, left, right);
}

unsigned equix_solver_solve(hashx_ctx *hash, equix_solver_heap *h,
			    equix_solution out[EQUIX_MAX_SOLS])
{
	found f = { out, 0 };
	const stage s1 = { h->stage1.counts, stage1_data, pair_to_stage2, NULL };
	const stage s2 = { h->stage2.counts, stage2_data, pair_to_stage3, NULL };
	const stage s3 = { h->u.late.stage3.counts, stage3_data,
			   pair_to_solution, &f };

	hash_leaves(hash, h);
	memset(h->stage2.counts, 0, sizeof h->stage2.counts);
	run_stage(h, &s1);
	memset(h->u.late.stage3.counts, 0, sizeof h->u.late.stage3.counts);
	run_stage(h, &s2);
	run_stage(h, &s3);
	return f.count;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_batch.c - every way of hashing many inputs (batch.h) gives the
 * reference's hashes: the recorded vectors through each batch code
 * generator, random seeds against the scalar path, and the solver's
 * bucket table built by each implementation, on its own path (the scalar
 * JIT's scatter form, a batch form), and by the scatter form for
 * synthetic programs.
 *
 * An implementation this CPU (or build) cannot run is reported as skipped
 * with the reason, never run as something else.
 *
 * `test_batch --available NAME` exits 0 when implementation NAME can run
 * here and 1 when not; `test_batch --default` prints the one chosen here
 * (tests/impls.sh uses both).
 */
#include <config.h>

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "bytes.h"
#include "compiler.h"
#include "context.h"
#include "finalize.h"
#include "interpreter.h"
#include "interpreter_lanes.h"
#include "testutil.h"

static const hashx_impl batch_impls[] = {HASHX_IMPL_AVX2, HASHX_IMPL_AVX512};
#define NBATCH ((int)(sizeof batch_impls / sizeof batch_impls[0]))

/* Hashes two groups from `first` with `b` and checks every lane's four
 * words against hashx_exec() on the same (compiled) function. */
static void check_groups(hashx_ctx *ctx, const hashx_batch *b, uint64_t first,
			 const char *what)
{
	uint64_t out[2 * 4 * HASHX_BATCH_MAX_LANES];

	b->fn(first, 2, out);
	for (unsigned k = 0; k < 2 * b->lanes; k++) {
		uint8_t want[32];
		unsigned g = k / b->lanes, l = k % b->lanes;

		ck_assert_int_eq(hashx_exec(ctx, first + k, want), HASHX_OK);
		for (unsigned j = 0; j < 4; j++)
			ck_assert_msg(out[(g * 4 + j) * b->lanes + l] ==
					      hashx_load64_le(want + 8 * j),
				      "%s: input %016llx word %u differs", what,
				      (unsigned long long)(first + k), j);
	}
}

/* Every line of a vector file: the batch form's lane 0 gives the
 * recorded hash, the other lanes what hashx_exec gives. */
static int vectors_through(hashx_impl impl, const char *name)
{
	static char line[8192];
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	hashx_code_buffer buf = {0};
	FILE *f = tu_open_vector(name);
	int lines = 0, ran = 0;
	tu_hashx_vector v;

	ck_assert_ptr_nonnull(ctx);
	ck_assert_msg(f != NULL, "cannot open %s", name);
	while (fgets(line, sizeof line, f) != NULL) {
		hashx_batch b;

		if (!tu_vector_line_runs(name, lines++))
			continue; /* under valgrind: the sample */
		ran++;
		ck_assert_int_eq(tu_hashx_vector_parse(line, &v), 0);
		if (!v.ok) {
			ck_assert_int_eq(hashx_make(ctx, v.seed, v.seed_len),
					 HASHX_FAIL_SEED);
			continue;
		}
		ck_assert_int_eq(hashx_make(ctx, v.seed, v.seed_len), HASHX_OK);
		ck_assert(hashx_compile_batch(&ctx->program, &ctx->keys.input,
					      hashx_impl_backend(impl), &buf,
					      &b));
		for (int p = 0; p < v.pairs; p++) {
			uint64_t out[4 * HASHX_BATCH_MAX_LANES];

			b.fn(v.nonce[p], 1, out);
			for (unsigned j = 0; j < 4; j++)
				ck_assert_msg(
					out[j * b.lanes] ==
						hashx_load64_le(v.hash[p] +
								8 * j),
					"%s %s line %d nonce %llx word %u",
					hashx_impl_name(impl), name, lines,
					(unsigned long long)v.nonce[p], j);
			check_groups(ctx, &b, v.nonce[p], name);
		}
	}
	fclose(f);
	tu_sample_note(name, ran, lines);
	hashx_code_buffer_release(&buf);
	hashx_free(ctx);
	return lines;
}

START_TEST(vectors_every_batch_impl)
{
	hashx_impl impl = batch_impls[_i];

	ck_assert_int_eq(vectors_through(impl, "hashx-named.txt"), 18);
	ck_assert_int_eq(vectors_through(impl, "hashx.txt"), 3000);
}
END_TEST

/* Fresh random seeds and starting inputs (including the wrap past
 * 2^64 - 1) against the scalar compiled function. The master seed is
 * printed so a failure can be replayed. */
START_TEST(random_seeds_every_batch_impl)
{
	hashx_impl impl = batch_impls[_i];
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	hashx_code_buffer buf = {0};
	uint8_t master[8];
	uint64_t state;

	ck_assert_ptr_nonnull(ctx);
	randombytes_buf(master, sizeof master);
	state = hashx_load64_le(master);
	printf("random_seeds_every_batch_impl(%s): master seed %016llx\n",
	       hashx_impl_name(impl), (unsigned long long)state);
	for (int s = 0; s < tu_count(2000); s++) {
		hashx_batch b;
		uint64_t seed = state + (uint64_t)s * 0x9e3779b97f4a7c15u;
		uint64_t first =
			s % 4 == 0 ? UINT64_MAX - (uint64_t)(s % 40) : seed * 7;

		if (hashx_make(ctx, &seed, sizeof seed) != HASHX_OK)
			continue;
		ck_assert(hashx_compile_batch(&ctx->program, &ctx->keys.input,
					      hashx_impl_backend(impl), &buf,
					      &b));
		check_groups(ctx, &b, first, hashx_impl_name(impl));
	}
	hashx_code_buffer_release(&buf);
	hashx_free(ctx);
}
END_TEST

/* The batch function's loop: zero groups write nothing; many groups
 * write exactly groups * lanes inputs' words. */
START_TEST(group_counts)
{
	hashx_impl impl = batch_impls[_i];
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	hashx_code_buffer buf = {0};
	static uint64_t out[4 * HASHX_BATCH_MAX_LANES * 41];
	uint32_t seed = 77;
	hashx_batch b;

	ck_assert_int_eq(hashx_make(ctx, &seed, sizeof seed), HASHX_OK);
	ck_assert(hashx_compile_batch(&ctx->program, &ctx->keys.input,
				      hashx_impl_backend(impl), &buf, &b));
	ck_assert_uint_le(b.lanes, HASHX_BATCH_MAX_LANES);
	memset(out, 0x5a, sizeof out);
	b.fn(5, 0, out);
	for (size_t i = 0; i < 4 * HASHX_BATCH_MAX_LANES; i++)
		ck_assert_uint_eq(out[i], 0x5a5a5a5a5a5a5a5au);
	b.fn(1000, 40, out);
	for (unsigned k = 0; k < 40 * b.lanes; k++) {
		uint8_t want[32];

		ck_assert_int_eq(hashx_exec(ctx, 1000 + k, want), HASHX_OK);
		ck_assert_uint_eq(
			out[(k / b.lanes) * 4 * b.lanes + k % b.lanes],
			hashx_load64_le(want));
	}
	ck_assert_uint_eq(out[40 * 4 * b.lanes], 0x5a5a5a5a5a5a5a5au);
	hashx_code_buffer_release(&buf);
	hashx_free(ctx);
}
END_TEST

#if HASHX_HAVE_LANES
/* The 8-lane interpreters (verification's path), each through the same
 * tests: every vector line's input in lane 0, its neighbours in the other
 * lanes, against hashx_exec on an interpreted context. */
static void lanes_check(const hashx_lanes_impl *lanes, hashx_ctx *ctx,
			uint64_t first, const uint8_t *want0, const char *what)
{
	uint64_t in[8], out[4][8];

	for (int l = 0; l < 8; l++)
		in[l] = first + (uint64_t)l * 0x10001;
	lanes->hash(&ctx->program, &ctx->keys.input, in, out);
	for (int l = 0; l < 8; l++) {
		uint8_t want[32];

		ck_assert_int_eq(hashx_exec(ctx, in[l], want), HASHX_OK);
		if (l == 0 && want0 != NULL)
			ck_assert_mem_eq(want, want0, 32);
		for (int j = 0; j < 4; j++)
			ck_assert_msg(out[j][l] ==
					      hashx_load64_le(want + 8 * j),
				      "%s lanes, %s: lane %d input %016llx "
				      "word %d",
				      lanes->name, what, l,
				      (unsigned long long)in[l], j);
	}
}

START_TEST(vectors_through_lanes)
{
	const hashx_lanes_impl *lanes = &hashx_lanes_impls[_i];
	static const char *const files[] = {"hashx-named.txt", "hashx.txt"};
	static char line[8192];
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	int lines = 0;

	ck_assert_ptr_nonnull(ctx);
	for (int f = 0; f < 2; f++) {
		FILE *fp = tu_open_vector(files[f]);
		tu_hashx_vector v;
		int in_file = 0, ran = 0;

		ck_assert_msg(fp != NULL, "cannot open %s", files[f]);
		for (; fgets(line, sizeof line, fp) != NULL; lines++) {
			if (!tu_vector_line_runs(files[f], in_file++))
				continue; /* under valgrind: the sample */
			ran++;
			ck_assert_int_eq(tu_hashx_vector_parse(line, &v), 0);
			if (!v.ok ||
			    hashx_make(ctx, v.seed, v.seed_len) != HASHX_OK)
				continue;
			for (int p = 0; p < v.pairs; p++)
				lanes_check(lanes, ctx, v.nonce[p], v.hash[p],
					    files[f]);
		}
		fclose(fp);
		tu_sample_note(files[f], ran, in_file);
	}
	ck_assert_int_eq(lines, 3018);
	hashx_free(ctx);
}
END_TEST

START_TEST(random_seeds_through_lanes)
{
	const hashx_lanes_impl *lanes = &hashx_lanes_impls[_i];
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t master[8];
	uint64_t state;

	randombytes_buf(master, sizeof master);
	state = hashx_load64_le(master);
	printf("random_seeds_through_lanes(%s): master seed %016llx\n",
	       lanes->name, (unsigned long long)state);
	for (int s = 0; s < tu_count(2000); s++) {
		uint64_t seed = state + (uint64_t)s * 0x9e3779b97f4a7c15u;

		if (hashx_make(ctx, &seed, sizeof seed) == HASHX_OK)
			lanes_check(lanes, ctx, seed * 3, NULL,
				    "random seed");
	}
	hashx_free(ctx);
}
END_TEST
#endif

/* ---- programs the generator never makes ---------------------------- */

/* xorshift64*: the synthetic programs come from a printed seed. */
static uint64_t next_random(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1du;
}

/*
 * Any opcode anywhere, src == dst allowed, TARGETs and BRANCHes dense and
 * in any order (a BRANCH at 0, before any TARGET, several after one
 * TARGET, empty blocks), branch masks of 0-2 bits so that lanes jump at
 * different places: the paths must still agree with the interpreter.
 */
/* 0, 1 or 2 bits (a mask of 0 takes the branch wherever it is
 * enabled). */
static uint32_t branch_mask(uint32_t r)
{
	uint32_t mask = 0;

	if (r & 0x20)
		mask |= 1u << (r % 32);
	if (r & 0x2000)
		mask |= 1u << ((r >> 8) % 32);
	return mask;
}

static void synthetic_program(uint64_t *x, hashx_program *p)
{
	size_t n = 1 + next_random(x) % HASHX_PROGRAM_SIZE;

	tu_program_clear(p);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = next_random(x);
		int op = (int)(r % HASHX_OP_COUNT);
		uint32_t imm = (uint32_t)(r >> 32);

		if (op == HASHX_OP_ADD_RS)
			imm %= 4;
		else if (op == HASHX_OP_ROR_C)
			imm = 1 + imm % 63;
		else if (op == HASHX_OP_BRANCH)
			imm = branch_mask(imm);
		tu_program_emit(p, op, (int)((r >> 8) & 7),
				(int)((r >> 16) & 7), imm);
	}
}

static void interpret_hash(const hashx_program *p, const hashx_sip_state *k,
			   uint64_t input, uint64_t out[4])
{
	uint64_t r[8];
	uint8_t h[32];

	hashx_siphash24_ctr_state512(k, input, r);
	hashx_interpret_portable(p, r);
	hashx_finalize(k, r, h);
	for (int j = 0; j < 4; j++)
		out[j] = hashx_load64_le(h + 8 * j);
}

static uint64_t synthetic_seed(const char *test, const char *impl)
{
	uint8_t b[8];
	uint64_t x;

	randombytes_buf(b, sizeof b);
	x = hashx_load64_le(b) | 1;
	printf("%s(%s): master seed %016llx\n", test, impl,
	       (unsigned long long)x);
	return x;
}

START_TEST(synthetic_programs_every_batch_impl)
{
	hashx_impl impl = batch_impls[_i];
	uint64_t x = synthetic_seed("synthetic_programs_every_batch_impl",
				    hashx_impl_name(impl));
	hashx_code_buffer buf = {0};
	static hashx_program p;

	for (int t = 0; t < tu_count(2000); t++) {
		uint64_t out[4 * HASHX_BATCH_MAX_LANES], want[4];
		hashx_sip_state k = {next_random(&x), next_random(&x),
				     next_random(&x), next_random(&x)};
		uint64_t first = next_random(&x);
		hashx_batch b;

		synthetic_program(&x, &p);
		ck_assert(hashx_compile_batch(&p, &k, hashx_impl_backend(impl),
					      &buf, &b));
		b.fn(first, 1, out);
		for (unsigned l = 0; l < b.lanes; l++) {
			interpret_hash(&p, &k, first + l, want);
			for (unsigned j = 0; j < 4; j++)
				ck_assert_msg(out[j * b.lanes + l] == want[j],
					      "%s: program %d lane %u word %u",
					      hashx_impl_name(impl), t, l, j);
		}
	}
	hashx_code_buffer_release(&buf);
}
END_TEST

#if HASHX_HAVE_LANES
START_TEST(synthetic_programs_through_lanes)
{
	const hashx_lanes_impl *lanes = &hashx_lanes_impls[_i];
	uint64_t x = synthetic_seed("synthetic_programs_through_lanes",
				    lanes->name);
	static hashx_program p;

	for (int t = 0; t < tu_count(2000); t++) {
		uint64_t in[8], out[4][8], want[4];
		hashx_sip_state k = {next_random(&x), next_random(&x),
				     next_random(&x), next_random(&x)};

		synthetic_program(&x, &p);
		for (int l = 0; l < 8; l++)
			in[l] = next_random(&x);
		lanes->hash(&p, &k, in, out);
		for (int l = 0; l < 8; l++) {
			interpret_hash(&p, &k, in[l], want);
			for (int j = 0; j < 4; j++)
				ck_assert_msg(out[j][l] == want[j],
					      "%s lanes: program %d lane %d "
					      "word %d",
					      lanes->name, t, l, j);
		}
	}
}
END_TEST
#endif

#if HASHX_HAVE_PAIRED_INTERPRETER
/* The paired form (interpreter.h) against the switch on the same
 * synthetic programs, register file against register file. */
START_TEST(synthetic_programs_through_pairs)
{
	uint64_t x = synthetic_seed("synthetic_programs_through_pairs", "paired");
	static hashx_program p;
	static hashx_pairs pairs;

	for (int t = 0; t < tu_count(4000); t++) {
		synthetic_program(&x, &p);
		hashx_pairs_decode(&p, &pairs);
		for (int v = 0; v < 4; v++) {
			uint64_t r[8], want[8];

			for (int i = 0; i < 8; i++)
				r[i] = want[i] = next_random(&x);
			hashx_interpret_portable(&p, want);
			hashx_interpret_pairs(&pairs, r);
			ck_assert_msg(memcmp(r, want, sizeof r) == 0,
				      "program %d (size %zu) state %d", t,
				      p.size, v);
		}
	}
}
END_TEST

/* Random seeds through an interpreted context (hashx_make decodes the
 * paired form, hashx_exec runs it) against the switch on its program. */
START_TEST(random_seeds_through_pairs)
{
	uint64_t x = synthetic_seed("random_seeds_through_pairs", "paired");
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	int made = 0;

	ck_assert_ptr_nonnull(ctx);
	for (int t = 0; t < tu_count(4000); t++) {
		uint64_t seed = next_random(&x);

		if (hashx_make(ctx, &seed, sizeof seed) != HASHX_OK)
			continue;
		made++;
		for (int v = 0; v < 4; v++) {
			uint64_t input = next_random(&x), want[4];
			uint8_t got[32];

			interpret_hash(&ctx->program, &ctx->keys.input, input,
				       want);
			ck_assert_int_eq(hashx_exec_sized(ctx, input, got, 32),
					 HASHX_OK);
			for (int j = 0; j < 4; j++)
				ck_assert_msg(hashx_load64_le(got + 8 * j) ==
						      want[j],
					      "seed %016llx input %016llx "
					      "word %d",
					      (unsigned long long)seed,
					      (unsigned long long)input, j);
		}
	}
	ck_assert_int_gt(made, tu_count(4000) * 9 / 10);
	hashx_free(ctx);
}
END_TEST
#endif

/* Whether the solver's stage 0 has its own path for `impl` here: the
 * batch form for the vector implementations, the scatter form for the
 * scalar JIT (where the emitter has it), the interpreter for portable. */
static bool stage0_path_exists(hashx_impl impl)
{
	return impl != HASHX_IMPL_SCALAR || HASHX_HAVE_SCATTER;
}

/* The table just built by `c` came from `impl`'s own path, not from the
 * fallback of one hash per call, which would pass while leaving that path
 * untested. */
static void assert_stage0_path(const hashx_ctx *c, hashx_impl impl)
{
	if (!hashx_impl_uses_jit(impl))
		return;
	ck_assert_msg(c->stage0.code.executable && c->stage0.code.used > 0,
		      "%s: stage 0 ran without its native form",
		      hashx_impl_name(impl));
	/* the plan's form ran, not the next one: a back-end with the fused
	 * form runs it, not its plain batch form followed by the C update */
	ck_assert_int_eq(c->stage0.held, c->plan.stage0);
	ck_assert_int_eq(c->stage0.held == HASHX_STAGE0_FUSED,
			 hashx_impl_scatters(impl));
	ck_assert_int_eq(c->stage0.held == HASHX_STAGE0_BATCH,
			 hashx_impl_batches(impl) && !hashx_impl_scatters(impl));
}

/* The scatter tables' width here: Equi-X's (solver.h's
 * EQUIX_COARSE_BITS), the one the x86-64 emitters take. */
#define TEST_BUCKET_BITS 8
#define TEST_BUCKETS (1u << TEST_BUCKET_BITS)

/* The solver's stage 0 built by implementation `impl` equals the one
 * built one interpreted hash at a time, for every input of a solve. */
static void scatter_equal(hashx_impl impl, uint32_t capacity)
{
	/* the portable path needs no native code: a build without a
	 * compiler runs it too */
	hashx_ctx *c = hashx_alloc(impl == HASHX_IMPL_PORTABLE
					   ? HASHX_TRY_COMPILE
					   : HASHX_TYPE_COMPILED);
	hashx_ctx *i = hashx_alloc(HASHX_TYPE_INTERPRETED);
	static uint16_t counts[2][256], idx[2][256 * 336];
	static uint64_t data[2][256 * 336];

	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(i);
	ck_assert(hashx_ctx_set_impl(c, impl));
	for (uint32_t s = 0; s < 3; s++) {
		hashx_scatter t[2];

		ck_assert_int_eq(hashx_make(c, &s, sizeof s), HASHX_OK);
		ck_assert_int_eq(hashx_make(i, &s, sizeof s), HASHX_OK);
		for (int v = 0; v < 2; v++) {
			memset(counts[v], 0, sizeof counts[v]);
			memset(idx[v], 0xaa, sizeof idx[v]);
			memset(data[v], 0xaa, sizeof data[v]);
			t[v] = (hashx_scatter){counts[v], idx[v], data[v],
					       capacity, TEST_BUCKET_BITS};
		}
		/* 65,536 inputs, not a multiple of any lane count past
		 * the start */
		hashx_exec_scatter(c, s, 65536 - s, &t[0]);
		assert_stage0_path(c, impl);
		hashx_exec_scatter(i, s, 65536 - s, &t[1]);
		ck_assert_mem_eq(counts[0], counts[1], sizeof counts[0]);
		ck_assert_mem_eq(idx[0], idx[1], sizeof idx[0]);
		ck_assert_mem_eq(data[0], data[1], sizeof data[0]);
		/* at most n items; a capacity of 3 fills every bucket */
		unsigned total = 0;
		for (int b = 0; b < 256; b++)
			total += counts[0][b];
		ck_assert_uint_le(total, 65536 - s);
		if (capacity == 3)
			ck_assert_uint_eq(total, 256 * 3);
	}
	/* n = 0 writes nothing */
	hashx_scatter t0 = { counts[0], idx[0], data[0], capacity,
			     TEST_BUCKET_BITS };
	memset(counts[0], 0, sizeof counts[0]);
	hashx_exec_scatter(c, 0, 0, &t0);
	for (int b = 0; b < 256; b++)
		ck_assert_uint_eq(counts[0][b], 0);
	hashx_free(c);
	hashx_free(i);
}

START_TEST(scatter_every_impl)
{
	scatter_equal((hashx_impl)_i, 336);
	scatter_equal((hashx_impl)_i, 3);
}
END_TEST

/*
 * Stage 0 at a width other than Equi-X's 8 bucket bits: the widths are
 * the table's data, which the back-ends either encode (aarch64,
 * WebAssembly) or refuse (x86-64's byte register), so that the facade
 * falls back to a form that follows them. Either way the table is the
 * rule's, written out here on interpreted hashes. 2,000 inputs into
 * 128 buckets of 8: about 16 per bucket, so full buckets drop items.
 */
START_TEST(scatter_other_width)
{
	enum { BITS = 7, CAP = 8, N = 2000 };
	hashx_impl impl = (hashx_impl)_i;
	hashx_ctx *c = hashx_alloc(impl == HASHX_IMPL_PORTABLE
					   ? HASHX_TRY_COMPILE
					   : HASHX_TYPE_COMPILED);
	hashx_ctx *i = hashx_alloc(HASHX_TYPE_INTERPRETED);
	static uint16_t counts[2][1 << BITS], idx[2][(1 << BITS) * CAP];
	static uint64_t data[2][(1 << BITS) * CAP];
	uint32_t seed = 7;

	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(i);
	ck_assert(hashx_ctx_set_impl(c, impl));
	ck_assert_int_eq(hashx_make(c, &seed, sizeof seed), HASHX_OK);
	ck_assert_int_eq(hashx_make(i, &seed, sizeof seed), HASHX_OK);
	memset(counts, 0, sizeof counts);
	memset(idx, 0xaa, sizeof idx);
	memset(data, 0xaa, sizeof data);
	hashx_scatter t = {counts[0], idx[0], data[0], CAP, BITS};
	hashx_exec_scatter(c, 0, N, &t);
	for (uint64_t k = 0; k < N; k++) {
		uint64_t v = hashx_exec_u64(i, k);
		unsigned b = (unsigned)(v % (1u << BITS));
		unsigned item = counts[1][b];

		if (item >= CAP)
			continue;
		counts[1][b]++;
		idx[1][b * CAP + item] = (uint16_t)k;
		data[1][b * CAP + item] = v >> BITS;
	}
	ck_assert_mem_eq(counts[0], counts[1], sizeof counts[0]);
	ck_assert_mem_eq(idx[0], idx[1], sizeof idx[0]);
	ck_assert_mem_eq(data[0], data[1], sizeof data[0]);
	hashx_free(c);
	hashx_free(i);
}
END_TEST

/*
 * Scatter tables for the tests that compare two of them: room for a
 * solve's buckets (TABLE_CAP items each, Equi-X's EQUIX_COARSE_ITEMS),
 * used at any capacity up to that. Only the part a capacity uses is
 * cleared (idx and data to a pattern no input writes) and compared.
 */
#define TABLE_CAP 336

typedef struct test_table {
	uint16_t counts[TEST_BUCKETS];
	uint16_t idx[TEST_BUCKETS * TABLE_CAP];
	uint64_t data[TEST_BUCKETS * TABLE_CAP];
} test_table;

static hashx_scatter table_view(test_table *t, uint32_t capacity)
{
	size_t items = (size_t)TEST_BUCKETS * capacity;

	memset(t->counts, 0, sizeof t->counts);
	memset(t->idx, 0xaa, items * sizeof t->idx[0]);
	memset(t->data, 0xaa, items * sizeof t->data[0]);
	return (hashx_scatter){t->counts, t->idx, t->data, capacity,
			       TEST_BUCKET_BITS};
}

static bool tables_equal(const test_table *a, const test_table *b,
			 uint32_t capacity)
{
	size_t items = (size_t)TEST_BUCKETS * capacity;

	return memcmp(a->counts, b->counts, sizeof a->counts) == 0 &&
	       memcmp(a->idx, b->idx, items * sizeof a->idx[0]) == 0 &&
	       memcmp(a->data, b->data, items * sizeof a->data[0]) == 0;
}

/* The table's rule (scatter.h) written out here: the input whose
 * hash starts with v goes into its bucket unless the bucket is full;
 * whether it entered. */
static bool table_put(const hashx_scatter *t, uint64_t input, uint64_t v)
{
	unsigned b = (unsigned)(v % TEST_BUCKETS);
	unsigned item = t->counts[b];

	if (item >= t->capacity)
		return false;
	t->counts[b]++;
	t->idx[b * t->capacity + item] = (uint16_t)input;
	t->data[b * t->capacity + item] = v >> TEST_BUCKET_BITS;
	return true;
}

/* Small tables for the synthetic programs, so that buckets fill and drop
 * items. */
#define SYNTH_CAP 2
#define SYNTH_N 700

/* The table's rule on interpreted hashes. */
static void synth_reference(const hashx_program *p, const hashx_sip_state *k,
			    uint64_t first, test_table *t)
{
	hashx_scatter view = table_view(t, SYNTH_CAP);

	for (uint64_t n = 0; n < SYNTH_N; n++) {
		uint64_t w[4];

		interpret_hash(p, k, first + n, w); /* may wrap past 2^64 - 1 */
		table_put(&view, first + n, w[0]);
	}
}

/* The scalar JIT's scatter form on programs the generator never makes
 * (a BRANCH before any TARGET, dense branches, src == dst), against the
 * interpreter: the tables must be identical, n = 0 must write nothing. */
START_TEST(synthetic_programs_scatter)
{
	uint64_t x = synthetic_seed("synthetic_programs_scatter", "scalar");
	hashx_code_buffer buf = {0};
	static hashx_program p;
	static test_table got, want;

	for (int t = 0; t < tu_count(300); t++) {
		hashx_sip_state k = {next_random(&x), next_random(&x),
				     next_random(&x), next_random(&x)};
		uint64_t first = t % 8 == 0 ? UINT64_MAX - 300 : next_random(&x);
		hashx_scatter view;
		hashx_scatter_fn *fn;

		synthetic_program(&x, &p);
		view = table_view(&got, SYNTH_CAP);
		fn = hashx_compile_scatter(&p, &k, &view, &buf);
		ck_assert_ptr_nonnull(fn);
		fn(first, 0);
		for (int b = 0; b < (int)TEST_BUCKETS; b++)
			ck_assert_uint_eq(got.counts[b], 0);
		fn(first, SYNTH_N);
		synth_reference(&p, &k, first, &want);
		ck_assert_msg(tables_equal(&got, &want, SYNTH_CAP),
			      "program %d: the tables differ", t);
	}
	hashx_code_buffer_release(&buf);
}
END_TEST

/*
 * The fused stage 0 (batch.h's hashx_batch_scatter) against the plain
 * batch form of the same back-end, whose output words go through the
 * table's rule here: the two tables must be identical.
 */
/* scatter.h's rule on the plain batch output of `groups` groups:
 * word 0 of each lane, in input order; returns how many items entered. */
static size_t scatter_plain(const hashx_batch *b, uint64_t first,
			    size_t groups, const hashx_scatter *t)
{
	static uint64_t out[64 * 4 * HASHX_BATCH_MAX_LANES];
	size_t entered = 0;

	for (size_t g = 0; g < groups; g += 64) {
		size_t now = groups - g < 64 ? groups - g : 64;

		b->fn(first + g * b->lanes, now, out);
		for (size_t k = 0; k < now * b->lanes; k++) {
			uint64_t v = out[k / b->lanes * 4 * b->lanes +
					 k % b->lanes];

			entered += table_put(t, first + g * b->lanes + k, v);
		}
	}
	return entered;
}

/* Both forms of `impl` for program `p`; returns the items that entered
 * (fewer than the inputs: some were dropped). */
static size_t fused_vs_plain(hashx_impl impl, const hashx_program *p,
			     const hashx_sip_state *k, uint64_t first,
			     size_t groups, uint32_t capacity,
			     hashx_code_buffer bufs[2], const char *what)
{
	static test_table got, want;
	hashx_scatter tg = table_view(&got, capacity);
	hashx_scatter tw = table_view(&want, capacity);
	hashx_batch b;
	hashx_batch_scatter f;
	size_t entered;

	ck_assert(hashx_compile_batch(p, k, hashx_impl_backend(impl), &bufs[0],
				      &b));
	ck_assert(hashx_compile_batch_scatter(p, k, hashx_impl_backend(impl),
					      &tg, &bufs[1], &f));
	ck_assert_uint_eq(f.lanes, b.lanes);
	f.fn(first, groups);
	entered = scatter_plain(&b, first, groups, &tw);
	ck_assert_msg(tables_equal(&got, &want, capacity),
		      "%s: %s: the fused table differs", hashx_impl_name(impl),
		      what);
	/* groups = 0 writes nothing */
	tg = table_view(&got, capacity);
	f.fn(first, 0);
	for (unsigned i = 0; i < TEST_BUCKETS; i++)
		ck_assert_uint_eq(got.counts[i], 0);
	return entered;
}

START_TEST(fused_scatter_every_impl)
{
	hashx_impl impl = batch_impls[_i];
	hashx_ctx *c = hashx_alloc(HASHX_TYPE_COMPILED);
	hashx_code_buffer bufs[2] = {{0}, {0}};
	/* Seeds 9369 and 11016 fill a bucket past 336 items in 65,536
	 * inputs (found by search), so a solve's table drops some. */
	static const uint32_t seeds[] = {0, 1, 2, 9369, 11016};
	uint64_t x = synthetic_seed("fused_scatter_every_impl",
				    hashx_impl_name(impl));
	static hashx_program p;
	char what[64];

	ck_assert_ptr_nonnull(c);
	/* Under valgrind or an emulator a solve's worth of inputs per seed
	 * is minutes: there, one seed of each kind (0, and 9369 whose table
	 * drops). */
	size_t n_seeds = tu_slow_runner() ? 2 : sizeof seeds / sizeof seeds[0];

	for (size_t j = 0; j < n_seeds; j++) {
		size_t i = tu_slow_runner() ? j * 3 : j;
		hashx_batch b;
		size_t groups, entered;

		ck_assert_int_eq(hashx_make(c, &seeds[i], sizeof seeds[i]),
				 HASHX_OK);
		ck_assert(hashx_compile_batch(&c->program, &c->keys.input,
					      hashx_impl_backend(impl),
					      &bufs[0], &b));
		groups = 65536 / b.lanes; /* a solve's, in whole groups */
		snprintf(what, sizeof what, "seed %u", (unsigned)seeds[i]);
		entered = fused_vs_plain(impl, &c->program, &c->keys.input, 0,
					 groups, TABLE_CAP, bufs, what);
		if (seeds[i] > 2)
			ck_assert_uint_lt(entered, groups * b.lanes);
		/* a small table: every bucket fills and drops (8,000
		 * inputs or more, about 32 per bucket) */
		entered = fused_vs_plain(impl, &c->program, &c->keys.input,
					 seeds[i], 2000, 3, bufs, what);
		ck_assert_uint_eq(entered, TEST_BUCKETS * 3);
	}
	/* programs the generator never makes (dense branches, a BRANCH
	 * before any TARGET), inputs wrapping past 2^64 - 1 */
	for (int t = 0; t < tu_count(200); t++) {
		hashx_sip_state k = {next_random(&x), next_random(&x),
				     next_random(&x), next_random(&x)};
		uint64_t first = t % 8 == 0 ? UINT64_MAX - 300 : next_random(&x);

		synthetic_program(&x, &p);
		snprintf(what, sizeof what, "synthetic program %d", t);
		fused_vs_plain(impl, &p, &k, first, 120, 2, bufs, what);
	}
	hashx_code_buffer_release(&bufs[0]);
	hashx_code_buffer_release(&bufs[1]);
	hashx_free(c);
}
END_TEST

/* Only implementations this machine runs are accepted for a context. */
START_TEST(set_impl_refuses_unavailable)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);

	for (int k = 0; k < HASHX_IMPL_COUNT; k++) {
		hashx_impl impl = (hashx_impl)k;

		ck_assert_int_eq(hashx_ctx_set_impl(ctx, impl),
				 hashx_impl_available(impl));
		ck_assert_int_eq(hashx_impl_from_name(hashx_impl_name(impl)),
				 k);
	}
	ck_assert_int_eq(hashx_impl_from_name("sse9"), HASHX_IMPL_COUNT);
	ck_assert_int_eq(hashx_impl_from_name(NULL), HASHX_IMPL_COUNT);
	ck_assert(!hashx_ctx_set_impl(ctx, HASHX_IMPL_COUNT));
	ck_assert(hashx_impl_available(hashx_impl_default()));
	hashx_free(ctx);
}
END_TEST

/* The measured order for each class of CPU (dispatch.c's table) ends with the
 * interpreter, so that every CPU gets something, and names the classes
 * doc/performance.md section 3 gives figures for. */
static hashx_impl first_for(hashx_cpu_vendor v, unsigned family, bool avx512)
{
	return hashx_impl_order_for((hashx_cpu_id){v, family}, avx512, 0,
				    NULL);
}

static hashx_impl last_for(hashx_cpu_vendor v, unsigned family, bool avx512)
{
	hashx_cpu_id id = {v, family};
	hashx_impl last = HASHX_IMPL_COUNT, impl;

	for (size_t k = 0; (impl = hashx_impl_order_for(id, avx512, k, NULL)) !=
			   HASHX_IMPL_COUNT;
	     k++) {
		ck_assert_uint_lt(k, HASHX_IMPL_COUNT);
		last = impl;
	}
	return last;
}

START_TEST(order_by_cpu_class)
{
	static const struct {
		hashx_cpu_vendor vendor;
		unsigned family;
	} cpus[] = { { HASHX_CPU_AMD, 0x17 }, { HASHX_CPU_AMD, 0x19 },
		     { HASHX_CPU_AMD, 0x1a }, { HASHX_CPU_INTEL, 6 },
		     { HASHX_CPU_OTHER, 0 } };
	const char *why = NULL;

	/* Zen 3: AVX2 before the scalar JIT */
	ck_assert_int_eq(first_for(HASHX_CPU_AMD, 0x19, false),
			 HASHX_IMPL_AVX2);
	ck_assert_int_eq(hashx_impl_order_for((hashx_cpu_id){ HASHX_CPU_AMD,
							      0x19 },
					      false, 1, &why),
			 HASHX_IMPL_SCALAR);
	ck_assert_ptr_nonnull(strstr(why, "Zen 3"));
	/* Zen 5 and Intel with AVX-512: AVX-512, then the scalar JIT */
	ck_assert_int_eq(first_for(HASHX_CPU_AMD, 0x1a, true),
			 HASHX_IMPL_AVX512);
	ck_assert_int_eq(first_for(HASHX_CPU_INTEL, 6, true),
			 HASHX_IMPL_AVX512);
	ck_assert_int_eq(hashx_impl_order_for((hashx_cpu_id){ HASHX_CPU_INTEL,
							      6 },
					      true, 1, NULL),
			 HASHX_IMPL_SCALAR);
	/* unmeasured classes say so */
	hashx_impl_order_for((hashx_cpu_id){ HASHX_CPU_AMD, 0x17 }, false, 0,
			     &why);
	ck_assert_ptr_nonnull(strstr(why, "no measurement"));
	for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
		for (int w = 0; w < 2; w++)
			ck_assert_int_eq(last_for(cpus[i].vendor,
						  cpus[i].family, w),
					 HASHX_IMPL_PORTABLE);
}
END_TEST

/* This process's choice is the first available of its class's order, or
 * what HASHX_IMPL forces (tests/impls.sh runs the suite so). */
START_TEST(default_follows_the_table)
{
	const char *forced = getenv("HASHX_IMPL"), *why = NULL;
	hashx_impl want = HASHX_IMPL_COUNT, impl;
	hashx_cpu_id id = hashx_cpu_identify();

	if (forced != NULL &&
	    hashx_impl_available(hashx_impl_from_name(forced)))
		want = hashx_impl_from_name(forced);
	for (size_t k = 0; want == HASHX_IMPL_COUNT &&
			   (impl = hashx_impl_order_for(
				    id, hashx_cpu_has_avx512(), k, NULL)) !=
				   HASHX_IMPL_COUNT;
	     k++)
		if (hashx_impl_available(impl))
			want = impl;
	ck_assert_int_eq(hashx_impl_choose(&why), want);
	ck_assert_int_eq(hashx_impl_default(), want);
	ck_assert_ptr_nonnull(why);
	printf("implementation here: %s (%s)\n", hashx_impl_name(want), why);
}
END_TEST

/* HASHX_IMPL=hybrid2 names the experimental hybrid back-end, retired
 * (NEWS; its figures: doc/performance.md's history). Like any name not in
 * impl.h, it forces nothing: the process gets the choice it gets without
 * the variable. */
START_TEST(retired_hybrid2_is_not_forced)
{
	const char *why_retired = NULL, *why_unset = NULL;
	hashx_impl retired, unset;

	ck_assert_int_eq(hashx_impl_from_name("hybrid2"), HASHX_IMPL_COUNT);
	ck_assert_int_eq(setenv("HASHX_IMPL", "hybrid2", 1), 0);
	retired = hashx_impl_choose(&why_retired);
	ck_assert_int_eq(unsetenv("HASHX_IMPL"), 0);
	unset = hashx_impl_choose(&why_unset);
	ck_assert_int_eq(retired, unset);
	ck_assert_str_eq(why_retired, why_unset);
	ck_assert_str_ne(why_retired, "forced by HASHX_IMPL");
}
END_TEST

static const char *const lanes_tests[] = {
	"vectors_through_lanes", "random_seeds_through_lanes",
	"synthetic_programs_through_lanes"};

/* Each 8-lane interpreter this CPU runs gets every lanes test; one it
 * cannot run is a SKIP per test, never a pass. */
static void add_lanes_tests(TCase *tc)
{
#if HASHX_HAVE_LANES
	for (int k = 0; k < HASHX_LANES_IMPL_COUNT; k++) {
		const char *name = hashx_lanes_impls[k].name;

		if (!hashx_lanes_impls[k].available()) {
			for (int t = 0; t < 3; t++)
				printf("SKIP: %s(%s) (not available on this "
				       "CPU)\n",
				       lanes_tests[t], name);
			continue;
		}
		tcase_add_loop_test(tc, vectors_through_lanes, k, k + 1);
		tcase_add_loop_test(tc, random_seeds_through_lanes, k, k + 1);
		tcase_add_loop_test(tc, synthetic_programs_through_lanes, k,
				    k + 1);
	}
#else
	(void)tc;
	for (int t = 0; t < 3; t++)
		printf("SKIP: %s (not an x86-64 build)\n", lanes_tests[t]);
#endif
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--default") == 0) {
		puts(hashx_impl_name(hashx_impl_default()));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--available") == 0) {
		hashx_impl impl = hashx_impl_from_name(argv[2]);

		return impl != HASHX_IMPL_COUNT && hashx_impl_available(impl)
			       ? 0
			       : 1;
	}
	tu_skip_unless_reference_salt("test_batch");
	if (sodium_init() < 0)
		return 1;

	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("batch");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, set_impl_refuses_unavailable);
	tcase_add_test(tc, order_by_cpu_class);
	tcase_add_test(tc, default_follows_the_table);
	tcase_add_test(tc, retired_hybrid2_is_not_forced);
	for (int k = 0; k < HASHX_IMPL_COUNT; k++) {
		const char *name = hashx_impl_name((hashx_impl)k);

		if (!hashx_impl_available((hashx_impl)k)) {
			printf("SKIP: scatter_every_impl(%s) (not available on "
			       "this CPU or build)\n", name);
		} else if (!stage0_path_exists((hashx_impl)k)) {
			printf("SKIP: scatter_every_impl(%s) (this build's "
			       "emitter has no scatter form)\n", name);
		} else {
			tcase_add_loop_test(tc, scatter_every_impl, k, k + 1);
			tcase_add_loop_test(tc, scatter_other_width, k, k + 1);
		}
	}
	if (HASHX_HAVE_SCATTER)
		tcase_add_test(tc, synthetic_programs_scatter);
	else
		printf("SKIP: synthetic_programs_scatter (this build's "
		       "emitter has no scatter form)\n");
	for (int k = 0; k < NBATCH; k++) {
		const char *name = hashx_impl_name(batch_impls[k]);

		if (!hashx_impl_available(batch_impls[k])) {
			static const char *const tests[] = {
				"vectors_every_batch_impl",
				"random_seeds_every_batch_impl",
				"group_counts",
				"synthetic_programs_every_batch_impl",
				"fused_scatter_every_impl"};

			for (int t = 0; t < 5; t++)
				printf("SKIP: %s(%s) (not available on this "
				       "CPU or build)\n",
				       tests[t], name);
			continue;
		}
		tcase_add_loop_test(tc, vectors_every_batch_impl, k, k + 1);
		tcase_add_loop_test(tc, random_seeds_every_batch_impl, k,
				    k + 1);
		tcase_add_loop_test(tc, group_counts, k, k + 1);
		tcase_add_loop_test(tc, synthetic_programs_every_batch_impl, k,
				    k + 1);
		if (hashx_impl_scatters(batch_impls[k]))
			tcase_add_loop_test(tc, fused_scatter_every_impl, k,
					    k + 1);
		else
			printf("SKIP: fused_scatter_every_impl(%s) (its "
			       "back-end has no fused form)\n", name);
	}
#if HASHX_HAVE_PAIRED_INTERPRETER
	tcase_add_test(tc, synthetic_programs_through_pairs);
	tcase_add_test(tc, random_seeds_through_pairs);
#else
	printf("SKIP: synthetic_programs_through_pairs (no paired "
	       "interpreter in this build)\n");
	printf("SKIP: random_seeds_through_pairs (no paired interpreter in "
	       "this build)\n");
#endif
	add_lanes_tests(tc);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}

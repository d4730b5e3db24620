/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_code_size.c - every code generator's output stays within the size
 * bound it states (code_size.h) for the largest program it can be given,
 * and that program's code still computes the interpreter's hashes.
 *
 * The worst case is measured, not guessed: each instruction form (every
 * opcode with each register pair, immediate, rotation count, branch mask
 * and branch context) is compiled as a program of copies of it, and its
 * cost is what the copies add to the code. The largest program is then
 * 512 instructions of the costliest form. AVX-512 also copies each
 * BRANCH's block; there the largest programs the generator allows must
 * fit, and bigger ones must fail cleanly and fall back to the scalar JIT.
 *
 * Each emitter this build or CPU lacks is reported as skipped.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "batch_backend.h"
#include "bytes.h"
#include "code_size.h"
#include "compiler.h"
#include "context.h"
#include "finalize.h"
#include "generator.h"
#include "interpreter.h"
#include "keys.h"
#include "testutil.h"

/* ---- the emitters ---------------------------------------------------- */

typedef struct emitter {
	const char *name;
	/* where the emitter publishes them: a batch back-end's description
	 * holds a pointer to its own */
	const hashx_code_bounds *const *bounds;
	hashx_impl impl;   /* HASHX_IMPL_SCALAR, or the batch form's */
	bool copies_block; /* a BRANCH copies the instructions it re-runs */
} emitter;

#if defined(HASHX_JIT_X86_64)
static const hashx_code_bounds *const scalar_bounds = &hashx_x86_64_code_bounds;
static const emitter emitters[] = {
	{"scalar x86_64", &scalar_bounds, HASHX_IMPL_SCALAR, false},
	{"avx2", &hashx_x86_64_avx2_backend.bounds, HASHX_IMPL_AVX2, false},
	{"avx512", &hashx_x86_64_avx512_backend.bounds, HASHX_IMPL_AVX512,
	 true},
};
#define NEMITTERS 3
#define AVX512_INDEX 2
#elif defined(HASHX_JIT_AARCH64)
static const hashx_code_bounds *const scalar_bounds = &hashx_aarch64_code_bounds;
static const emitter emitters[] = {
	{"scalar aarch64", &scalar_bounds, HASHX_IMPL_SCALAR,
	 false},
};
#define NEMITTERS 1
#else
static const emitter emitters[1];
#define NEMITTERS 0
#endif

/* Every emitter there is, for the SKIP lines of those not built here. */
static const char *const all_emitters[] = {"scalar x86_64", "scalar aarch64",
					   "avx2", "avx512"};

static const hashx_sip_state test_key = {
	0x0123456789abcdefu, 0xfedcba9876543210u, 0x0f1e2d3c4b5a6978u,
	0x8796a5b4c3d2e1f0u};

/* Compiles `p` in the form used to measure (register file, or the batch
 * form); returns the code's size, 0 when the emitter refuses. */
static size_t code_size(const emitter *em, const hashx_program *p,
			hashx_code_buffer *buf)
{
	hashx_batch b;

	if (em->impl == HASHX_IMPL_SCALAR)
		return hashx_compile(p, buf) != NULL ? buf->used : 0;
	if (!hashx_compile_batch(p, &test_key, hashx_impl_backend(em->impl),
				 buf, &b))
		return 0;
	return buf->used;
}

/* ---- instruction forms ----------------------------------------------- */

enum { ROTATE = -1 }; /* copy i: dst i % 8, src (i + 4) % 8 */

/* What precedes the copies of a form: its branch context. */
typedef enum setup {
	SETUP_NONE,   /* no TARGET before */
	SETUP_TARGET, /* right after a TARGET */
	SETUP_BLOCK,  /* a TARGET, then a write to every register */
	SETUP_FAR,    /* a TARGET, then 40 long instructions */
	SETUP_COUNT
} setup;

/* Instructions after the TARGET in each setup (what a BRANCH re-runs). */
static const size_t setup_block[SETUP_COUNT] = {0, 0, 8, 40};

typedef struct form {
	uint8_t op;
	int8_t dst, src; /* or ROTATE */
	uint32_t imm;
	bool distinct; /* copy i has imm + i: a pool entry each */
	setup where;
	/* A copy is TARGET, the high multiplication, an overwrite of its
	 * result and a BRANCH testing it: the result must be kept aside. */
	bool tested;
} form;

static size_t copy_len(const form *f)
{
	return f->tested ? 4 : 1;
}

static const char *const op_names[HASHX_OP_COUNT] = {
	"UMULH_R", "SMULH_R", "MUL_R", "SUB_R",  "XOR_R", "ADD_RS",
	"ROR_C",   "ADD_C",   "XOR_C", "TARGET", "BRANCH"};

/* For the log: e.g. "ADD_RS r5, r0 << 2", "BRANCH mask 0x1, +1 each,
 * after a TARGET". */
static void describe(const form *f, char *out, size_t len)
{
	static const char *const where[SETUP_COUNT] = {
		"no TARGET before", "after a TARGET",
		"after a TARGET and 8 writes", "40 after a TARGET"};
	const char *name = op_names[f->op];
	const char *more = f->distinct ? ", +1 each" : "";
	char dst[16], src[16];

	snprintf(dst, sizeof dst, f->dst == ROTATE ? "r(i%%8)" : "r%d", f->dst);
	snprintf(src, sizeof src, f->src == ROTATE ? "r((i+4)%%8)" : "r%d",
		 f->src);
	if (f->op == HASHX_OP_BRANCH)
		snprintf(out, len, "%s mask 0x%x%s, %s", name, (unsigned)f->imm,
			 more, where[f->where]);
	else if (f->tested)
		snprintf(out, len, "%s %s, %s, overwritten, then tested", name,
			 dst, src);
	else if (f->op == HASHX_OP_ADD_RS)
		snprintf(out, len, "%s %s, %s << %u", name, dst, src,
			 (unsigned)f->imm);
	else if (f->op >= HASHX_OP_ROR_C)
		snprintf(out, len, "%s %s, 0x%x%s", name, dst, (unsigned)f->imm,
			 more);
	else
		snprintf(out, len, "%s %s, %s", name, dst, src);
}

static void add(hashx_program *p, int op, int dst, int src, uint32_t imm)
{
	ck_assert_uint_lt(p->size, HASHX_PROGRAM_SIZE);
	tu_program_emit(p, op, dst, src, imm);
}

static void add_setup(hashx_program *p, setup s)
{
	if (s == SETUP_NONE)
		return;
	add(p, HASHX_OP_TARGET, 0, 0, 0);
	for (size_t k = 0; k < setup_block[s]; k++) {
		int r = (int)(k % 8);

		if (s == SETUP_BLOCK) /* a product for the BRANCHes to test */
			add(p, HASHX_OP_SMULH_R, r, (r + 1) % 8, 0);
		else
			add(p, HASHX_OP_ADD_C, r, 0, 0x80000000u + (uint32_t)k);
	}
}

/* Appends copy number `i` of `f`. */
static void add_copy(hashx_program *p, const form *f, size_t i)
{
	int dst = f->dst == ROTATE ? (int)(i % 8) : f->dst;
	int src = f->src == ROTATE ? (int)((i + 4) % 8) : f->src;

	if (f->tested)
		add(p, HASHX_OP_TARGET, 0, 0, 0);
	add(p, f->op, dst, src, f->distinct ? f->imm + (uint32_t)i : f->imm);
	if (f->tested) {
		add(p, HASHX_OP_ADD_C, dst, 0, 1);
		add(p, HASHX_OP_BRANCH, 0, 0, 0x00110000u);
	}
}

/* The form's setup, then copies while the program has room for one. */
static void build(hashx_program *p, const form *f, size_t size)
{
	tu_program_clear(p);
	add_setup(p, f->where);
	for (size_t i = 0; p->size + copy_len(f) <= size; i++)
		add_copy(p, f, i);
}

/* Every form worth measuring: all register pairs of the register
 * operations and a rotation through all registers (which defeats any
 * cache of operands), every rotation count, immediates at each encoding
 * boundary, and branches with each mask kind in each context. */
#define MAX_FORMS 1500

static form plain(int op, int dst, int src, uint32_t imm)
{
	form f = {.op = (uint8_t)op,
		  .dst = (int8_t)dst,
		  .src = (int8_t)src,
		  .imm = imm,
		  .where = SETUP_NONE};

	return f;
}

static const uint32_t imms[] = {
	0,          1,          0x7f,       0x80,       0xffff,     0x10000,
	0x7fffffff, 0x80000000, 0xffff0000, 0xffffffff, 0x12345678, 0xedcba987,
};
#define NIMMS (sizeof imms / sizeof imms[0])

static size_t all_forms(form *out)
{
	size_t n = 0;

	for (int op = HASHX_OP_UMULH_R; op <= HASHX_OP_ADD_RS; op++) {
		uint32_t shifts = op == HASHX_OP_ADD_RS ? 4 : 1;

		for (uint32_t sh = 0; sh < shifts; sh++) {
			for (int r = 0; r < 64; r++)
				out[n++] = plain(op, r / 8, r % 8, sh);
			out[n++] = plain(op, ROTATE, ROTATE, sh);
		}
	}
	for (int op = HASHX_OP_UMULH_R; op <= HASHX_OP_SMULH_R; op++) {
		out[n] = plain(op, ROTATE, ROTATE, 0);
		out[n++].tested = true;
	}
	for (uint32_t c = 1; c < 64; c++)
		for (int r = 0; r < 8; r++)
			out[n++] = plain(HASHX_OP_ROR_C, r, 0, c);
	for (int op = HASHX_OP_ADD_C; op <= HASHX_OP_XOR_C; op++)
		for (size_t k = 0; k < NIMMS; k++) {
			for (int r = 0; r < 8; r++)
				out[n++] = plain(op, r, 0, imms[k]);
			out[n] = plain(op, ROTATE, 0, imms[k]);
			out[n++].distinct = true;
		}
	for (int s = 0; s < SETUP_COUNT; s++)
		for (size_t k = 0; k < NIMMS; k++)
			for (int d = 0; d < 2; d++) {
				out[n] = plain(HASHX_OP_BRANCH, 0, 0, imms[k]);
				out[n].distinct = d == 1;
				out[n++].where = (setup)s;
			}
	ck_assert_uint_le(n, MAX_FORMS);
	return n;
}

/* ---- measuring ------------------------------------------------------- */

#define COPIES 16

/* What the BRANCHes of a copy of `f` copy (AVX-512), in instructions. */
static size_t copied(const emitter *em, const form *f)
{
	if (!em->copies_block)
		return 0;
	if (f->tested)
		return 2;
	return f->op == HASHX_OP_BRANCH ? setup_block[f->where] : 0;
}

/* The most a copy of `f` may cost by the emitter's bounds. */
static size_t allowed(const emitter *em, const form *f)
{
	return (*em->bounds)->per_instr * (copy_len(f) + copied(em, f));
}

typedef struct measured {
	form costliest[HASHX_OP_COUNT]; /* of the one-instruction forms */
	size_t cost[HASHX_OP_COUNT];
	form worst; /* the costliest per instruction that copies nothing */
	size_t worst_cost;
	size_t empty; /* the program of no instructions */
} measured;

/* Bytes per copy of `f`, rounded up: COPIES copies against none. */
static size_t form_cost(const emitter *em, const form *f,
			const size_t base[SETUP_COUNT], hashx_code_buffer *buf)
{
	static hashx_program p;
	size_t with;

	build(&p, f,
	      setup_block[f->where] + (f->where != SETUP_NONE) +
		      COPIES * copy_len(f));
	with = code_size(em, &p, buf);
	ck_assert_msg(with > 0, "%s: a program of %zu instructions refused",
		      em->name, p.size);
	ck_assert_uint_ge(with, base[f->where]);
	return (with - base[f->where] + COPIES - 1) / COPIES;
}

/* The cost of every form, each checked against the emitter's bound; the
 * costliest per opcode and overall. */
static void measure(const emitter *em, hashx_code_buffer *buf, measured *m)
{
	static form forms[MAX_FORMS];
	static hashx_program p;
	size_t base[SETUP_COUNT], n = all_forms(forms);
	char what[96];

	memset(m, 0, sizeof *m);
	for (int s = 0; s < SETUP_COUNT; s++) {
		tu_program_clear(&p);
		add_setup(&p, (setup)s);
		base[s] = code_size(em, &p, buf);
		ck_assert_uint_gt(base[s], 0);
	}
	m->empty = base[SETUP_NONE];
	for (size_t k = 0; k < n; k++) {
		size_t c = form_cost(em, &forms[k], base, buf);

		describe(&forms[k], what, sizeof what);
		ck_assert_msg(c <= allowed(em, &forms[k]),
			      "%s: %s costs %zu bytes, bound %zu", em->name,
			      what, c, allowed(em, &forms[k]));
		c = (c + copy_len(&forms[k]) - 1) / copy_len(&forms[k]);
		if (copy_len(&forms[k]) == 1 && c > m->cost[forms[k].op]) {
			m->cost[forms[k].op] = c;
			m->costliest[forms[k].op] = forms[k];
		}
		if (copied(em, &forms[k]) == 0 && c > m->worst_cost) {
			m->worst_cost = c;
			m->worst = forms[k];
		}
	}
}

static void report_costs(const emitter *em, const measured *m)
{
	char what[96];

	printf("%s: empty program %zu bytes (bound %zu)\n", em->name, m->empty,
	       (*em->bounds)->fixed);
	for (int op = 0; op < HASHX_OP_COUNT; op++) {
		if (op == HASHX_OP_TARGET)
			continue;
		describe(&m->costliest[op], what, sizeof what);
		printf("%s:   %-7s costliest %4zu bytes: %s\n", em->name,
		       op_names[op], m->cost[op], what);
	}
}

/* ---- the interpreter's answers --------------------------------------- */

static void reference_hash(const hashx_program *p, uint64_t input,
			   uint8_t out[32])
{
	uint64_t r[8];

	hashx_siphash24_ctr_state512(&test_key, input, r);
	hashx_interpret_portable(p, r);
	hashx_finalize(&test_key, r, out);
}

static const uint64_t inputs[] = {0, 1, 0x8000000000000000u, UINT64_MAX,
				  0x243f6a8885a308d3u};
#define NINPUTS (sizeof inputs / sizeof inputs[0])

/* The register-file form against the interpreter. */
static void check_regfile(const hashx_program *p, hashx_compiled_fn *fn)
{
	for (size_t k = 0; k < NINPUTS; k++) {
		uint64_t a[8], b[8];

		hashx_siphash24_ctr_state512(&test_key, inputs[k], a);
		memcpy(b, a, sizeof b);
		fn(a);
		hashx_interpret_portable(p, b);
		ck_assert_mem_eq(a, b, sizeof a);
	}
}

static void check_hash(const hashx_program *p, hashx_hash_fn *fn)
{
	for (size_t k = 0; k < NINPUTS; k++) {
		uint8_t got[32], want[32];
		uint64_t first = fn(inputs[k], got);

		ck_assert_uint_eq(first, hashx_load64_le(got));
		reference_hash(p, inputs[k], want);
		ck_assert_mem_eq(got, want, 32);
	}
}

/* Two groups of every lane against the interpreter. */
static void check_batch(const hashx_program *p, const hashx_batch *b,
			uint64_t first)
{
	uint64_t out[2 * 4 * HASHX_BATCH_MAX_LANES];

	b->fn(first, 2, out);
	for (unsigned k = 0; k < 2 * b->lanes; k++) {
		uint8_t want[32];
		unsigned g = k / b->lanes, l = k % b->lanes;

		reference_hash(p, first + k, want);
		for (unsigned j = 0; j < 4; j++)
			ck_assert_msg(out[(g * 4 + j) * b->lanes + l] ==
					      hashx_load64_le(want + 8 * j),
				      "input %u word %u differs", k, j);
	}
}

/* The solver's table (compiler.h's scatter form), one interpreted hash
 * at a time. */
#define SCATTER_CAP 2
#define SCATTER_N 600

typedef struct table {
	uint16_t counts[256];
	uint16_t idx[256 * SCATTER_CAP];
	uint64_t data[256 * SCATTER_CAP];
} table;

static hashx_scatter table_view(table *t)
{
	memset(t, 0, sizeof *t);
	/* 8 bucket bits: 256 buckets, as Equi-X's (solver.h) */
	return (hashx_scatter){t->counts, t->idx, t->data, SCATTER_CAP, 8};
}

static void reference_scatter(const hashx_program *p, uint64_t first, table *t)
{
	table_view(t);
	for (uint64_t k = 0; k < SCATTER_N; k++) {
		uint64_t in = first + k, v; /* may wrap past 2^64 - 1 */
		uint8_t h[32];
		unsigned b;

		reference_hash(p, in, h);
		v = hashx_load64_le(h);
		b = (unsigned)(v & 255);
		if (t->counts[b] == SCATTER_CAP)
			continue;
		t->idx[b * SCATTER_CAP + t->counts[b]] = (uint16_t)in;
		t->data[b * SCATTER_CAP + t->counts[b]++] = v >> 8;
	}
}

static void check_tables(const table *got, const table *want)
{
	ck_assert_mem_eq(got->counts, want->counts, sizeof got->counts);
	ck_assert_mem_eq(got->idx, want->idx, sizeof got->idx);
	ck_assert_mem_eq(got->data, want->data, sizeof got->data);
}

/* ---- the largest programs -------------------------------------------- */

/* Checks the size of the code just compiled into `buf` against the
 * emitter's bound and the buffer, and reports the margin. */
static void check_fits(const emitter *em, const char *what,
		       const hashx_code_buffer *buf, size_t bound)
{
	ck_assert_uint_gt(buf->used, 0);
	ck_assert_msg(buf->used <= bound, "%s: %s: %zu bytes, bound %zu",
		      em->name, what, buf->used, bound);
	ck_assert_uint_le(bound, (*em->bounds)->capacity);
	ck_assert_uint_le((*em->bounds)->capacity, buf->size);
	printf("%s: %s: worst %zu of %zu bytes (buffer %zu)\n", em->name, what,
	       buf->used, bound, buf->size);
}

/* The scalar emitters: the worst program in each form of compiler.h. */
static void compile_scalar(const emitter *em, const hashx_program *p,
			   size_t bound, hashx_code_buffer *buf)
{
	hashx_compiled_fn *fn = hashx_compile(p, buf);
	hashx_hash_fn *hash;

	ck_assert_ptr_nonnull(fn);
	check_fits(em, "register-file form", buf, bound);
	check_regfile(p, fn);
	hash = hashx_compile_hash(p, &test_key, buf);
	ck_assert_ptr_nonnull(hash);
	check_fits(em, "whole-hash form", buf, bound);
	check_hash(p, hash);
	if (HASHX_HAVE_SCATTER) {
		static table got, want;
		hashx_scatter t = table_view(&got);
		hashx_scatter_fn *scatter =
			hashx_compile_scatter(p, &test_key, &t, buf);

		ck_assert_ptr_nonnull(scatter);
		check_fits(em, "scatter form", buf, bound);
		scatter(UINT64_MAX - 100, SCATTER_N);
		reference_scatter(p, UINT64_MAX - 100, &want);
		check_tables(&got, &want);
	}
}

/* The fused stage 0 form (batch.h) of the same back-end, within the same
 * bounds (its empty program within the fixed part too), filling the
 * interpreter's table; the inputs wrap past 2^64 - 1. */
static void compile_fused(const emitter *em, const hashx_program *p,
			  size_t bound, const char *what,
			  hashx_code_buffer *buf)
{
	static table got, want;
	static hashx_program empty;
	hashx_scatter t = table_view(&got);
	hashx_batch_scatter f;
	char fused[128];

	snprintf(fused, sizeof fused, "%s, fused stage 0", what);
	tu_program_clear(&empty);
	ck_assert(hashx_compile_batch_scatter(
		&empty, &test_key, hashx_impl_backend(em->impl), &t, buf, &f));
	ck_assert_uint_le(buf->used, (*em->bounds)->fixed);
	ck_assert_msg(hashx_compile_batch_scatter(p, &test_key,
						  hashx_impl_backend(em->impl),
						  &t, buf, &f),
		      "%s: %s refused", em->name, fused);
	check_fits(em, fused, buf, bound);
	ck_assert_uint_eq(SCATTER_N % f.lanes, 0);
	f.fn(UINT64_MAX - 100, SCATTER_N / f.lanes);
	reference_scatter(p, UINT64_MAX - 100, &want);
	check_tables(&got, &want);
}

static void compile_batch(const emitter *em, const hashx_program *p,
			  size_t bound, const char *what,
			  hashx_code_buffer *buf)
{
	hashx_batch b;

	ck_assert_msg(hashx_compile_batch(p, &test_key,
					  hashx_impl_backend(em->impl), buf,
					  &b),
		      "%s: %s refused", em->name, what);
	check_fits(em, what, buf, bound);
	check_batch(p, &b, UINT64_MAX - 5);
	check_batch(p, &b, 0x1234);
	if (hashx_impl_scatters(em->impl))
		compile_fused(em, p, bound, what, buf);
}

/* 512 instructions of the costliest form: the most code any program makes
 * (for AVX-512, any that copies no block), in every form the emitter has,
 * within fixed + 512 * per_instr, and right. */
START_TEST(worst_case_fits)
{
	const emitter *em = &emitters[_i];
	const hashx_code_bounds *bd = *em->bounds;
	hashx_code_buffer buf = {0};
	static hashx_program p;
	size_t bound = bd->fixed + HASHX_PROGRAM_SIZE * bd->per_instr;
	measured m;
	char what[96];

	ck_assert_uint_le(bound, bd->capacity);
	if (!em->copies_block) /* the capacity is that sum, nothing more */
		ck_assert_uint_eq(bound, bd->capacity);
	measure(em, &buf, &m);
	report_costs(em, &m);
	ck_assert_uint_le(m.empty, bd->fixed);
	build(&p, &m.worst, HASHX_PROGRAM_SIZE);
	describe(&m.worst, what, sizeof what);
	printf("%s: largest program: %s, %zu bytes each\n", em->name, what,
	       m.worst_cost);
	if (em->impl == HASHX_IMPL_SCALAR)
		compile_scalar(em, &p, bound, &buf);
	else
		compile_batch(em, &p, bound, "largest program", &buf);
	hashx_code_buffer_release(&buf);
}
END_TEST

/* A program that claims more instructions than the struct holds is
 * refused before any is read. */
START_TEST(oversized_program_refused)
{
	const emitter *em = &emitters[_i];
	hashx_code_buffer buf = {0};
	static hashx_program p;

	tu_program_clear(&p);
	p.size = HASHX_PROGRAM_SIZE + 1;
	ck_assert_uint_eq(code_size(em, &p, &buf), 0);
	ck_assert_uint_eq(buf.used, 0);
	hashx_code_buffer_release(&buf);
}
END_TEST

/* ---- AVX-512: the copied blocks -------------------------------------- */

/* Every generated program has the branch shape the AVX-512 capacity
 * assumes (program.h): no more BRANCHes, no longer blocks. */
START_TEST(generated_branch_shape)
{
	static hashx_program p;
	size_t most_branches = 0, longest = 0;
	int made = 0;

	for (uint32_t s = 0; s < 400; s++) {
		hashx_keys keys;
		size_t branches = 0, target = 0;

		hashx_keys_from_seed(&s, sizeof s, &keys);
		if (!hashx_generate(&keys.program, NULL, NULL, &p, NULL))
			continue;
		made++;
		for (size_t i = 0; i < p.size; i++) {
			if (p.code[i].opcode == HASHX_OP_TARGET)
				target = i;
			if (p.code[i].opcode != HASHX_OP_BRANCH)
				continue;
			ck_assert_uint_gt(i, target); /* one TARGET before */
			branches++;
			if (i - target - 1 > longest)
				longest = i - target - 1;
		}
		if (branches > most_branches)
			most_branches = branches;
	}
	ck_assert_int_gt(made, 300);
	printf("generated programs: at most %zu BRANCHes (bound %d), blocks "
	       "of at most %zu instructions (bound %d)\n",
	       most_branches, HASHX_GEN_BRANCHES_MAX, longest,
	       HASHX_GEN_BLOCK_MAX);
	ck_assert_uint_le(most_branches, HASHX_GEN_BRANCHES_MAX);
	ck_assert_uint_le(longest, HASHX_GEN_BLOCK_MAX);
}
END_TEST

#if NEMITTERS > 1
/* The generator's layout (generator.c) with `x`, the costliest form, in
 * every slot but the TARGETs and BRANCHes: HASHX_GEN_BRANCHES_MAX times
 * x, TARGET, HASHX_GEN_BLOCK_MAX x, BRANCH, then x up to 512. */
static void generator_shaped(hashx_program *p, const form *x)
{
	size_t per = HASHX_PROGRAM_SIZE / HASHX_GEN_BRANCHES_MAX, i = 0;

	tu_program_clear(p);
	for (int b = 0; b < HASHX_GEN_BRANCHES_MAX; b++) {
		add_copy(p, x, i++);
		add(p, HASHX_OP_TARGET, 0, 0, 0);
		for (int k = 0; k < HASHX_GEN_BLOCK_MAX; k++)
			add_copy(p, x, i++);
		add(p, HASHX_OP_BRANCH, 0, 0, 0x00110000u);
		while (p->size < per * (size_t)(b + 1))
			add_copy(p, x, i++);
	}
	ck_assert_uint_eq(p->size, HASHX_PROGRAM_SIZE);
}

/* A TARGET, `body` copies of x, then `branches` BRANCHes, each copying
 * all of them: the block copies grow with body * branches. */
static void copying_program(hashx_program *p, const form *x, size_t body,
			    size_t branches)
{
	tu_program_clear(p);
	add(p, HASHX_OP_TARGET, 0, 0, 0);
	for (size_t i = 0; i < body; i++)
		add_copy(p, x, i);
	for (size_t k = 0; k < branches; k++)
		add(p, HASHX_OP_BRANCH, 0, 0, 0x00110000u);
}

/* Hashes a solve's worth of inputs through a compiled AVX-512 context
 * running `p`, whose batch form does not fit: it must fall back to the
 * scalar JIT and fill the interpreter's table. */
static void check_fallback(const hashx_program *p)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	static table got, want;
	hashx_scatter t = table_view(&got);
	uint32_t seed = 1;

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(hashx_make(ctx, &seed, sizeof seed), HASHX_OK);
	ck_assert(hashx_ctx_set_impl(ctx, HASHX_IMPL_AVX512));
	ctx->program = *p; /* one the generator never makes */
	ctx->keys.input = test_key;
	hashx_exec_scatter(ctx, 77, SCATTER_N, &t);
	/* refused: the scalar path ran */
	ck_assert_int_eq(ctx->stage0.held, HASHX_STAGE0_SCATTER);
	reference_scatter(p, 77, &want);
	check_tables(&got, &want);
	hashx_free(ctx);
}

/*
 * AVX-512 copies each BRANCH's block. The largest branch structure the
 * generator allows, filled with the costliest instruction, fits the
 * capacity; so does the largest program of copied blocks that compiles
 * at all, found by bisection; one BRANCH more is refused cleanly, as is
 * the largest possible program (half blocks, half BRANCHes), and the
 * solver then hashes through the scalar JIT.
 */
START_TEST(avx512_block_copies)
{
	const emitter *em = &emitters[AVX512_INDEX];
	const hashx_code_bounds *bd = *em->bounds;
	hashx_code_buffer buf = {0};
	static hashx_program p;
	size_t lo = 0, hi = HASHX_PROGRAM_SIZE / 2, body = hi - 1, predicted;
	measured m;
	hashx_batch b;

	ck_assert_uint_eq(bd->fixed +
				  bd->per_instr * (HASHX_PROGRAM_SIZE +
						   HASHX_GEN_BRANCHES_MAX *
							   HASHX_GEN_BLOCK_MAX),
			  bd->capacity);
	measure(em, &buf, &m);
	generator_shaped(&p, &m.worst);
	compile_batch(em, &p, bd->capacity, "generator-shaped program", &buf);

	/* The most BRANCHes after `body` copies that still compile. */
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;

		copying_program(&p, &m.worst, body, mid);
		if (code_size(em, &p, &buf) > 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	ck_assert_uint_gt(lo, 0);
	ck_assert_uint_lt(lo, HASHX_PROGRAM_SIZE - 1 - body);
	printf("%s: %zu BRANCHes copying %zu instructions each compile\n",
	       em->name, lo, body);
	copying_program(&p, &m.worst, body, lo);
	compile_batch(em, &p, bd->capacity, "largest compiling program", &buf);
	copying_program(&p, &m.worst, body, lo + 1);
	ck_assert(!hashx_compile_batch(&p, &test_key,
				       hashx_impl_backend(em->impl), &buf, &b));
	ck_assert_uint_eq(buf.used, 0);
	ck_assert_ptr_null(b.fn);

	copying_program(&p, &m.worst, body, HASHX_PROGRAM_SIZE - 1 - body);
	predicted = m.empty + body * m.worst_cost * (p.size - body);
	printf("%s: largest possible program needs about %zu bytes, capacity "
	       "%zu: refused, the scalar JIT hashes\n",
	       em->name, predicted, bd->capacity);
	ck_assert_uint_gt(predicted, bd->capacity);
	ck_assert(!hashx_compile_batch(&p, &test_key,
				       hashx_impl_backend(em->impl), &buf, &b));
	ck_assert_uint_eq(buf.used, 0);
	check_fallback(&p);
	hashx_code_buffer_release(&buf);
}
END_TEST
#endif

/* ---- the suite ------------------------------------------------------- */

static bool built_here(const char *name)
{
	for (int k = 0; k < NEMITTERS; k++)
		if (strcmp(emitters[k].name, name) == 0)
			return true;
	return false;
}

/* The emitters not built here, or that this CPU cannot run, with why. */
static void report_skips(void)
{
	static const char *const tests[] = {"worst_case_fits",
					    "oversized_program_refused"};

	for (size_t k = 0; k < sizeof all_emitters / sizeof all_emitters[0];
	     k++)
		if (!built_here(all_emitters[k]))
			for (int t = 0; t < 2; t++)
				printf("SKIP: %s(%s) (no such emitter in this "
				       "build)\n",
				       tests[t], all_emitters[k]);
	for (int k = 0; k < NEMITTERS; k++)
		if (!hashx_impl_available(emitters[k].impl))
			for (int t = 0; t < 2; t++)
				printf("SKIP: %s(%s) (not available on this "
				       "CPU)\n",
				       tests[t], emitters[k].name);
	if (!built_here("avx512"))
		printf("SKIP: avx512_block_copies (no such emitter in this "
		       "build)\n");
}

int main(void)
{
	Suite *s = suite_create("code_size");
	TCase *tc = tcase_create("code_size");

	tcase_set_timeout(tc, 300);
	report_skips();
	tcase_add_test(tc, generated_branch_shape);
	for (int k = 0; k < NEMITTERS; k++) {
		if (!hashx_impl_available(emitters[k].impl))
			continue;
		tcase_add_loop_test(tc, worst_case_fits, k, k + 1);
		tcase_add_loop_test(tc, oversized_program_refused, k, k + 1);
	}
#if NEMITTERS > 1
	if (hashx_impl_available(HASHX_IMPL_AVX512))
		tcase_add_test(tc, avx512_block_copies);
	else
		printf("SKIP: avx512_block_copies (not available on this "
		       "CPU)\n");
#endif
	suite_add_tcase(s, tc);
	fflush(stdout); /* before Check forks: no line printed twice */
	return tu_run_suite(s);
}

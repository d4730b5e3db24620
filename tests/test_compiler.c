/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_compiler.c - the native compiler (JIT): bit-identical to the
 * interpreter, W^X memory discipline (while programs compile and while the
 * Equi-X solver runs on each implementation), and the fallback rules when
 * the system refuses executable memory.
 *
 * On a build without a compiler for this CPU the whole program is skipped
 * (exit 77) and says so.
 */
#include <config.h>

#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_buffer.h"
#include "compiler.h"
#include "context.h"
#include "generator.h"
#include "interpreter.h"
#include "solver.h"
#include "solver_memory.h"
#include "testutil.h"

/* ---- vectors through the compiled path ---------------------------- */

static void vectors_with(hashx_type type, unsigned faults, hashx_type want)
{
	static const struct {
		const char *file;
		int lines, fail_seeds;
	} files[] = { { "hashx-named.txt", 18, 4 }, { "hashx.txt", 3000, 0 } };

	for (size_t i = 0; i < 2; i++) {
		hashx_ctx *ctx = hashx_alloc(type);
		int fails;

		ck_assert_ptr_nonnull(ctx);
		hashx_ctx_inject_faults(ctx, faults);
		ck_assert_int_eq(tu_check_hashx_vectors(ctx, files[i].file,
							want, &fails),
				 files[i].lines);
		if (files[i].fail_seeds)
			ck_assert_int_eq(fails, files[i].fail_seeds);
		hashx_free(ctx);
	}
}

START_TEST(vectors_compiled)
{
	vectors_with(HASHX_TYPE_COMPILED, 0, HASHX_TYPE_COMPILED);
}
END_TEST

START_TEST(vectors_try_compile)
{
	vectors_with(HASHX_TRY_COMPILE, 0, HASHX_TYPE_COMPILED);
}
END_TEST

/* The same code in the flipped form of code_buffer.h, which the other
 * tests reach only where the system refuses a second view. */
START_TEST(vectors_compiled_flipped)
{
	vectors_with(HASHX_TYPE_COMPILED, HASHX_FAULT_ALIAS,
		     HASHX_TYPE_COMPILED);
}
END_TEST

/* A system that refuses executable memory at each step: TRY_COMPILE
 * silently interprets, with the same outputs. */
static const unsigned all_faults[] = {
	HASHX_FAULT_MAP, HASHX_FAULT_WRITABLE | HASHX_FAULT_EXECUTABLE,
	HASHX_FAULT_EXECUTABLE,
	/* the same refusals of the flipped form's mprotect() calls */
	HASHX_FAULT_ALIAS | HASHX_FAULT_WRITABLE | HASHX_FAULT_EXECUTABLE,
	HASHX_FAULT_ALIAS | HASHX_FAULT_EXECUTABLE,
};

START_TEST(vectors_try_compile_refused)
{
	vectors_with(HASHX_TRY_COMPILE, all_faults[_i],
		     HASHX_TYPE_INTERPRETED);
}
END_TEST

/* ... and COMPILED fails with HASHX_FAIL_COMPILE, leaving the context
 * unprepared, while a bad seed still reports HASHX_FAIL_SEED first. */
START_TEST(compiled_refused_fails)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	uint8_t out[HASHX_SIZE];
	hashx_type t;

	ck_assert_ptr_nonnull(ctx);
	hashx_ctx_inject_faults(ctx, all_faults[_i]);
	ck_assert_int_eq(hashx_make(ctx, "abc", 3), HASHX_FAIL_COMPILE);
	ck_assert_int_eq(hashx_exec(ctx, 1, out), HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(hashx_query_type(ctx, &t), HASHX_FAIL_UNPREPARED);
	ck_assert_int_eq(hashx_make(ctx, "\xf9\x05\x00\x00", 4),
			 HASHX_FAIL_SEED);
	hashx_free(ctx);
}
END_TEST

/* A refusal that comes only after the buffer was mapped and used (making
 * it writable again): the previous function must not survive. `_i` 0:
 * the form the system gives; 1: the flipped form. */
START_TEST(refusal_after_success)
{
	unsigned form = _i ? HASHX_FAULT_ALIAS : 0;
	hashx_ctx *c = hashx_alloc(HASHX_TRY_COMPILE);
	hashx_ctx *i = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t a[HASHX_SIZE], b[HASHX_SIZE];
	hashx_type t;

	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(i);
	hashx_ctx_inject_faults(c, form);
	ck_assert_int_eq(hashx_make(c, "first", 5), HASHX_OK);
	ck_assert_int_eq(hashx_query_type(c, &t), HASHX_OK);
	ck_assert_int_eq(t, HASHX_TYPE_COMPILED);
	hashx_ctx_inject_faults(c, form | HASHX_FAULT_WRITABLE);
	ck_assert_int_eq(hashx_make(c, "second", 6), HASHX_OK);
	ck_assert_int_eq(hashx_query_type(c, &t), HASHX_OK);
	ck_assert_int_eq(t, HASHX_TYPE_INTERPRETED);
	ck_assert_int_eq(hashx_make(i, "second", 6), HASHX_OK);
	for (uint64_t n = 0; n < 16; n++) {
		hashx_exec(c, n, a);
		hashx_exec(i, n, b);
		ck_assert_mem_eq(a, b, HASHX_SIZE);
	}
	/* The system relents: compiled again. */
	hashx_ctx_inject_faults(c, form);
	ck_assert_int_eq(hashx_make(c, "third", 5), HASHX_OK);
	ck_assert_int_eq(hashx_query_type(c, &t), HASHX_OK);
	ck_assert_int_eq(t, HASHX_TYPE_COMPILED);
	hashx_free(c);
	hashx_free(i);
}
END_TEST

/* ---- differential: compiled against interpreted ------------------- */

#define DIFF_SEEDS 20000
#define DIFF_INPUTS 4

START_TEST(differential_random_seeds)
{
	hashx_ctx *c = hashx_alloc(HASHX_TYPE_COMPILED);
	hashx_ctx *i = hashx_alloc(HASHX_TYPE_INTERPRETED);
	const int seeds = tu_count(DIFF_SEEDS);
	unsigned char master[16];
	int made = 0;

	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(i);
	ck_assert_int_ge(sodium_init(), 0);
	/* Fresh seeds every run; the master seed is printed so a failure
	 * can be replayed. */
	randombytes_buf(master, sizeof master);
	char hex[33];
	tu_hex_encode(master, sizeof master, hex);
	printf("differential: %d seeds, master seed %s\n", seeds, hex);
	for (uint32_t s = 0; s < (uint32_t)seeds; s++) {
		unsigned char seed[32], nonce[8] = { 0 };
		uint64_t inputs[DIFF_INPUTS];
		hashx_result rc, ri;

		memcpy(nonce, &s, sizeof s);
		/* seed_s = 32 bytes of keyed BLAKE2b of s, a fresh but
		 * replayable stream; its length varies from 1 to 32. */
		crypto_generichash(seed, sizeof seed, nonce, sizeof nonce,
				   master, sizeof master);
		size_t len = 1 + seed[0] % 32;
		rc = hashx_make(c, seed, len);
		ri = hashx_make(i, seed, len);
		ck_assert_int_eq(rc, ri);
		if (rc != HASHX_OK)
			continue;
		made++;
		memcpy(inputs, seed, sizeof inputs);
		inputs[0] = 0;
		inputs[1] = UINT64_MAX;
		for (int k = 0; k < DIFF_INPUTS; k++) {
			uint8_t a[HASHX_SIZE], b[HASHX_SIZE];

			hashx_exec(c, inputs[k], a);
			hashx_exec(i, inputs[k], b);
			ck_assert_msg(memcmp(a, b, HASHX_SIZE) == 0,
				      "seed #%u (master %s) input %d differs",
				      (unsigned)s, hex, k);
		}
	}
	ck_assert_int_gt(made, seeds - 20);
	hashx_free(c);
	hashx_free(i);
}
END_TEST

/* ---- hand-made programs, one instruction form at a time ----------- */

static hashx_program prog;
static hashx_code_buffer buf;

static void clear(void)
{
	tu_program_clear(&prog);
}

static void emit(hashx_opcode op, int dst, int src, uint32_t imm)
{
	tu_program_emit(&prog, (int)op, dst, src, imm);
}

static const uint64_t edge_values[] = {
	0, 1, 2, UINT64_MAX, UINT64_MAX - 1, INT64_MAX, (uint64_t)INT64_MIN,
	0x00000000ffffffffu, 0xffffffff00000000u, 0x8000000000000001u,
	0x0123456789abcdefu, 0xfedcba9876543210u,
};
#define N_EDGE (sizeof edge_values / sizeof edge_values[0])

/* Compiles `prog` and runs it and the portable interpreter from several
 * register files built from edge values; all eight registers must agree. */
static void compare(const char *what)
{
	hashx_compiled_fn *fn = hashx_compile(&prog, &buf);

	ck_assert_msg(fn != NULL, "%s: compile failed", what);
	for (size_t v = 0; v < N_EDGE; v++) {
		uint64_t a[8], b[8];

		for (int r = 0; r < 8; r++)
			a[r] = edge_values[(v + 3 * (size_t)r) % N_EDGE];
		memcpy(b, a, sizeof b);
		fn(a);
		hashx_interpret_portable(&prog, b);
		for (int r = 0; r < 8; r++)
			ck_assert_msg(a[r] == b[r],
				      "%s, values %zu: r%d = %016llx, "
				      "interpreter %016llx", what, v, r,
				      (unsigned long long)a[r],
				      (unsigned long long)b[r]);
	}
}

START_TEST(form_ror_every_count)
{
	for (int dst = 0; dst < 8; dst++) {
		clear();
		for (uint32_t c = 1; c < 64; c++)
			emit(HASHX_OP_ROR_C, dst, 0, c);
		compare("ror");
		for (uint32_t c = 1; c < 64; c++) {
			clear();
			emit(HASHX_OP_ROR_C, dst, 0, c);
			compare("single ror");
		}
	}
}
END_TEST

START_TEST(form_imm_sign)
{
	static const uint32_t imms[] = { 1, 0x7fffffff, 0x80000000,
					 0xffffffff, 0x80000001, 0x12345678 };

	for (int dst = 0; dst < 8; dst++)
		for (size_t k = 0; k < 6; k++) {
			clear();
			emit(HASHX_OP_ADD_C, dst, 0, imms[k]);
			emit(HASHX_OP_XOR_C, (dst + 1) % 8, 0, imms[k]);
			compare("add/xor imm");
		}
}
END_TEST

/* Every ordered register pair, so each REX/ModRM combination (r12 and r13
 * among them) is encoded at least once. */
START_TEST(form_reg_reg_all_pairs)
{
	static const hashx_opcode ops[] = { HASHX_OP_UMULH_R, HASHX_OP_SMULH_R,
					    HASHX_OP_MUL_R, HASHX_OP_SUB_R,
					    HASHX_OP_XOR_R };

	for (size_t k = 0; k < 5; k++)
		for (int dst = 0; dst < 8; dst++)
			for (int src = 0; src < 8; src++) {
				int mulh = ops[k] <= HASHX_OP_SMULH_R;

				if (dst == src && !mulh)
					continue;
				clear();
				emit(ops[k], dst, src, 0);
				compare("reg-reg");
			}
}
END_TEST

/* LEA with every base, index and scale, including base r13 (HashX r5),
 * which needs a displacement byte, and index r12 (HashX r4). */
START_TEST(form_add_rs_all)
{
	for (int dst = 0; dst < 8; dst++)
		for (int src = 0; src < 8; src++)
			for (uint32_t shift = 0; shift < 4; shift++) {
				if (dst == src)
					continue;
				clear();
				emit(HASHX_OP_ADD_RS, dst, src, shift);
				compare("add_rs");
			}
}
END_TEST

/* Branches: taken once and only once, not taken, a branch right after
 * its target, a branch with no target before it, branches far enough
 * that the jump needs a 32-bit displacement. */
START_TEST(form_branches)
{
	clear();
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 1, 0, 3);
	emit(HASHX_OP_UMULH_R, 2, 3, 0);
	emit(HASHX_OP_BRANCH, 0, 0, 0x1u);
	emit(HASHX_OP_BRANCH, 0, 0, 0x2u);
	emit(HASHX_OP_ADD_C, 4, 0, 5);
	compare("two branches");

	clear();
	emit(HASHX_OP_ADD_C, 0, 0, 1);
	emit(HASHX_OP_ADD_C, 1, 0, 1);
	emit(HASHX_OP_BRANCH, 0, 0, 0xffffffffu);
	compare("branch before any target");

	clear();
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_BRANCH, 0, 0, 0x10u);
	emit(HASHX_OP_ADD_C, 6, 0, 9);
	compare("branch right after target");

	clear();
	emit(HASHX_OP_TARGET, 0, 0, 0);
	for (int k = 0; k < 60; k++)
		emit(HASHX_OP_ADD_C, k % 8, 0, (uint32_t)k + 1);
	emit(HASHX_OP_SMULH_R, 7, 6, 0);
	emit(HASHX_OP_BRANCH, 0, 0, 0x00010000u);
	compare("far branch");

	/* A mask of 0 passes any product: taken the first time only (the
	 * code once jumped back forever). */
	clear();
	emit(HASHX_OP_TARGET, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 1, 0, 3);
	emit(HASHX_OP_BRANCH, 0, 0, 0);
	emit(HASHX_OP_BRANCH, 0, 0, 0);
	compare("mask 0");

	clear();
	emit(HASHX_OP_BRANCH, 0, 0, 0);
	emit(HASHX_OP_ADD_C, 1, 0, 3);
	emit(HASHX_OP_BRANCH, 0, 0, 0);
	compare("mask 0, no target");
}
END_TEST

/* Generated programs, all 512 instructions, from many inputs. */
START_TEST(form_generated_programs)
{
	for (uint32_t s = 0; s < 200; s++) {
		hashx_keys keys;

		hashx_keys_from_seed(&s, sizeof s, &keys);
		if (!hashx_generate(&keys.program, NULL, NULL, &prog, NULL))
			continue;
		compare("generated");
	}
}
END_TEST

/* ---- W^X ----------------------------------------------------------- */

/*
 * Which mappings the scanner watches: all of them, or, under valgrind,
 * only the code buffers' ranges. Valgrind keeps its own translations in
 * mappings that are writable and executable, so there a whole-process
 * scan would only see valgrind. A context has two buffers (its function,
 * and the solver's scatter or batch form); the ranges may change while
 * the scanner runs, so they are atomics.
 */
#define WATCH_MAX 2
static atomic_uintptr_t watch_lo[WATCH_MAX], watch_hi[WATCH_MAX];
static atomic_int watch_count; /* 0: everything */

/* Watches buffer `b` as range `i` (under valgrind; buffer_states_are_wx
 * always). */
static void watch_buffer(int i, const hashx_code_buffer *b)
{
	atomic_store(&watch_lo[i], (uintptr_t)b->mem);
	atomic_store(&watch_hi[i], (uintptr_t)b->mem + b->size);
	if (atomic_load(&watch_count) <= i)
		atomic_store(&watch_count, i + 1);
}

static int watched(unsigned long lo, unsigned long hi)
{
	int n = atomic_load(&watch_count);

	if (n == 0)
		return 1;
	for (int i = 0; i < n; i++)
		if (lo < atomic_load(&watch_hi[i]) &&
		    hi > atomic_load(&watch_lo[i]))
			return 1;
	return 0;
}

/*
 * What a scan of /proc/self/maps can find (flags):
 * WX_ONE_MAPPING: a watched mapping writable and executable at once;
 * WX_ALIAS: a shared writable mapping and an executable one, either of
 * them watched, of the same pages of one object (same device and inode,
 * overlapping offsets): the code can be rewritten through the first while
 * it runs from the second. That is the aliased form of code_buffer.h
 * (both views of a shared anonymous object, "/dev/zero (deleted)").
 * Private writable mappings of a file (a library's data) are copies on
 * write and do not count;
 * WX_TOO_MANY: more mappings than the scan can pair up (it then fails
 * rather than passes).
 */
enum { WX_ONE_MAPPING = 1, WX_ALIAS = 2, WX_TOO_MANY = 4 };

/* Whether this build and system give code buffers two views (the aliased
 * form of code_buffer.h): x86-64 Linux configured --enable-code-alias, and
 * not under valgrind, which refuses the second view (the flipped form then
 * runs, as on a system that refuses it). */
static bool expect_aliased(void)
{
#if defined(HASHX_CODE_ALIAS) && defined(__x86_64__) && defined(__linux__)
	return !tu_valgrind();
#else
	return false;
#endif
}

/*
 * What this build promises (code_buffer.h), which the scans hold it to:
 * by default strict W^X, where no page is writable and executable at once
 * and no writable mapping of executable code exists (the flipped form);
 * with the alias (opt-in), only that no single mapping is both.
 */
static const char *wx_form_strict = "strict: no writable and executable "
				    "mapping, no writable alias of "
				    "executable code";
static const char *wx_form_aliased = "--enable-code-alias: no writable and "
				     "executable mapping; the rw-s alias of "
				     "the code is allowed";
static const char *wx_form(void)
{
	return expect_aliased() ? wx_form_aliased : wx_form_strict;
}

static int wx_forbidden(void)
{
	return expect_aliased() ? WX_ONE_MAPPING | WX_TOO_MANY
				: WX_ONE_MAPPING | WX_ALIAS | WX_TOO_MANY;
}

/* One line of /proc/self/maps. */
struct wx_map {
	unsigned long lo, hi, off, dev_major, dev_minor, inode;
	char perms[8];
};

#define WX_MAPS_MAX 1024

/* The first forbidden finding, for the failure message (written by whoever
 * sees it first, read once the scanner has stopped). */
static char wx_what[640];
static atomic_int wx_what_taken;

static void wx_note(int flag, const char *what, const struct wx_map *a,
		    const struct wx_map *b)
{
	char one[2][128] = { "", "" };

	if (!(flag & wx_forbidden()) || atomic_exchange(&wx_what_taken, 1))
		return;
	for (int k = 0; k < 2; k++) {
		const struct wx_map *m = k ? b : a;

		if (m != NULL)
			snprintf(one[k], sizeof one[k],
				 "%s%lx-%lx %s %08lx %02lx:%02lx %lu",
				 k ? " and " : ": ", m->lo, m->hi, m->perms,
				 m->off, m->dev_major, m->dev_minor, m->inode);
	}
	snprintf(wx_what, sizeof wx_what, "%s%s%s", what, one[0], one[1]);
}

static bool wx_same_pages(const struct wx_map *a, const struct wx_map *b)
{
	return a->dev_major == b->dev_major && a->dev_minor == b->dev_minor &&
	       a->inode == b->inode && a->off < b->off + (b->hi - b->lo) &&
	       b->off < a->off + (a->hi - a->lo);
}

/* Scans /proc/self/maps (reads it through, then pairs the mappings up):
 * the WX_* flags of what it found, -1 if it cannot be read. */
static int wx_scan(void)
{
	struct wx_map w[WX_MAPS_MAX], x[WX_MAPS_MAX];
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int nw = 0, nx = 0, found = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		struct wx_map m = { 0 };
		const char *perms = m.perms;

		if (sscanf(line, "%lx-%lx %7s %lx %lx:%lx %lu", &m.lo, &m.hi,
			   m.perms, &m.off, &m.dev_major, &m.dev_minor,
			   &m.inode) != 7)
			continue;
		if (perms[1] == 'w' && perms[2] == 'x' && watched(m.lo, m.hi)) {
			found |= WX_ONE_MAPPING;
			wx_note(WX_ONE_MAPPING, "writable and executable", &m,
				NULL);
		}
		if (m.inode == 0)
			continue; /* private anonymous memory: no alias */
		if (perms[1] == 'w' && perms[3] == 's') {
			if (nw == WX_MAPS_MAX)
				found |= WX_TOO_MANY;
			else
				w[nw++] = m;
		}
		if (perms[2] == 'x') {
			if (nx == WX_MAPS_MAX)
				found |= WX_TOO_MANY;
			else
				x[nx++] = m;
		}
	}
	fclose(f);
	for (int i = 0; i < nw; i++)
		for (int j = 0; j < nx; j++)
			if (wx_same_pages(&w[i], &x[j]) &&
			    (watched(w[i].lo, w[i].hi) ||
			     watched(x[j].lo, x[j].hi))) {
				found |= WX_ALIAS;
				wx_note(WX_ALIAS, "a writable alias of executable "
					"memory", &w[i], &x[j]);
			}
	if (found & WX_TOO_MANY)
		wx_note(WX_TOO_MANY, "too many mappings to pair up", NULL,
			NULL);
	return found;
}

/* 1 if the scan found what this build forbids, 0 if not, -1 if
 * /proc/self/maps cannot be read. */
static int wx_mapping_present(void)
{
	int found = wx_scan();

	return found < 0 ? -1 : (found & wx_forbidden()) != 0;
}

/* Fails the test if /proc/self/maps shows, now, what this build forbids. */
static void assert_no_wx(void)
{
	atomic_store(&wx_what_taken, 0);
	ck_assert_msg(wx_mapping_present() == 0, "W^X (%s) broken, %s",
		      wx_form(), wx_what);
}

static atomic_int scanning;
static atomic_int wx_seen;
static atomic_int scans;

static void *scanner(void *arg)
{
	(void)arg;
	while (atomic_load(&scanning)) {
		if (wx_mapping_present() == 1)
			atomic_store(&wx_seen, 1);
		atomic_fetch_add(&scans, 1);
	}
	return NULL;
}

/* Starts the scanner thread afresh (Check may run tests in one process). */
static void start_scanner(pthread_t *th)
{
	atomic_store(&scanning, 1);
	atomic_store(&wx_seen, 0);
	atomic_store(&scans, 0);
	atomic_store(&wx_what_taken, 0);
	ck_assert_int_eq(pthread_create(th, NULL, scanner, NULL), 0);
}

static void stop_scanner(pthread_t th)
{
	atomic_store(&scanning, 0);
	pthread_join(th, NULL);
}

/* The protection of the page holding `p`, from /proc/self/maps. */
static int perms_of(const void *p, char out[5])
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, out) == 3 &&
		    (unsigned long)p >= lo && (unsigned long)p < hi)
			found = 1;
	}
	fclose(f);
	return found;
}

/* The page holding `p` has protection `want` ("r-x", "rw-"), in a private
 * mapping (flipped buffer) or a shared one (aliased). */
static void assert_perms(const void *p, const char *want)
{
	char perms[5];

	ck_assert_msg(perms_of(p, perms), "%p is not mapped", p);
	ck_assert_msg(strncmp(perms, want, 3) == 0, "%p is %s, not %s", p,
		      perms, want);
}

START_TEST(never_writable_and_executable)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	pthread_t th;
	int compiles = 0;

	ck_assert_ptr_nonnull(ctx);
	if (tu_valgrind()) {
		/* the buffer is mapped by the first compile, then reused */
		ck_assert_int_eq(hashx_make(ctx, "first", 5), HASHX_OK);
		watch_buffer(0, &ctx->code);
		printf("W^X: under valgrind, only the code buffer is "
		       "watched\n");
	}
	assert_no_wx();
	start_scanner(&th);
	/* Compile until the scanner has looked many times. */
	for (uint32_t s = 0;
	     compiles < tu_count(3000) || atomic_load(&scans) < 200; s++) {
		if (hashx_make(ctx, &s, sizeof s) == HASHX_OK)
			compiles++;
		/* Valgrind runs one thread at a time and hands over mostly
		 * at system calls: without this the scanner can starve. */
		if (tu_valgrind())
			sched_yield();
		ck_assert_msg(s < 1000000, "scanner made no progress");
	}
	stop_scanner(th);
	ck_assert_msg(!atomic_load(&wx_seen), "W^X (%s) broken, %s", wx_form(),
		      wx_what);
	/* The live code is read-execute, and the buffer is reused. */
	const void *code = ctx->code.mem;
	assert_perms(code, "r-x");
	ck_assert_int_eq(hashx_make(ctx, "again", 5), HASHX_OK);
	ck_assert_ptr_eq(ctx->code.mem, code);
	assert_no_wx();
	printf("W^X (%s): %d compiles, %d scans of /proc/self/maps\n",
	       wx_form(), compiles, atomic_load(&scans));
	hashx_free(ctx);
}
END_TEST

/*
 * The same watch while the Equi-X solver runs, on each implementation:
 * what equix_solve() does (hashx_make(), then the solver, which compiles
 * the function's scatter form (scalar JIT) or batch form (AVX-512; the
 * fused batch form for AVX2) into the context's second buffer and runs
 * it 65,536 inputs at a time),
 * for many challenges, while the scanner thread reads /proc/self/maps.
 */

/* One solve of challenge `s`; false when it has no HashX function. */
static bool solve_challenge(hashx_ctx *ctx, equix_solver_heap *heap,
			    uint32_t s)
{
	uint8_t challenge[12] = "solver wx";
	equix_solution sols[EQUIX_MAX_SOLS];

	/* Equi-X v1's hash (hash_family.h) around this very context, so the
	 * solver runs on the implementation the test chose */
	equix_hash hash = { .x = ctx };

	memcpy(challenge + 8, &s, sizeof s);
	if (hashx_make(ctx, challenge, sizeof challenge) != HASHX_OK)
		return false;
	ck_assert_uint_le(equix_solver_solve(&hash, heap, sols),
			  EQUIX_MAX_SOLS);
	return true;
}

/* Both buffers hold live code, read-execute: the solver ran compiled, on
 * `impl`'s own code (a batch form for the vector implementations: the
 * fused one where the back-end has it), not a fallback that would leave
 * the path unwatched. */
static void assert_solver_code(const hashx_ctx *ctx, hashx_impl impl)
{
	if (hashx_impl_scatters(impl))
		ck_assert_msg(ctx->stage0.held == HASHX_STAGE0_FUSED,
			      "%s: no fused batch form", hashx_impl_name(impl));
	else if (hashx_impl_batches(impl))
		ck_assert_msg(ctx->stage0.held == HASHX_STAGE0_BATCH,
			      "%s: no batch form", hashx_impl_name(impl));
	ck_assert_ptr_nonnull(ctx->stage0.code.mem);
	ck_assert(ctx->stage0.code.executable);
	assert_perms(ctx->code.mem, "r-x");
	assert_perms(ctx->stage0.code.mem, "r-x");
}

/* Valgrind runs one thread at a time, and there the scanner could starve
 * behind the solver for thousands of solves: after each one, it waits
 * (yielding) for the scanner's next scan. */
static void let_scanner_run(void)
{
	int seen = atomic_load(&scans);

	if (!tu_valgrind())
		return;
	for (int k = 0; k < 1000000 && atomic_load(&scans) == seen; k++)
		sched_yield();
}

/* Under valgrind, watches the context's two buffers only. */
static void watch_solver(const hashx_ctx *ctx)
{
	if (!tu_valgrind())
		return;
	watch_buffer(0, &ctx->code);
	watch_buffer(1, &ctx->stage0.code);
}

START_TEST(solver_never_writable_and_executable)
{
	hashx_impl impl = (hashx_impl)_i;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	equix_solver_memory mem;
	pthread_t th;
	int solves = 0;

	ck_assert_ptr_nonnull(ctx);
	ck_assert(hashx_ctx_set_impl(ctx, impl));
	ck_assert(equix_solver_memory_alloc(&mem, false));
	/* the first solve maps both buffers (for valgrind's watch) */
	ck_assert(solve_challenge(ctx, mem.heap, 0));
	assert_solver_code(ctx, impl);
	watch_solver(ctx);
	assert_no_wx();
	start_scanner(&th);
	for (uint32_t s = 1; solves < tu_count(40) ||
			     atomic_load(&scans) < tu_count(200);
	     s++) {
		watch_solver(ctx); /* a buffer may have moved */
		if (solve_challenge(ctx, mem.heap, s))
			solves++;
		let_scanner_run();
		ck_assert_msg(s < 100000, "scanner made no progress");
	}
	stop_scanner(th);
	ck_assert_msg(!atomic_load(&wx_seen), "%s solver: W^X (%s) broken, %s",
		      hashx_impl_name(impl), wx_form(), wx_what);
	assert_solver_code(ctx, impl);
	assert_no_wx();
	printf("W^X (%s; solver, %s): %d solves, %d scans of /proc/self/"
	       "maps%s\n",
	       wx_form(), hashx_impl_name(impl), solves, atomic_load(&scans),
	       tu_valgrind() ? " (its code buffers only)" : "");
	atomic_store(&watch_count, 0);
	equix_solver_memory_free(&mem);
	hashx_free(ctx);
}
END_TEST

/* Registers the solver's watch for each implementation that compiles
 * (impl.h's list) and this machine runs; SKIP for the others. */
static void add_solver_wx(TCase *wx)
{
	for (int k = 0; k < HASHX_IMPL_COUNT; k++) {
		const char *name = hashx_impl_name((hashx_impl)k);

		if (!hashx_impl_uses_jit((hashx_impl)k))
			continue;
		if (!hashx_impl_available((hashx_impl)k))
			printf("SKIP: solver_never_writable_and_executable(%s) "
			       "(not available on this CPU or build)\n", name);
		else if (tu_emulated())
			printf("SKIP: solver_never_writable_and_executable(%s) "
			       "(threads do not start under the emulator)\n",
			       name);
		else
			tcase_add_loop_test(
				wx, solver_never_writable_and_executable, k,
				k + 1);
	}
}

/* Each form's protections, step by step: writable where written,
 * read-execute where run, and never both at one address. `_i` 0: the
 * form the system gives; 1: the flipped form (the alias refused). */
START_TEST(buffer_states_are_wx)
{
	hashx_code_buffer b = { .faults = _i ? HASHX_FAULT_ALIAS : 0 };
	bool aliased = _i == 0 && expect_aliased();

	for (int round = 0; round < 2; round++) {
		ck_assert(hashx_code_buffer_writable(&b, 10000));
		ck_assert_int_eq(b.aliased, aliased);
		assert_perms(b.write, "rw-");
		assert_perms(b.write + b.size - 1, "rw-");
		b.write[0] = 0xc3; /* ret */
		b.write[b.size - 1] = (uint8_t)round;
		ck_assert(hashx_code_buffer_executable(&b));
		assert_perms(b.mem, "r-x");
		assert_perms(b.mem + b.size - 1, "r-x");
		/* what was written is what runs */
		ck_assert_int_eq(b.mem[0], 0xc3);
		ck_assert_int_eq(b.mem[b.size - 1], round);
		/* and nothing this build forbids maps this buffer's pages:
		 * watched alone, since valgrind's translation cache and, it
		 * may be, an emulator's are writable and executable (the
		 * cases below scan the whole process where they run) */
		watch_buffer(0, &(hashx_code_buffer){ .mem = b.write,
						      .size = b.size });
		watch_buffer(1, &b);
		assert_no_wx();
		if (aliased) {
			ck_assert_ptr_ne(b.write, b.mem);
			assert_perms(b.write, "rw-");
		} else {
			ck_assert_ptr_eq(b.write, b.mem);
		}
	}
	atomic_store(&watch_count, 0);
	hashx_code_buffer_release(&b);
	ck_assert_ptr_null(b.mem);
	ck_assert_ptr_null(b.write);
	if (_i == 0 && !aliased)
		printf("SKIP: buffer_states_are_wx (aliased form): not "
		       "configured --enable-code-alias, not x86-64 Linux, or "
		       "under valgrind\n");
}
END_TEST

/* The code of a prepared context, after fork(), in each process that
 * keeps making new functions: each process's hashes stay its own. With
 * aliased buffers the pages are shared with the child, so a compile in
 * one process must not write into code the other runs. */
static bool hashes_match(const hashx_ctx *ctx, const char *seed)
{
	hashx_ctx *ref = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t a[HASHX_SIZE], b[HASHX_SIZE];
	bool same = ref != NULL &&
		    hashx_make(ref, seed, strlen(seed)) == HASHX_OK;

	for (uint64_t n = 0; same && n < 64; n++) {
		hashx_exec(ctx, n, a);
		hashx_exec(ref, n, b);
		same = memcmp(a, b, sizeof a) == 0;
	}
	hashx_free(ref);
	return same;
}

START_TEST(fork_keeps_each_process_code)
{
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	int go[2], done[2], status;
	char byte = 0;
	pid_t pid;

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(hashx_make(ctx, "before fork", 11), HASHX_OK);
	ck_assert(hashes_match(ctx, "before fork"));
	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(done), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* after the parent has compiled another function: still the
		 * old one here; then a new one of the child's own */
		bool ok = read(go[0], &byte, 1) == 1 &&
			  hashes_match(ctx, "before fork") &&
			  hashx_make(ctx, "child", 5) == HASHX_OK &&
			  hashes_match(ctx, "child");

		_exit(write(done[1], &byte, 1) == 1 && ok ? 0 : 1);
	}
	/* a child that dies closes its end: the read below then ends */
	close(go[0]);
	close(done[1]);
	ck_assert_int_eq(hashx_make(ctx, "parent", 6), HASHX_OK);
	ck_assert_int_eq(write(go[1], &byte, 1), 1);
	read(done[0], &byte, 1);
	close(go[1]);
	close(done[0]);
	/* the child's compile left the parent's function alone */
	ck_assert(hashes_match(ctx, "parent"));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	hashx_free(ctx);
}
END_TEST

int main(void)
{
	if (!HASHX_HAVE_COMPILER) {
		printf("SKIP: this build has no HashX compiler for its CPU; "
		       "the interpreter paths are tested elsewhere\n");
		return 77;
	}
	tu_skip_unless_reference_salt("test_compiler");

	Suite *s = suite_create("compiler");
	TCase *vec = tcase_create("vectors");
	TCase *diff = tcase_create("differential");
	TCase *forms = tcase_create("forms");
	TCase *wx = tcase_create("wx");
	int nfaults = (int)(sizeof all_faults / sizeof all_faults[0]);

	tcase_set_timeout(vec, 120);
	tcase_set_timeout(diff, 120);
	tcase_set_timeout(wx, 120);
	/* never_writable_and_executable starts a thread: tagged, so a
	 * ThreadSanitizer run picks this case (CK_INCLUDE_TAGS=threads;
	 * scripts/test.sh --tsan) */
	tcase_set_tags(wx, "threads");
	tcase_add_test(vec, vectors_compiled);
	tcase_add_test(vec, vectors_try_compile);
	tcase_add_loop_test(vec, vectors_try_compile_refused, 0, nfaults);
	tcase_add_loop_test(vec, compiled_refused_fails, 0, nfaults);
	tcase_add_test(vec, vectors_compiled_flipped);
	tcase_add_loop_test(vec, refusal_after_success, 0, 2);
	/* the rule it guards is the aliased form's (--enable-code-alias on
	 * x86-64, which valgrind refuses anyway; elsewhere it checks the
	 * flipped form's private pages); under qemu-user (Debian 12) a compile in the
	 * parent after fork() spins in the emulator */
	if (!tu_slow_runner())
		tcase_add_test(vec, fork_keeps_each_process_code);
	else
		printf("SKIP: fork_keeps_each_process_code (a compile after "
		       "fork() hangs the emulator; valgrind fails the child "
		       "for the context it leaves to the parent)\n");
	tcase_add_test(diff, differential_random_seeds);
	tcase_add_test(forms, form_ror_every_count);
	tcase_add_test(forms, form_imm_sign);
	tcase_add_test(forms, form_reg_reg_all_pairs);
	tcase_add_test(forms, form_add_rs_all);
	tcase_add_test(forms, form_branches);
	tcase_add_test(forms, form_generated_programs);
	/* the scatter form against the interpreter: tests/test_batch.c
	 * (scatter_every_impl, every implementation) */
	if (wx_mapping_present() >= 0) {
		tcase_add_loop_test(wx, buffer_states_are_wx, 0, 2);
		/* its scanner thread: qemu-user (Debian 12) hangs in
		 * pthread_create */
		if (!tu_emulated())
			tcase_add_test(wx, never_writable_and_executable);
		else
			printf("SKIP: never_writable_and_executable (threads do "
			       "not start under the emulator)\n");
		add_solver_wx(wx);
	} else {
		printf("SKIP: buffer_states_are_wx (/proc/self/maps is not "
		       "readable here)\n");
		printf("SKIP: never_writable_and_executable (/proc/self/maps is "
		       "not readable here)\n");
		printf("SKIP: solver_never_writable_and_executable (/proc/self/"
		       "maps is not readable here)\n");
	}
	suite_add_tcase(s, vec);
	suite_add_tcase(s, diff);
	suite_add_tcase(s, forms);
	suite_add_tcase(s, wx);
	return tu_run_suite(s);
}

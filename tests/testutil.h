/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * testutil.h - small helpers shared by the unit tests.
 */
#ifndef EQUIX_TESTUTIL_H
#define EQUIX_TESTUTIL_H

#include <check.h>
#include <hashx.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Every passing Check assertion records its place (check.h's ck_assert_msg
 * calls _mark_point, one write(2) to Check's message file, read back after
 * the test). Here it goes through tu_mark_point, which passes it on,
 * except under valgrind (make check-valgrind): there Check runs the tests
 * in-process (CK_FORK=no), where the place is never used (a failed
 * assertion reports its own; a crash ends the program, and valgrind shows
 * where), and the records cost more than the tests themselves: 19 of
 * test_report_html's 20 seconds, its per-character assertions. */
void tu_mark_point(const char *file, int line);
#define _mark_point(file, line) tu_mark_point(file, line)

/* The vector files' reader is the tools' (tools/common/vectors.c, in
 * libtools, linked with the test utilities), so the tests, equix-bench
 * and equix-count read the files alike. */
#include "vectors.h"

/* Decodes lowercase or uppercase hex ("-" is the empty string) into `out`
 * (at most `cap` bytes), with libsodium's sodium_hex2bin
 * (bench_hex_decode). Returns the length, or -1 on malformed input. */
long tu_hex_decode(const char *hex, uint8_t *out, size_t cap);

/* Encodes `len` bytes as lowercase hex into `out` (2 * len + 1 bytes). */
void tu_hex_encode(const uint8_t *in, size_t len, char *out);

/* Opens tests/vectors/NAME, honouring $VECTOR_DIR (set by the test
 * harness, so out-of-tree builds find the source tree's copy). */
FILE *tu_open_vector(const char *name);

/* One line of a HashX vector file ("hashx SEED STATUS NONCE:HASH ..."):
 * seed and seed_len, ok (1: status "ok", 0: "fail-seed"), and the pairs
 * nonce[i]:hash[i] on the line. */
typedef bench_hashx_vec tu_hashx_vector;

/* Decodes one line of a HashX vector file (modified in place) into *V
 * (bench_hashx_vec_parse). Returns 0, or -1 when the line is malformed. */
int tu_hashx_vector_parse(char *line, tu_hashx_vector *v);

/* Finds the line of vector file NAME whose seed is SEED_HEX ("-" for the
 * empty seed) and decodes it into *V. Returns 0, or -1 when the file
 * cannot be read, no line has that seed, or the line is malformed. */
int tu_hashx_vector_find(const char *name, const char *seed_hex,
			 tu_hashx_vector *v);

/* Calls fn(v, user) for every line of HashX vector file NAME, decoded
 * (a malformed line or an unreadable file fails the current test).
 * Returns the number of lines. */
int tu_hashx_vector_each(const char *name,
			 void (*fn)(const tu_hashx_vector *v, void *user),
			 void *user);

/* The reference vectors hold for the default salt only. A build configured
 * with another --with-hashx-salt skips the calling test program (exit 77,
 * counted as skipped by the harness) with a message saying why. */
void tu_skip_unless_reference_salt(const char *program);

/* Whether this build uses the reference salt "HashX v1". */
int tu_is_reference_salt(void);

/* Runs every line of a HashX vector file through `ctx` (hashx_make, then
 * hashx_exec on each nonce, all HASHX_SIZE bytes compared), failing the
 * current test on the first mismatch. With want_type non-zero, each made
 * function must also report that type. Under valgrind the lines of the
 * sample only (tu_vector_line_runs). Returns the number of lines;
 * *fail_seeds counts the "fail-seed" lines run. */
int tu_check_hashx_vectors(hashx_ctx *ctx, const char *name,
			   hashx_type want_type, int *fail_seeds);

/* Hand-made programs for the instruction-level tests: empties `p`, and
 * appends one instruction (unused fields zero). */
struct hashx_program;
void tu_program_clear(struct hashx_program *p);
void tu_program_emit(struct hashx_program *p, int opcode, int dst, int src,
		     uint32_t imm);

/* Whether the tests run under an emulator (a cross build's make check sets
 * EQUIX_TEST_EMULATED): there, Debian 12's qemu-user hangs in
 * pthread_create, so tests that need threads are reported as skipped. */
int tu_emulated(void);

/* Whether the tests run under valgrind (make check-valgrind sets
 * EQUIX_TEST_VALGRIND): its allocator and shadow memory make the process's
 * RSS meaningless for the tests that bound it. */
int tu_valgrind(void);

/* Either of the two: the longest tests run a scaled-down version. */
int tu_slow_runner(void);

/* ---- The valgrind sample ------------------------------------------------
 * Under valgrind (make check-valgrind; the rule and why are stated above
 * check-valgrind in tests/Makefile.am) a loop over many like items runs a
 * fixed sample of them: item 0 and every TU_VALGRIND_STRIDE-th after it,
 * the same items every run, so that a failure there is reproducible.
 * Every other run takes them all. A loop that samples says what it ran
 * with tu_sample_note; a part left out whole says why with
 * tu_valgrind_skip. */
#define TU_VALGRIND_STRIDE 20

/* Whether item `i` (from 0) of a sampled loop runs. */
int tu_sampled(long i);

/* Whether line `line` (from 0) of vector file `name` runs: every line of
 * the named vectors (hashx-named.txt, equix-named.txt: each a case chosen
 * for what it shows), the sample of the random ones (hashx.txt,
 * equix.txt: random seeds and challenges through the same code). */
int tu_vector_line_runs(const char *name, long line);

/* A randomized test's count of iterations: `n`, or under valgrind
 * n / TU_VALGRIND_STRIDE rounded up (at least 1), whose JIT-heavy runs
 * are 50 to 100 times slower; the memory checks need paths, not volume.
 * The first such count under valgrind is noted in the log. */
int tu_count(int n);

/* Under valgrind, when a sampled loop ran fewer than all of its items,
 * prints "SAMPLE: TEST: WHAT: RAN of TOTAL ..." (scripts/test.sh shows
 * these lines); nothing otherwise. From a running Check test only. */
void tu_sample_note(const char *what, long ran, long total);

/* Prints "SKIP: WHAT under valgrind (WHY)": a part of a test that only
 * repeats, at great cost there, what the run's other parts cover. */
void tu_valgrind_skip(const char *what, const char *why);

/* Whether a sampled loop ran all `all` of its items (`ran` of them): a
 * bound that only volume makes true (something was ever seen, a
 * coverage rate) is asserted only then; otherwise this prints
 * "SKIP: BOUND under valgrind (it needs all ALL)" and returns 0. */
int tu_all_ran(long ran, long all, const char *bound);

/* Runs a suite with Check's usual report; returns the exit status. */
int tu_run_suite(Suite *s);

#endif

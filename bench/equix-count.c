/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * equix-count - the operations whose instructions `make
 * bench-instructions` counts (bench/instructions.sh runs this program
 * under callgrind, once per HashX implementation).
 *
 * Time on a shared virtual machine drifts by up to 10% between runs
 * (doc/performance.md), so a 2% regression cannot be seen in equix-bench's
 * figures; the number of instructions one operation executes can, since
 * for one binary it is the same on every run. Each figure is one region:
 * callgrind's counters are zeroed, collection is switched on for a loop
 * of ITERS operations and off again, and the counts are dumped under the
 * name "count FIGURE ITERS"; the script divides. Everything else (reading
 * the vectors, allocating and making contexts, the checks) runs with
 * collection off and is not counted.
 *
 * A wrong path must not give a "fast" count: every operation counted is
 * one whose result is recorded in tests/vectors/ (the seeds' hashes, the
 * challenges' solutions), and the results of the counted loop itself are
 * compared with the records after it. Any difference, or any failure, is
 * reported and ends the program with status 1, before the figure's dump,
 * so the script finds a figure missing and fails.
 *
 * Which vectors each figure runs on, its context's type or flags, and how
 * outputs are compared with the records are the benchmarks' own
 * (benchmarks.h, in bench/libbench.la): only the counted loops and the
 * numbers of operations are this program's.
 *
 * Outside valgrind the client requests do nothing: the program then runs
 * its checks only (tests/count.sh).
 */
#include <config.h>

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

#include <equix.h>
#include <hashwx.h>
#include <hashx.h>

#include "dispatch.h"
#include "impl_list.h"
#include "benchmarks.h"
#include "option_table.h"
#include "say.h"
#include "vectors.h"

/* For the baseline's header: GCC's __VERSION__ is the bare number. */
#if defined(__clang__)
#define COMPILER_NAME ""
#elif defined(__GNUC__)
#define COMPILER_NAME "gcc "
#else
#define COMPILER_NAME ""
#endif

/* The vectors were recorded with the reference salt. */
#define REFERENCE_SALT "HashX v1"

/*
 * Operations per figure. Counts are exact, so the iterations only choose
 * how many programs the average covers (each HashX program has its own
 * mix of instructions and taken branches): enough seeds that one
 * unusual program moves a figure little, few enough that the three
 * callgrind runs take seconds each. One solve is 65,536 hashes and the
 * pairing of their buckets, tens of millions of instructions.
 */
#define GENERATE_SEEDS 64
#define HASH_SEEDS 64 /* each with its recorded inputs (4 in hashx.txt) */
#define VERIFY_SOLUTIONS 32
#define SOLVE_CHALLENGES 1
/* HashWX (issue 46): seeds made, and seeds whose recorded inputs (6 a
 * line in hashwx-v2.txt) are hashed. */
#define HASHWX_SEEDS 64

static const char *progname = "equix-count";

/* One line on stderr, prefixed with the program's name. */
static void say(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	tools_vsay(progname, format, ap);
	va_end(ap);
}

/* ---- Regions ----------------------------------------------------- */

/*
 * Collection is off at start (callgrind runs with --collect-atstart=no).
 * Zeroing drops whatever was collected since the last dump: callgrind's
 * --toggle-collect of libsodium's BLAKE2b (instructions.sh says why)
 * switches collection on inside every call made outside a region. For
 * the same reason the counts are dumped as soon as the region ends,
 * before the checks, which make functions again: their BLAKE2b calls
 * would be counted. The dump's name carries the figure and its
 * iterations.
 */
static void region_begin(void)
{
	CALLGRIND_ZERO_STATS;
	CALLGRIND_TOGGLE_COLLECT;
}

static void region_end(const char *figure, unsigned iters)
{
	char desc[96];

	CALLGRIND_TOGGLE_COLLECT;
	snprintf(desc, sizeof desc, "count %s %u", figure, iters);
	CALLGRIND_DUMP_STATS_AT(desc);
}

/* Once a region's results have been checked: the script takes a dump
 * only with this line. */
static void region_checked(const char *figure, unsigned iters)
{
	printf("%s %u checked\n", figure, iters);
}

/* ---- HashX --------------------------------------------------------- */

/* Hex of a seed, for messages (at most 12 bytes of it). */
static const char *seed_hex(const bench_hashx_vec *x, char buf[32])
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < x->seed_len && i < 12; i++)
		o += (size_t)snprintf(buf + o, 32 - o, "%02x", x->seed[i]);
	if (x->seed_len == 0)
		snprintf(buf, 32, "-");
	return buf;
}

/* The first `want` seeds with recorded hashes (bench_seeds); false when
 * there are fewer. */
static bool pick_seeds(const bench_vectors *v, const bench_hashx_vec **out,
		       size_t want)
{
	size_t n = bench_seeds(v, true, out, want);

	if (n < want)
		say("the vectors hold %zu seeds with recorded hashes, %zu "
		    "needed",
		    n, want);
	return n == want;
}

/* The made function of `ctx` is of `type` and gives x's recorded
 * hashes. */
static bool check_function(hashx_ctx *ctx, hashx_type type,
			   const bench_hashx_vec *x, const char *figure)
{
	uint8_t out[32];
	char hex[32];
	int d = bench_function_diff(&bench_library_ours, ctx, type, x, out);

	if (d == BENCH_DIFF_TYPE)
		say("%s: seed %s: the function is not of the type counted",
		    figure, seed_hex(x, hex));
	else if (d != BENCH_DIFF_NONE)
		say("%s: seed %s, input %llx: the hash differs from the "
		    "recorded one",
		    figure, seed_hex(x, hex), (unsigned long long)x->nonce[d]);
	return d == BENCH_DIFF_NONE;
}

/* generate/: one hashx_make per seed (for a compiled context, the
 * compilation included). The region's makes are run first with
 * collection off, so the counted ones are not the first calls (no
 * first-touch work is counted); each function made in the region is then
 * checked. */
static bool count_generate(const bench_vectors *v, int type,
			   const char *figure)
{
	const bench_hashx_vec *seeds[GENERATE_SEEDS];
	hashx_result r[GENERATE_SEEDS];
	hashx_ctx *ctx = hashx_alloc(type);
	bool ok = ctx != NULL && pick_seeds(v, seeds, GENERATE_SEEDS);

	if (ctx == NULL)
		say("%s: hashx_alloc failed", figure);
	for (size_t i = 0; ok && i < GENERATE_SEEDS; i++)
		hashx_make(ctx, seeds[i]->seed, seeds[i]->seed_len);
	if (ok) {
		region_begin();
		for (size_t i = 0; i < GENERATE_SEEDS; i++)
			r[i] = hashx_make(ctx, seeds[i]->seed,
					  seeds[i]->seed_len);
		region_end(figure, GENERATE_SEEDS);
	}
	/* Only the last function survives in the context, checked as the
	 * counted loop left it; the results say the others were made, and
	 * each seed is made again, uncounted, to check its function (the
	 * generator is deterministic: the same program as counted). */
	if (ok && r[GENERATE_SEEDS - 1] == HASHX_OK)
		ok = check_function(ctx, type, seeds[GENERATE_SEEDS - 1],
				    figure);
	for (size_t i = 0; ok && i < GENERATE_SEEDS; i++) {
		char hex[32];

		if (r[i] != HASHX_OK) {
			say("%s: seed %s: hashx_make gave %d in the counted "
			    "loop",
			    figure, seed_hex(seeds[i], hex), (int)r[i]);
			ok = false;
		} else if (hashx_make(ctx, seeds[i]->seed,
				      seeds[i]->seed_len) != HASHX_OK ||
			   !check_function(ctx, type, seeds[i], figure))
			ok = false;
	}
	if (ok)
		region_checked(figure, GENERATE_SEEDS);
	hashx_free(ctx);
	return ok;
}

/* hash/: every recorded input of HASH_SEEDS functions, each made in its
 * own context beforehand; the hashes are compared with the records after
 * the region. */
static bool count_hash(const bench_vectors *v, int type, const char *figure)
{
	const bench_hashx_vec *seeds[HASH_SEEDS];
	hashx_ctx *ctx[HASH_SEEDS] = {NULL};
	static uint8_t out[HASH_SEEDS][BENCH_VEC_PAIRS][32];
	unsigned iters = 0;
	bool ok = pick_seeds(v, seeds, HASH_SEEDS);

	for (size_t i = 0; ok && i < HASH_SEEDS; i++) {
		iters += (unsigned)seeds[i]->pairs;
		ctx[i] = hashx_alloc(type);
		if (ctx[i] == NULL) {
			say("%s: hashx_alloc failed", figure);
			ok = false;
		} else if (hashx_make(ctx[i], seeds[i]->seed,
				      seeds[i]->seed_len) != HASHX_OK ||
			   !check_function(ctx[i], type, seeds[i], figure)) {
			/* check_function said why, unless the make
			 * failed. */
			ok = false;
		}
	}
	if (ok) {
		region_begin();
		for (size_t i = 0; i < HASH_SEEDS; i++) {
			const bench_hashx_vec *x = seeds[i];

			for (int k = 0; k < x->pairs; k++)
				hashx_exec(ctx[i], x->nonce[k], out[i][k]);
		}
		region_end(figure, iters);
	}
	for (size_t i = 0; ok && i < HASH_SEEDS; i++)
		for (int k = 0; ok && k < seeds[i]->pairs; k++)
			if (!bench_hash_matches(&bench_library_ours, seeds[i],
						k, out[i][k])) {
				char hex[32];

				say("%s: seed %s, input %llx: the counted "
				    "hash differs from the recorded one",
				    figure, seed_hex(seeds[i], hex),
				    (unsigned long long)seeds[i]->nonce[k]);
				ok = false;
			}
	if (ok)
		region_checked(figure, iters);
	for (size_t i = 0; i < HASH_SEEDS; i++)
		hashx_free(ctx[i]);
	return ok;
}

/* ---- Equi-X -------------------------------------------------------- */

/* verify/: the first VERIFY_SOLUTIONS recorded solutions, each verified
 * once in the region (which makes its challenge's HashX function, as a
 * service does for every request); all must be accepted, and a tampered
 * one, outside the region, refused. */
static bool count_verify(const bench_vectors *v, int flags,
			 const char *figure)
{
	bench_equix_pair p[VERIFY_SOLUTIONS];
	equix_result r[VERIFY_SOLUTIONS];
	equix_ctx *ctx = equix_alloc(flags);
	size_t n = bench_solutions(v, p, VERIFY_SOLUTIONS);
	bool ok = ctx != NULL;

	if (ctx == NULL)
		say("%s: equix_alloc failed", figure);
	if (ok && n < VERIFY_SOLUTIONS) {
		say("%s: the vectors hold %zu solutions, %d needed", figure,
		    n, VERIFY_SOLUTIONS);
		ok = false;
	}
	/* Uncounted first calls, as for generate/. */
	for (size_t i = 0; ok && i < n; i++)
		equix_verify(ctx, p[i].vec->challenge, p[i].vec->len, p[i].sol);
	if (ok) {
		region_begin();
		for (size_t i = 0; i < VERIFY_SOLUTIONS; i++)
			r[i] = equix_verify(ctx, p[i].vec->challenge,
					    p[i].vec->len, p[i].sol);
		region_end(figure, VERIFY_SOLUTIONS);
	}
	for (size_t i = 0; ok && i < VERIFY_SOLUTIONS; i++)
		if (r[i] != EQUIX_OK) {
			say("%s: recorded solution %zu gave %d, expected "
			    "EQUIX_OK",
			    figure, i, (int)r[i]);
			ok = false;
		}
	if (ok && !bench_tampered_refused(&bench_library_ours, ctx, &p[0])) {
		say("%s: a tampered solution was accepted", figure);
		ok = false;
	}
	if (ok)
		region_checked(figure, VERIFY_SOLUTIONS);
	equix_free(ctx);
	return ok;
}

/* solve/compiled: the challenge of the first recorded solution, solved
 * once (a warm-up solve would double the slowest part of the run; the
 * solver's memory is allocated by equix_alloc, outside the region); the
 * same solutions in the same order as recorded. */
static bool count_solve(const bench_vectors *v, int flags, const char *figure)
{
	const bench_equix_vec *x = NULL;
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | flags);
	equix_solutions_buffer b;
	bench_equix_pair first;
	equix_result r;

	if (ctx == NULL) {
		say("%s: equix_alloc failed (no HashX compiler in this "
		    "build?)",
		    figure);
		return false;
	}
	if (bench_solutions(v, &first, 1) == 1)
		x = first.vec;
	if (x == NULL) {
		say("%s: no challenge with solutions among the vectors",
		    figure);
		equix_free(ctx);
		return false;
	}
	region_begin();
	r = equix_solve(ctx, x->challenge, x->len, &b);
	region_end(figure, SOLVE_CHALLENGES);
	equix_free(ctx);
	if (!bench_solve_matches(x, r, &b)) {
		say("%s: the solutions differ from the recorded ones "
		    "(result %d, %u found, %u recorded)",
		    figure, (int)r, r == EQUIX_OK ? b.count : 0, x->count);
		return false;
	}
	region_checked(figure, SOLVE_CHALLENGES);
	return true;
}

/* ---- HashWX and Equi-X v2 ------------------------------------------ */

/* The first HASHWX_SEEDS lines of hashwx-v2.txt; false (said) when there
 * are fewer. */
static bool enough_hashwx(const bench_vectors *v, const char *figure)
{
	if (v->n_hashwx >= HASHWX_SEEDS)
		return true;
	say("%s: the vectors hold %zu HashWX seeds, %d needed", figure,
	    v->n_hashwx, HASHWX_SEEDS);
	return false;
}

/* The function made in `ctx` gives x's recorded hashes. */
static bool check_hashwx(const hashwx_ctx *ctx, const bench_hashwx_vec *x,
			 const char *figure, size_t i)
{
	for (int k = 0; k < x->pairs; k++)
		if (hashwx_exec(ctx, x->nonce[k]) != x->hash[k]) {
			say("%s: seed %zu, input %llx: the hash differs from "
			    "the recorded one",
			    figure, i, (unsigned long long)x->nonce[k]);
			return false;
		}
	return true;
}

/* hashwx-generate/: one hashwx_make per seed, as generate/ (warm-up
 * makes uncounted; hashwx_make returns nothing, so each seed is made
 * again after the region and its function checked). */
static bool count_hashwx_generate(const bench_vectors *v, int type,
				  const char *figure)
{
	hashwx_ctx *ctx = hashwx_alloc((hashwx_type)type);
	bool ok = ctx != NULL && ctx != HASHWX_NOTSUPP &&
		  enough_hashwx(v, figure);

	if (ctx == NULL || ctx == HASHWX_NOTSUPP)
		say("%s: hashwx_alloc failed", figure);
	for (size_t i = 0; ok && i < HASHWX_SEEDS; i++)
		hashwx_make(ctx, v->hashwx[i].seed);
	if (ok) {
		region_begin();
		for (size_t i = 0; i < HASHWX_SEEDS; i++)
			hashwx_make(ctx, v->hashwx[i].seed);
		region_end(figure, HASHWX_SEEDS);
		ok = check_hashwx(ctx, &v->hashwx[HASHWX_SEEDS - 1], figure,
				  HASHWX_SEEDS - 1);
	}
	for (size_t i = 0; ok && i < HASHWX_SEEDS; i++) {
		hashwx_make(ctx, v->hashwx[i].seed);
		ok = check_hashwx(ctx, &v->hashwx[i], figure, i);
	}
	if (ok)
		region_checked(figure, HASHWX_SEEDS);
	if (ctx != HASHWX_NOTSUPP)
		hashwx_free(ctx);
	return ok;
}

/* hashwx-hash/: every recorded input of HASHWX_SEEDS functions, each in
 * its own context made beforehand; compared with the records after. */
static bool count_hashwx_hash(const bench_vectors *v, int type,
			      const char *figure)
{
	hashwx_ctx *ctx[HASHWX_SEEDS] = {NULL};
	static uint64_t out[HASHWX_SEEDS][BENCH_VEC_PAIRS];
	unsigned iters = 0;
	bool ok = enough_hashwx(v, figure);

	for (size_t i = 0; ok && i < HASHWX_SEEDS; i++) {
		ctx[i] = hashwx_alloc((hashwx_type)type);
		if (ctx[i] == NULL || ctx[i] == HASHWX_NOTSUPP) {
			say("%s: hashwx_alloc failed", figure);
			ctx[i] = NULL;
			ok = false;
			break;
		}
		hashwx_make(ctx[i], v->hashwx[i].seed);
		iters += (unsigned)v->hashwx[i].pairs;
		/* Uncounted first calls, as for generate/. */
		ok = check_hashwx(ctx[i], &v->hashwx[i], figure, i);
	}
	if (ok) {
		region_begin();
		for (size_t i = 0; i < HASHWX_SEEDS; i++)
			for (int k = 0; k < v->hashwx[i].pairs; k++)
				out[i][k] = hashwx_exec(ctx[i],
							v->hashwx[i].nonce[k]);
		region_end(figure, iters);
	}
	for (size_t i = 0; ok && i < HASHWX_SEEDS; i++)
		for (int k = 0; ok && k < v->hashwx[i].pairs; k++)
			if (out[i][k] != v->hashwx[i].hash[k]) {
				say("%s: seed %zu, input %llx: the counted "
				    "hash differs from the recorded one",
				    figure, i,
				    (unsigned long long)v->hashwx[i].nonce[k]);
				ok = false;
			}
	if (ok)
		region_checked(figure, iters);
	for (size_t i = 0; i < HASHWX_SEEDS; i++)
		hashwx_free(ctx[i]);
	return ok;
}

/* verify-v2/: verify/'s count on the Equi-X v2 corpus (equix-v2.txt in
 * place of equix.txt), with verify-v2's flags (EQUIX_CTX_V2). */
static bool count_verify_v2(const bench_vectors *v, int flags,
			    const char *figure)
{
	bench_vectors w = *v;

	w.equix = v->equixv2;
	w.n_equix = v->n_equixv2;
	return count_verify(&w, flags, figure);
}

/* ---- The list ------------------------------------------------------ */

/* A figure's context: the HashX type or Equi-X flags of equix-bench's
 * benchmark of the same name (bench_defs' param), or, for a figure that
 * no benchmark times, its own. */
#define AS_BENCHMARK (-1)

typedef struct figure {
	const char *name;
	bool (*count)(const bench_vectors *v, int param, const char *name);
	int param;
} figure;

/* Each figure counts the operation of equix-bench's benchmark of the same
 * name (bench/benchmarks.c); verify/compiled, which no benchmark times,
 * is a must-compile context, which compiles every function it
 * verifies. */
static const figure figures[] = {
	{"generate/interp", count_generate, AS_BENCHMARK},
	{"generate/compiled", count_generate, AS_BENCHMARK},
	{"hash/interp", count_hash, AS_BENCHMARK},
	{"hash/compiled", count_hash, AS_BENCHMARK},
	{"verify/interp", count_verify, AS_BENCHMARK},
	{"verify/try-compile", count_verify, AS_BENCHMARK},
	{"verify/compiled", count_verify,
	 EQUIX_CTX_VERIFY | EQUIX_CTX_MUST_COMPILE},
	{"solve/compiled", count_solve, AS_BENCHMARK},
	/* Issue 46: interpreted only until HashWX compiles here. */
	{"hashwx-generate/interp", count_hashwx_generate, AS_BENCHMARK},
	{"hashwx-hash/interp", count_hashwx_hash, AS_BENCHMARK},
	{"verify-v2/interp", count_verify_v2, AS_BENCHMARK},
};

/* The figure's run, with its context's parameter. */
static bool count_figure(const figure *f, const bench_vectors *v)
{
	const bench_def *d;

	if (f->param != AS_BENCHMARK)
		return f->count(v, f->param, f->name);
	if ((d = bench_def_find(f->name)) == NULL) {
		say("%s: equix-bench has no such benchmark", f->name);
		return false;
	}
	return f->count(v, d->param, f->name);
}

#define N_FIGURES (sizeof figures / sizeof figures[0])

/* The options: each one row, which also gives its --help line; main()
 * acts on its kind. */
enum {
	DO_IMPL = TOOL_OPT_OWN,
	DO_VECTORS,
	DO_FIGURE,
	DO_LIST,
	DO_LIST_IMPLS,
	DO_HELP,
	DO_VERSION,
};

static const tool_option options[] = {
	{"impl", "NAME", "the HashX implementation of compiled contexts,\n"
			 "a name --list-impls prints (sets HASHX_IMPL; an\n"
			 "error where this CPU, or valgrind's, lacks it)",
	 .kind = DO_IMPL},
	{"vectors", "DIR", "the vector files (default: $VECTOR_DIR, else the\n"
			   "source tree's tests/vectors)", .kind = DO_VECTORS},
	{"figure", "NAME", "count this figure (repeatable)", .kind = DO_FIGURE},
	{"list", NULL, "the figures, one a line", .kind = DO_LIST},
	{"list-impls", NULL, "the HashX implementations, one a line: NAME\n"
			     "LANES AVAILABLE (yes/no: this build and CPU,\n"
			     "or valgrind's, run it)", .kind = DO_LIST_IMPLS},
	{"help", NULL, "this text", .kind = DO_HELP},
	{"version", NULL, "the version", .kind = DO_VERSION, .short_name = 'V'},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--impl NAME] [--vectors DIR] [--figure NAME]...\n"
		"       %s --list | --list-impls | --help | --version\n"
		"Runs each figure's operations, checked against the recorded "
		"vectors,\n"
		"with callgrind collection on around the counted loop only "
		"(run it\n"
		"under valgrind --tool=callgrind --collect-atstart=no; "
		"bench/instructions.sh\n"
		"does). Without --figure, every figure.\n",
		progname, progname);
	tool_options_help(f, options, N_OPTIONS, 18);
}

static const figure *find_figure(const char *name)
{
	for (size_t i = 0; i < N_FIGURES; i++)
		if (strcmp(figures[i].name, name) == 0)
			return &figures[i];
	return NULL;
}

/*
 * The implementation named, which this CPU must run. Each library holds
 * its own copy of the choice (libequix has a private HashX core), made
 * once per process from HASHX_IMPL at its first context: so the variable
 * is set here, before any context exists. A name the CPU cannot run
 * would be ignored there, silently, and another path counted: refused
 * here instead.
 */
static bool choose_impl(const char *name)
{
	hashx_impl impl = hashx_impl_from_name(name);

	if (impl == HASHX_IMPL_COUNT) {
		say("--impl: unknown implementation '%s' (--list-impls names "
		    "them)",
		    name);
		return false;
	}
	if (!hashx_impl_available(impl)) {
		say("--impl %s: not available on this CPU or build (under "
		    "valgrind: its virtual CPU, which has no AVX-512)",
		    name);
		return false;
	}
	if (setenv("HASHX_IMPL", name, 1) != 0) {
		say("--impl %s: could not set HASHX_IMPL", name);
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	tool_scan scan;
	const tool_option *o;
	const figure *chosen[N_FIGURES];
	size_t n_chosen = 0;
	const char *impl = NULL, *dir = NULL;
	bench_vectors v;
	char err[512];
	bool ok = true;
	int c;

	if (!tool_scan_begin(&scan, options, N_OPTIONS, false)) {
		say("too many options in the table");
		return 2;
	}
	while ((c = tool_scan_next(&scan, argc, argv, &o)) != -1) {
		const figure *f;

		switch (c == 0 ? o->kind : c) {
		case DO_IMPL:
			if (impl != NULL) {
				say("--impl given twice");
				return 2;
			}
			impl = optarg;
			break;
		case DO_VECTORS:
			dir = optarg;
			break;
		case DO_FIGURE:
			if ((f = find_figure(optarg)) == NULL) {
				say("--figure: unknown figure '%s' (--list "
				    "names them)",
				    optarg);
				return 2;
			}
			for (size_t i = 0; i < n_chosen; i++)
				if (chosen[i] == f) {
					say("--figure %s given twice",
					    optarg);
					return 2;
				}
			chosen[n_chosen++] = f;
			break;
		case DO_LIST:
			for (size_t i = 0; i < N_FIGURES; i++)
				printf("%s\n", figures[i].name);
			return 0;
		case DO_LIST_IMPLS:
			return bench_print_impls(stdout);
		case DO_HELP:
			usage(stdout);
			return 0;
		case DO_VERSION:
			printf("%s %s\n", progname, PACKAGE_VERSION);
			return 0;
		case ':':
			say("%s: missing argument", argv[optind - 1]);
			return 2;
		default:
			say("unknown option '%s' (--help lists them)",
			    argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		say("unexpected argument '%s' (--help lists the options)",
		    argv[optind]);
		return 2;
	}
	if (impl != NULL && !choose_impl(impl))
		return 2;
	if (strcmp(HASHX_SALT, REFERENCE_SALT) != 0) {
		say("this build uses the HashX salt \"%s\"; the vectors hold "
		    "for \"%s\" only",
		    HASHX_SALT, REFERENCE_SALT);
		return 1;
	}
	if (bench_vectors_load(bench_vectors_dir(dir), &v, err, sizeof err) <
		    0 ||
	    bench_vectors_load_v2(bench_vectors_dir(dir), &v, err,
				  sizeof err) < 0) {
		say("%s", err);
		return 1;
	}
	if (n_chosen == 0)
		for (size_t i = 0; i < N_FIGURES; i++)
			chosen[n_chosen++] = &figures[i];
	/* The configuration a count depends on, for the script's notes. */
	printf("impl %s\n", hashx_impl_name(hashx_impl_default()));
	printf("compiler %s%s\n", COMPILER_NAME, __VERSION__);
	/* On stdout: not a fault (tests/count.sh runs it so). */
	if (!RUNNING_ON_VALGRIND)
		printf("not under valgrind: outputs checked, nothing "
		       "counted\n");
	for (size_t i = 0; ok && i < n_chosen; i++)
		ok = count_figure(chosen[i], &v);
	bench_vectors_free(&v);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		say("could not write the results");
		return 1;
	}
	return ok ? 0 : 1;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * library.c - the function tables of "ours" and "the reference".
 */
/* RTLD_DEEPBIND (glibc) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "library.h"

/* The sanitizer runtimes refuse RTLD_DEEPBIND (the library's calls would
 * escape their interceptors) and end the program, so a build with ASan or
 * TSan loads without it: there the reference's calls to its own exported
 * functions may bind to this build's, which only a benchmark would
 * notice, and sanitizer builds are not for benchmarks. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BENCH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BENCH_SANITIZED 1
#endif
#endif

/* RTLD_LOCAL, so that two builds of the same API sit side by side, and
 * RTLD_DEEPBIND where there is one, so that the reference's calls to its
 * own functions stay inside it. */
#if defined(RTLD_DEEPBIND) && !defined(BENCH_SANITIZED)
#define OPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#else
#define OPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#endif

const bench_library bench_library_ours = {
	hashx_alloc, hashx_make, hashx_query_type, hashx_exec, hashx_free,
	HASHX_SIZE,  equix_alloc, equix_free, equix_solve, equix_verify,
};

/* Each function's name and place in the table, for dlsym. */
#define SYM(f) {#f, offsetof(bench_library, f)}
typedef struct sym {
	const char *name;
	size_t offset;
} sym;

static const sym equix_syms[] = {SYM(equix_alloc), SYM(equix_free),
				 SYM(equix_solve), SYM(equix_verify)};
static const sym hashx_syms[] = {SYM(hashx_alloc), SYM(hashx_make),
				 SYM(hashx_query_type), SYM(hashx_exec),
				 SYM(hashx_free)};

/* Looks up n symbols of `path` into lib; NULL, or the first one missing
 * (`path` itself when it cannot be opened). */
static const char *lookup(const char *path, const sym *syms, size_t n,
			  bench_library *lib)
{
	void *h = dlopen(path, OPEN_FLAGS), *f;

	for (size_t i = 0; h != NULL && i < n; i++) {
		if ((f = dlsym(h, syms[i].name)) == NULL)
			return syms[i].name;
		/* object to function pointer, as POSIX allows for dlsym */
		memcpy((char *)lib + syms[i].offset, &f, sizeof f);
	}
	return h == NULL ? path : NULL;
}

int bench_library_load(const char *path, const char *hashx_path,
		       bench_library *lib)
{
	const char *missing;
	bench_library with_hashx;

	memset(lib, 0, sizeof *lib);
	if ((missing = lookup(path, equix_syms, 4, lib)) != NULL) {
		if (missing == path)
			fprintf(stderr, "equix-bench: %s\n", dlerror());
		else
			fprintf(stderr, "equix-bench: %s has no %s\n", path,
				missing);
		return -1;
	}
	/* The HashX functions, all five or none: Tor's CMake build of
	 * libequix.so keeps them internal, other builds may export them,
	 * and --reference-hashx can name a separate libhashx.so. The
	 * reference compiles HashX with HASHX_SIZE 8, a prefix of every
	 * size: 8 bytes are compared. */
	with_hashx = *lib;
	with_hashx.hashx_size = 8;
	if (lookup(hashx_path != NULL ? hashx_path : path, hashx_syms, 5,
		   &with_hashx) == NULL) {
		*lib = with_hashx;
		return 0;
	}
	if (hashx_path == NULL)
		return 0;
	fprintf(stderr, "equix-bench: %s does not export the hashx_* functions\n",
		hashx_path);
	return -1;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * library.c - the function tables of "ours" and "the reference".
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "benchutil.h"
#include "library.h"

void bench_library_ours(bench_library *lib)
{
	memset(lib, 0, sizeof *lib);
	lib->label = "this library";
	lib->suffix = "";
	lib->hashx_alloc = hashx_alloc;
	lib->hashx_make = hashx_make;
	lib->hashx_query_type = hashx_query_type;
	lib->hashx_exec = hashx_exec;
	lib->hashx_free = hashx_free;
	lib->hashx_size = HASHX_SIZE;
	lib->equix_alloc = equix_alloc;
	lib->equix_free = equix_free;
	lib->equix_solve = equix_solve;
	lib->equix_verify = equix_verify;
}

/* The optional HashX functions: all five or none. Tor's CMake build of
 * libequix.so keeps them internal; other builds may export them, and a
 * separate reference libhashx.so can be named with --reference-hashx. */
static void load_hashx(const char *path, bench_library *lib)
{
	static const char *const names[] = {
		"hashx_alloc", "hashx_make", "hashx_query_type",
		"hashx_exec",  "hashx_free",
	};
	void *s[5];
	void *h = bench_dlopen(path);

	if (h == NULL)
		return;
	for (size_t i = 0; i < 5; i++)
		if ((s[i] = dlsym(h, names[i])) == NULL)
			return;
	/* object to function pointers, as POSIX allows for dlsym */
	memcpy(&lib->hashx_alloc, &s[0], sizeof lib->hashx_alloc);
	memcpy(&lib->hashx_make, &s[1], sizeof lib->hashx_make);
	memcpy(&lib->hashx_query_type, &s[2], sizeof lib->hashx_query_type);
	memcpy(&lib->hashx_exec, &s[3], sizeof lib->hashx_exec);
	memcpy(&lib->hashx_free, &s[4], sizeof lib->hashx_free);
	/* The reference's CMake compiles HashX with HASHX_SIZE 8; every size
	 * is a prefix of the 32-byte output, so 8 bytes are compared. */
	lib->hashx_size = 8;
}

int bench_library_load(const char *path, const char *hashx_path,
		       bench_library *lib)
{
	static const char *const names[] = {
		"equix_alloc",
		"equix_free",
		"equix_solve",
		"equix_verify",
	};
	void *s[4];

	memset(lib, 0, sizeof *lib);
	if (bench_load("equix-bench", path, names, 4, s) < 0)
		return -1;
	lib->label = path;
	lib->suffix = "-ref";
	lib->is_reference = 1;
	memcpy(&lib->equix_alloc, &s[0], sizeof lib->equix_alloc);
	memcpy(&lib->equix_free, &s[1], sizeof lib->equix_free);
	memcpy(&lib->equix_solve, &s[2], sizeof lib->equix_solve);
	memcpy(&lib->equix_verify, &s[3], sizeof lib->equix_verify);
	load_hashx(hashx_path != NULL ? hashx_path : path, lib);
	if (hashx_path != NULL && lib->hashx_alloc == NULL) {
		fprintf(stderr,
			"equix-bench: %s does not export the hashx_* "
			"functions\n",
			hashx_path);
		return -1;
	}
	return 0;
}

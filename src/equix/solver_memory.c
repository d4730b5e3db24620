/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * solver_memory.c - allocating the solver heap.
 */
#include <config.h>

#include <stdlib.h>

#include "solver_memory.h"

#if defined(HAVE_MMAP) && defined(HAVE_MPROTECT)
#include <sys/mman.h>
#endif

/* Huge pages (2 MiB on x86-64) cut the TLB misses of the solver's random
 * bucket accesses. The kernel may have none reserved; then the solver
 * runs in ordinary pages, which is slower but correct. */
static bool map_huge(equix_solver_memory *m)
{
#if defined(HAVE_MMAP) && defined(HAVE_MPROTECT) && defined(MAP_HUGETLB)
	const size_t huge_page = (size_t)2 << 20;
	size_t bytes = (sizeof *m->heap + huge_page - 1) / huge_page * huge_page;
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p == MAP_FAILED)
		return false;
	m->heap = p;
	m->huge = true;
	m->mapped = bytes;
	return true;
#else
	(void)m;
	return false;
#endif
}

bool equix_solver_memory_alloc(equix_solver_memory *m, bool want_huge)
{
	m->heap = NULL;
	m->huge = false;
	m->mapped = 0;
	if (want_huge && map_huge(m))
		return true;
	m->heap = malloc(sizeof *m->heap);
	return m->heap != NULL;
}

void equix_solver_memory_free(equix_solver_memory *m)
{
#if defined(HAVE_MMAP) && defined(HAVE_MPROTECT)
	if (m->huge) {
		munmap(m->heap, m->mapped);
		m->heap = NULL;
		return;
	}
#endif
	free(m->heap);
	m->heap = NULL;
}

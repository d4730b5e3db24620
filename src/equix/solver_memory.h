/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * solver_memory.h - where the solver's 1,576,320 bytes (about 1.5 MiB,
 * see solver.h) live: huge pages when asked for and available, ordinary
 * memory otherwise.
 */
#ifndef EQUIX_SOLVER_MEMORY_H
#define EQUIX_SOLVER_MEMORY_H

#include <stdbool.h>

#include "solver.h"

typedef struct equix_solver_memory {
	equix_solver_heap *heap;
	bool huge;      /* mapped in huge pages (else malloc'ed) */
	size_t mapped;  /* bytes mapped, when huge */
} equix_solver_memory;

/* Allocates the heap; false when memory runs out. */
bool equix_solver_memory_alloc(equix_solver_memory *m, bool want_huge);

void equix_solver_memory_free(equix_solver_memory *m);

#endif

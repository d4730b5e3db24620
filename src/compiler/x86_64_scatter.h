/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_scatter.h - Equi-X's stage 0 table update (scatter.h) as x86-64
 * code, which two forms emit after their hashing: the scalar scatter form
 * (x86_64.c) after each hash, the fused AVX2 batch form (x86_64_avx2.c) at
 * the end of each group. A part both emitters share, as x86_64_emit.h is;
 * neither back-end exports anything to the other.
 */
#ifndef HASHX_X86_64_SCATTER_H
#define HASHX_X86_64_SCATTER_H

#include <stdbool.h>

#include "scatter.h"
#include "x86_64_emit.h"

/*
 * scatter_table puts the table's three addresses in r9, r10, r11; each
 * scatter_item then puts one item, v in x86 register `value` (destroyed)
 * and the input in `index` (its low 16 bits stored), into its bucket, or
 * drops it when the bucket is full; with `load`, the item loads the
 * addresses itself (one item per call site, as in the scalar form's
 * loop). The capacity is built into the code. rax, rcx and rdx are
 * scratch; `value` and `index` are none of them nor r9..r11. The table
 * load is 30 bytes, an item 46 without `load` (the callers' exit-code
 * bounds hold them).
 *
 * The emitted code picks the bucket with a byte register and shifts v by
 * 8: it takes tables of 8 bucket bits only. Every emitter of a scatter
 * form asks scatter_fits first and emits nothing (its build fails, and
 * the facade falls back to the next form) for any other table.
 */
bool hashx_x86_64_scatter_fits(const hashx_scatter *t);
void hashx_x86_64_scatter_table(x86_emitter *e, const hashx_scatter *t);
void hashx_x86_64_scatter_item(x86_emitter *e, const hashx_scatter *t,
			       int value, int index, bool load);

#endif

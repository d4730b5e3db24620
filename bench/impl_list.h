/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impl_list.h - the HashX implementations this build has, as
 * `equix-bench --list-impls` and `equix-count --list-impls` print them
 * for the scripts (tests/impls.sh, bench/instructions.sh), which ask
 * instead of naming them.
 */
#ifndef BENCH_IMPL_LIST_H
#define BENCH_IMPL_LIST_H

#include <stdio.h>

/* One line per implementation of src/facade/impl.h, in its order:
 *     NAME LANES AVAILABLE
 * NAME as HASHX_IMPL takes it; LANES the inputs its batch form hashes
 * per group, 1 for one at a time; AVAILABLE "yes" when this build, CPU
 * and OS run it, else "no". Returns 0, or 1 if the output failed. */
int bench_print_impls(FILE *f);

#endif

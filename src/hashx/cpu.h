/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu.h - what vector units this CPU and OS can run, probed once per
 * process. Shared by the interpreter's lanes and the compiler's table of
 * implementations (dispatch.c), so that neither asks the other.
 */
#ifndef HASHX_CPU_H
#define HASHX_CPU_H

#include <stdbool.h>

/* AVX2, with the OS saving the 256-bit registers. */
bool hashx_cpu_has_avx2(void);

/* AVX-512 F and DQ (DQ for the 64-bit lane multiply, vpmullq), with the
 * OS saving the 512-bit registers. */
bool hashx_cpu_has_avx512(void);

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * v1_flags.h - which of the caller's equix_alloc() flags PoW v1 passes on.
 *
 * Tor's PoW v1 (proposal 327) is Equi-X v1: a service or client handed
 * EQUIX_CTX_V2 (a flag of equix.h, not of this layer) must still solve
 * and verify v1, or its proofs would match no other implementation's.
 * Every other flag (compilation, huge pages) passes through.
 */
#ifndef EQUIX_POW_V1_FLAGS_H
#define EQUIX_POW_V1_FLAGS_H

#include <equix.h>

#define EQUIX_POW_V1_FLAGS (~(unsigned)EQUIX_CTX_V2)

#endif

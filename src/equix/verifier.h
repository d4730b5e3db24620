/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verifier.h - checking an Equi-X solution's sums.
 */
#ifndef EQUIX_VERIFIER_H
#define EQUIX_VERIFIER_H

#include <equix.h>

#include "hash_family.h"

/* Checks the pair, quad and final sums of an ordered solution under the
 * function made last in `hash`, in the reference's order, returning the first
 * failure. */
equix_result equix_verify_sums(const equix_hash *hash,
			       const equix_solution *s);

#endif

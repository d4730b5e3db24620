/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * result.h - each equix_pow_result's name, from result.c's one list of
 * the results (its phrases are equix_pow_result_string()'s).
 */
#ifndef EQUIX_POW_RESULT_H
#define EQUIX_POW_RESULT_H

#include "equix_pow.h"

/* The enumerator's name without its EQUIX_POW_ prefix ("OK",
 * "FAIL_SEED_HEAD", ...), the form the JavaScript package reports;
 * "UNKNOWN" for values outside the enumeration. A static string. */
const char *pow_result_name(equix_pow_result result);

#endif

/*
 * testutil.h - small helpers shared by the unit tests.
 */
#ifndef EQUIX_TESTUTIL_H
#define EQUIX_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Decodes lowercase or uppercase hex ("-" is the empty string) into `out`
 * (at most `cap` bytes). Returns the length, or -1 on malformed input. */
long tu_hex_decode(const char *hex, uint8_t *out, size_t cap);

/* Encodes `len` bytes as lowercase hex into `out` (2 * len + 1 bytes). */
void tu_hex_encode(const uint8_t *in, size_t len, char *out);

/* Opens tests/vectors/NAME, honouring $VECTOR_DIR (set by the test
 * harness, so out-of-tree builds find the source tree's copy). */
FILE *tu_open_vector(const char *name);

/* Runs a suite with Check's usual report; returns the exit status. */
int tu_run_suite(Suite *s);

#endif

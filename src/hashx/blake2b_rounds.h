/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blake2b_rounds.h - BLAKE2b's compression with a chosen number of rounds,
 * for block mode's input expansion.
 *
 * Block mode fills the eight registers from a BLAKE2b of the input cut
 * down to 4 rounds of the standard 12: the expansion only has to spread
 * the input over 512 bits before the program, which does the mixing that
 * matters, so the reference traded the other 8 rounds for speed. No
 * library offers BLAKE2b with fewer rounds, so this one function is
 * written here; everything else of BLAKE2b (seed keying, the PoW effort
 * hash) is libsodium's. tests/test_blake2b.c checks that with 12 rounds
 * these functions give libsodium's digests, so the 4-round form differs
 * from real BLAKE2b in its round count alone.
 */
#ifndef HASHX_BLAKE2B_ROUNDS_H
#define HASHX_BLAKE2B_ROUNDS_H

#include <stddef.h>
#include <stdint.h>

/* BLAKE2b's block, in bytes. */
#define HASHX_BLAKE2B_BLOCK 128

/* The rounds of block mode's expansion, and of standard BLAKE2b. */
#define HASHX_BLAKE2B_ROUNDS_BLOCK_MODE 4
#define HASHX_BLAKE2B_ROUNDS_STANDARD 12

/*
 * Hashes `in` (`len` bytes; NULL allowed when len is 0) with `rounds`
 * rounds per compression, starting from the IV XOR the eight words of the
 * 64-byte parameter block `param` (as little-endian words), and stores
 * the whole final state h[0..7] in `out`. With the standard 12 rounds
 * this is BLAKE2b: the first n bytes of `out` (little-endian) are its
 * n-byte digest when param's first byte is n.
 */
void hashx_blake2b_rounds(const uint64_t param[8], const void *in, size_t len,
			  unsigned rounds, uint64_t out[8]);

#endif

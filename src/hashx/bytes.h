/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bytes.h - little-endian loads and stores.
 *
 * HashX defines every multi-byte quantity (BLAKE2b key words, output words)
 * as little-endian, whatever the host's byte order.
 */
#ifndef HASHX_BYTES_H
#define HASHX_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint64_t hashx_load64_le(const void *src)
{
	uint64_t w;
	memcpy(&w, src, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

static inline void hashx_store64_le(void *dst, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	memcpy(dst, &w, sizeof w);
}

#endif

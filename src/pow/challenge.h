/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * challenge.h - the byte layout shared by the client and the service:
 * big-endian fields of the challenge and the wire formats.
 */
#ifndef EQUIX_POW_CHALLENGE_H
#define EQUIX_POW_CHALLENGE_H

#include <stdint.h>

/* The protocol's integers (effort, R) travel big-endian. */
static inline void pow_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint32_t pow_load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

#endif

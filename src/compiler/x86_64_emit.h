/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_emit.h - what the x86-64 batch code generators (x86_64_avx2.c,
 * x86_64_avx512.c) share: a byte cursor with a bound, little-endian
 * immediates, and the few general-purpose instructions around their loop.
 */
#ifndef HASHX_X86_64_EMIT_H
#define HASHX_X86_64_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct x86_emitter {
	uint8_t *pos;
	uint8_t *end;
} x86_emitter;

/* Whether `n` more bytes fit; every emitter checks before each HashX
 * instruction with that instruction's worst case. */
static inline bool x86_room(const x86_emitter *e, size_t n)
{
	return (size_t)(e->end - e->pos) >= n;
}

static inline void x86_byte(x86_emitter *e, unsigned b)
{
	*e->pos++ = (uint8_t)b;
}

static inline void x86_imm32(x86_emitter *e, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		x86_byte(e, (v >> (8 * i)) & 0xff);
}

static inline void x86_imm64(x86_emitter *e, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		x86_byte(e, (unsigned)(v >> (8 * i)) & 0xff);
}

/* The rel32 from the end of a 4-byte field at `at` to `to`. */
static inline void x86_patch_rel32(uint8_t *at, const uint8_t *to)
{
	int32_t rel = (int32_t)(to - (at + 4));

	memcpy(at, &rel, 4);
}

/* General-purpose registers used around the vector code (SysV: the batch
 * function's arguments arrive in rdi, rsi, rdx). */
enum {
	X86_RAX = 0,
	X86_RCX = 1,
	X86_RDX = 2,
	X86_RSI = 6,
	X86_RDI = 7,
};

/* add r64, imm32 (sign-extended) */
static inline void x86_add_imm32(x86_emitter *e, int reg, int32_t imm)
{
	x86_byte(e, 0x48 | (reg >> 3));
	x86_byte(e, 0x81);
	x86_byte(e, 0xc0 | (reg & 7));
	x86_imm32(e, (uint32_t)imm);
}

/* dec r64 */
static inline void x86_dec(x86_emitter *e, int reg)
{
	x86_byte(e, 0x48 | (reg >> 3));
	x86_byte(e, 0xff);
	x86_byte(e, 0xc8 | (reg & 7));
}

/* test r64, r64 */
static inline void x86_test(x86_emitter *e, int reg)
{
	x86_byte(e, 0x48 | (reg >> 3) << 2 | (reg >> 3));
	x86_byte(e, 0x85);
	x86_byte(e, 0xc0 | (reg & 7) << 3 | (reg & 7));
}

/* jz/jnz rel32 to a known or later-patched address: returns the field. */
static inline uint8_t *x86_jcc(x86_emitter *e, bool if_zero, const uint8_t *to)
{
	uint8_t *field;

	x86_byte(e, 0x0f);
	x86_byte(e, if_zero ? 0x84 : 0x85);
	field = e->pos;
	x86_imm32(e, 0);
	if (to != NULL)
		x86_patch_rel32(field, to);
	return field;
}

/* vzeroupper (VEX.128.0F.WIG 77): leaves no dirty upper halves to slow
 * down the caller's SSE code; then ret. */
static inline void x86_vzeroupper_ret(x86_emitter *e)
{
	x86_byte(e, 0xc5);
	x86_byte(e, 0xf8);
	x86_byte(e, 0x77);
	x86_byte(e, 0xc3);
}

/*
 * The constant pool sits at the start of the buffer, before the code, and
 * is addressed RIP-relative: emits ModRM (mod 00, rm 101) with `reg` and
 * the disp32 from the end of the instruction to `at`. `tail` is how many
 * bytes (an immediate) follow the displacement.
 */
static inline void x86_rip_operand(x86_emitter *e, int reg, const void *at,
				   int tail)
{
	x86_byte(e, (reg & 7) << 3 | 5);
	x86_imm32(e, (uint32_t)(int32_t)((const uint8_t *)at -
					 (e->pos + 4 + tail)));
}

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_emit.h - what the x86-64 code generators (x86_64.c,
 * x86_64_avx2.c, x86_64_avx512.c) and their shared table update
 * (x86_64_scatter.c) share: one byte cursor with a bound, little-endian
 * immediates, REX and ModRM bytes, the few general-purpose instructions
 * around the vector loops, and the vector back-ends' constant pool.
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

/* REX prefix, always emitted: W = 64-bit operand, R/X/B extend
 * ModRM.reg, SIB.index and ModRM.rm/SIB.base to r8..r15. */
static inline void x86_rex(x86_emitter *e, int w, int reg, int index,
			   int base)
{
	x86_byte(e, 0x40 | (w << 3) | ((reg >> 3) << 2) | ((index >> 3) << 1) |
			    (base >> 3));
}

static inline void x86_modrm(x86_emitter *e, int mod, int reg, int rm)
{
	x86_byte(e, (unsigned)(mod << 6 | (reg & 7) << 3 | (rm & 7)));
}

/* mov r64, imm64 (REX.W b8+r) */
static inline void x86_mov_imm64(x86_emitter *e, int reg, uint64_t v)
{
	x86_rex(e, 1, 0, 0, reg);
	x86_byte(e, 0xb8 + (reg & 7));
	x86_imm32(e, (uint32_t)v);
	x86_imm32(e, (uint32_t)(v >> 32));
}

/* General-purpose registers used around the vector code (SysV: the batch
 * function's arguments arrive in rdi, rsi, rdx). */
enum {
	X86_RAX = 0,
	X86_RCX = 1,
	X86_RDX = 2,
	X86_RBX = 3,
	X86_RSP = 4,
	X86_RBP = 5,
	X86_RSI = 6,
	X86_RDI = 7,
	X86_R8 = 8,
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

/* inc r64 */
static inline void x86_inc(x86_emitter *e, int reg)
{
	x86_byte(e, 0x48 | (reg >> 3));
	x86_byte(e, 0xff);
	x86_byte(e, 0xc0 | (reg & 7));
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

/* jmp rel32 to a known or later-patched address: returns the field. */
static inline uint8_t *x86_jmp(x86_emitter *e, const uint8_t *to)
{
	uint8_t *field;

	x86_byte(e, 0xe9);
	field = e->pos;
	x86_imm32(e, 0);
	if (to != NULL)
		x86_patch_rel32(field, to);
	return field;
}

/* A REX prefix for a 32-bit (w 0) or 64-bit (w 1) operation on `reg`
 * (ModRM.reg) and `rm`, left out where nothing needs it. */
static inline void x86_rex_opt(x86_emitter *e, int w, int reg, int rm)
{
	unsigned rex = (unsigned)(w << 3 | (reg >> 3) << 2 | (rm >> 3));

	if (rex != 0)
		x86_byte(e, 0x40 | rex);
}

/* Opcodes of 32-bit register-to-register operations, "op r/m32, r32". */
enum {
	X86_OP_AND_RM_R = 0x21,
	X86_OP_XOR_RM_R = 0x31,
	X86_OP_TEST_RM_R = 0x85,
};

/* op rm, reg on 32-bit registers (e.g. xor rm, reg) */
static inline void x86_rr32(x86_emitter *e, unsigned op, int rm, int reg)
{
	x86_rex_opt(e, 0, reg, rm);
	x86_byte(e, op);
	x86_byte(e, 0xc0 | (unsigned)(reg & 7) << 3 | (rm & 7));
}

/* mov r32, imm32 (b8+r) */
static inline void x86_mov32_imm(x86_emitter *e, int reg, uint32_t v)
{
	x86_rex_opt(e, 0, 0, reg);
	x86_byte(e, 0xb8 + (reg & 7));
	x86_imm32(e, v);
}

/* cmp r32, imm32 (3d for eax, else 81 /7) */
static inline void x86_cmp32_imm(x86_emitter *e, int reg, uint32_t v)
{
	if (reg == X86_RAX) {
		x86_byte(e, 0x3d);
	} else {
		x86_rex_opt(e, 0, 0, reg);
		x86_byte(e, 0x81);
		x86_byte(e, 0xc0 | 7 << 3 | (reg & 7));
	}
	x86_imm32(e, v);
}

/* jnz rel8 over the next `n` bytes */
static inline void x86_jnz8(x86_emitter *e, unsigned n)
{
	x86_byte(e, 0x75);
	x86_byte(e, n);
}

/* mov dst, src (64-bit; REX.W 89 /r) */
static inline void x86_mov64_rr(x86_emitter *e, int dst, int src)
{
	x86_rex_opt(e, 1, src, dst);
	x86_byte(e, 0x89);
	x86_byte(e, 0xc0 | (unsigned)(src & 7) << 3 | (dst & 7));
}

/* and r64, imm8 (sign-extended; REX.W 83 /4 ib) */
static inline void x86_and64_imm8(x86_emitter *e, int reg, int8_t imm)
{
	x86_rex_opt(e, 1, 0, reg);
	x86_byte(e, 0x83);
	x86_byte(e, 0xc0 | 4 << 3 | (reg & 7));
	x86_byte(e, (uint8_t)imm);
}

/* Opcodes of 64-bit accesses to the stack frame (x86_frame_op). */
enum {
	X86_OP_MOV_RM_R = 0x89, /* mov [rsp + disp], reg */
	X86_OP_MOV_R_RM = 0x8b, /* mov reg, [rsp + disp] */
	X86_OP_GROUP5 = 0xff,   /* /1: dec qword [rsp + disp] */
	X86_EXT_DEC = 1,
};

/* REX.W op with ModRM [rsp + disp32] (SIB 24) and `reg` (or an opcode
 * extension) in ModRM.reg. */
static inline void x86_frame_op(x86_emitter *e, unsigned op, int reg,
				int32_t disp)
{
	x86_rex_opt(e, 1, reg, 0);
	x86_byte(e, op);
	x86_byte(e, 0x80 | (unsigned)(reg & 7) << 3 | 4);
	x86_byte(e, 0x24);
	x86_imm32(e, (uint32_t)disp);
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

/*
 * The vector back-ends' constant pool: entries of one width (32 bytes, a
 * full AVX2 vector; 8 bytes, a word AVX-512 broadcasts) at the start of
 * the buffer, before the code, read through x86_rip_operand. The
 * capacity is each back-end's proven bound; going past it sets
 * `overflow`, which the back-end turns into a failed compilation, rather
 * than writing into the code.
 */
typedef struct x86_pool {
	uint8_t *start;
	size_t width;    /* bytes per entry */
	size_t count;    /* entries used */
	size_t capacity; /* entries */
	bool overflow;
} x86_pool;

static inline x86_pool x86_pool_at(uint8_t *start, size_t width,
				   size_t capacity)
{
	x86_pool p = { start, width, 0, capacity, false };

	return p;
}

/* A new entry holding `bytes` (width bytes), without looking for an equal
 * one: for values used once, where searching would cost more than the
 * bytes it saves. */
static inline const uint8_t *x86_pool_append(x86_pool *p, const uint8_t *bytes)
{
	uint8_t *at;

	if (p->count == p->capacity) {
		p->overflow = true;
		return p->start;
	}
	at = p->start + p->width * p->count++;
	memcpy(at, bytes, p->width);
	return at;
}

/* The entry holding `bytes`: an equal one if there is one. */
static inline const uint8_t *x86_pool_add(x86_pool *p, const uint8_t *bytes)
{
	for (size_t k = 0; k < p->count; k++)
		if (memcmp(p->start + p->width * k, bytes, p->width) == 0)
			return p->start + p->width * k;
	return x86_pool_append(p, bytes);
}

/* The width / 8 little-endian words q[0..] as entry bytes. */
static inline void x86_pool_bytes(const x86_pool *p, const uint64_t *q,
				  uint8_t *bytes)
{
	for (size_t i = 0; i < p->width; i++)
		bytes[i] = (uint8_t)(q[i / 8] >> (8 * (i % 8)));
}

/* An entry with `v` in every 64-bit lane; shared with an equal one when
 * `share`. */
static inline const uint8_t *x86_pool_broadcast(x86_pool *p, uint64_t v,
						bool share)
{
	uint64_t q[8];
	uint8_t bytes[64];

	for (int i = 0; i < 8; i++)
		q[i] = v;
	x86_pool_bytes(p, q, bytes);
	return share ? x86_pool_add(p, bytes) : x86_pool_append(p, bytes);
}

/* The end of the entries: where code may start. */
static inline uint8_t *x86_pool_end(const x86_pool *p)
{
	return p->start + p->width * p->count;
}

#endif

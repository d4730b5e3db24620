/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wasm_emit.h - what the WebAssembly emitters share (wasm.c for HashX
 * programs, hashwx_wasm.c for HashWX instances): the module's byte
 * writer with its LEB128 and section-size encoders, the opcodes, the
 * one-instruction helpers on locals, the SipRound walked from
 * siphash.h's table, and the module's common sections (the memory
 * import, the function list and its one export). Each emitter declares
 * its own types and writes its own code section.
 *
 * Opcodes are named as in the WebAssembly core specification (section
 * 5.4, binary instructions); the ones without a prefix are all
 * WebAssembly 1.0.
 */
#ifndef HASHX_WASM_EMIT_H
#define HASHX_WASM_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "siphash.h"
#include "wasm_host.h"

/* Module structure (spec 5.5). */
enum {
	SEC_TYPE = 1,
	SEC_IMPORT = 2,
	SEC_FUNCTION = 3,
	SEC_EXPORT = 7,
	SEC_CODE = 10,
	TYPE_FUNC = 0x60,
	TYPE_I32 = 0x7f,
	TYPE_I64 = 0x7e,
	BLOCK_VOID = 0x40,
	EXTERN_FUNC = 0x00,
	EXTERN_MEMORY = 0x02,
	LIMITS_MIN_ONLY = 0x00,
};

/* Instructions (spec 5.4). */
enum {
	OP_BLOCK = 0x02,
	OP_LOOP = 0x03,
	OP_IF = 0x04,
	OP_END = 0x0b,
	OP_DROP = 0x1a,
	OP_BR = 0x0c,
	OP_BR_IF = 0x0d,
	OP_CALL = 0x10,
	OP_LOCAL_GET = 0x20,
	OP_LOCAL_SET = 0x21,
	OP_LOCAL_TEE = 0x22,
	OP_I32_LOAD16_U = 0x2f,
	OP_I64_LOAD = 0x29,
	OP_I64_STORE = 0x37,
	OP_I32_STORE16 = 0x3b,
	OP_I32_CONST = 0x41,
	OP_I64_CONST = 0x42,
	OP_I32_EQZ = 0x45,
	OP_I32_LT_U = 0x49,
	OP_I32_ADD = 0x6a,
	OP_I32_SUB = 0x6b,
	OP_I32_MUL = 0x6c,
	OP_I32_AND = 0x71,
	OP_I32_OR = 0x72,
	OP_I32_SHL = 0x74,
	OP_I64_ADD = 0x7c,
	OP_I64_SUB = 0x7d,
	OP_I64_MUL = 0x7e,
	OP_I64_AND = 0x83,
	OP_I64_OR = 0x84,
	OP_I64_XOR = 0x85,
	OP_I64_SHL = 0x86,
	OP_I64_SHR_S = 0x87,
	OP_I64_SHR_U = 0x88,
	OP_I64_ROTL = 0x89,
	OP_I64_ROTR = 0x8a,
	OP_I32_WRAP_I64 = 0xa7,
	/* The wide-arithmetic proposal's 64 x 64 -> 128-bit products, each
	 * pushing the low then the high half. */
	OP_PREFIX_FC = 0xfc,
	OP_FC_I64_MUL_WIDE_S = 0x15,
	OP_FC_I64_MUL_WIDE_U = 0x16,
};

/* ---- Bytes ------------------------------------------------------------ */

/* Where the module is written; `p` becomes NULL once it would overflow,
 * and every later write is then dropped, so one check at the end says
 * whether it fit. */
typedef struct writer {
	uint8_t *p, *end;
} writer;

static inline void put(writer *w, uint8_t byte)
{
	if (w->p == NULL)
		return;
	if (w->p == w->end) {
		w->p = NULL;
		return;
	}
	*w->p++ = byte;
}

static inline void put_bytes(writer *w, const void *bytes, size_t n)
{
	const uint8_t *b = bytes;

	for (size_t i = 0; i < n; i++)
		put(w, b[i]);
}

static inline void put_uleb(writer *w, uint32_t v)
{
	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		put(w, (uint8_t)(b | (v != 0 ? 0x80 : 0)));
	} while (v != 0);
}

/* Signed LEB128, for the constants of i32.const and i64.const. */
static inline void put_sleb(writer *w, int64_t v)
{
	for (;;) {
		uint8_t b = v & 0x7f;

		v >>= 7; /* arithmetic: the sign is kept */
		if ((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40))) {
			put(w, b);
			return;
		}
		put(w, b | 0x80);
	}
}

/* A size not known yet: five bytes of padded LEB128, filled in by
 * end_size() once what it measures is written. */
static inline uint8_t *begin_size(writer *w)
{
	uint8_t *at = w->p;

	for (int i = 0; i < 5; i++)
		put(w, 0);
	return at;
}

static inline void end_size(writer *w, uint8_t *at)
{
	uint32_t n;

	if (w->p == NULL)
		return;
	n = (uint32_t)(w->p - at - 5);
	for (int i = 0; i < 4; i++)
		at[i] = (uint8_t)(((n >> (7 * i)) & 0x7f) | 0x80);
	at[4] = (uint8_t)(n >> 28);
}

/* ---- Instructions ------------------------------------------------------ */

static inline void emit_op(writer *w, uint8_t op)
{
	put(w, op);
}

static inline void emit_local(writer *w, uint8_t op, unsigned local)
{
	put(w, op);
	put_uleb(w, local);
}

static inline void emit_get(writer *w, unsigned local)
{
	emit_local(w, OP_LOCAL_GET, local);
}

static inline void emit_set(writer *w, unsigned local)
{
	emit_local(w, OP_LOCAL_SET, local);
}

static inline void emit_i64_const(writer *w, uint64_t v)
{
	put(w, OP_I64_CONST);
	put_sleb(w, (int64_t)v);
}

static inline void emit_i32_const(writer *w, uint32_t v)
{
	put(w, OP_I32_CONST);
	put_sleb(w, (int32_t)v);
}

/* A load or store with its memarg: alignment as log2, offset. */
static inline void emit_mem(writer *w, uint8_t op, unsigned align_log2,
			    uint32_t offset)
{
	put(w, op);
	put_uleb(w, align_log2);
	put_uleb(w, offset);
}

/* local[d] = local[d] op local[s], or with a constant in place of s. */
static inline void emit_rr(writer *w, uint8_t op, unsigned d,
			   unsigned s)
{
	emit_get(w, d);
	emit_get(w, s);
	emit_op(w, op);
	emit_set(w, d);
}

static inline void emit_rc(writer *w, uint8_t op, unsigned d,
			   uint64_t c)
{
	emit_get(w, d);
	emit_i64_const(w, c);
	emit_op(w, op);
	emit_set(w, d);
}

/* The SipRound steps in `steps` (bits of hashx_sipround_table) on
 * locals v[0..3]. */
static inline void emit_sipround(writer *w, const unsigned v[4],
				 unsigned steps)
{
	for (int k = 0; k < HASHX_SIPROUND_STEP_COUNT; k++) {
		const hashx_sip_step *st = &hashx_sipround_table[k];

		if (!(steps >> k & 1))
			continue;
		switch ((hashx_sip_op)st->op) {
		case HASHX_SIP_ADD:
			emit_rr(w, OP_I64_ADD, v[st->dst], v[st->arg]);
			break;
		case HASHX_SIP_ROTL:
			emit_rc(w, OP_I64_ROTL, v[st->dst], st->arg);
			break;
		case HASHX_SIP_XOR:
			emit_rr(w, OP_I64_XOR, v[st->dst], v[st->arg]);
			break;
		}
	}
}

/* `rounds` whole SipRounds on locals v[0..3]. */
static inline void emit_siprounds(writer *w, const unsigned v[4],
				  int rounds)
{
	for (int i = 0; i < rounds; i++)
		emit_sipround(w, v, HASHX_SIP_ALL_STEPS);
}

/* A function body's size and locals: `i64s` and `i32s` of each, after
 * its parameters. Returns where its size goes (end_size()). */
static inline uint8_t *begin_body(writer *w, unsigned i64s,
				  unsigned i32s)
{
	uint8_t *size = begin_size(w);

	put_uleb(w, 2);
	put_uleb(w, i64s);
	put(w, TYPE_I64);
	put_uleb(w, i32s);
	put(w, TYPE_I32);
	return size;
}

static inline void end_body(writer *w, uint8_t *size)
{
	put(w, OP_END);
	end_size(w, size);
}

static inline void put_name(writer *w, const char *name)
{
	size_t n = strlen(name);

	put_uleb(w, (uint32_t)n);
	put_bytes(w, name, n);
}

/* One function type: its parameters and results, as type bytes. */
static inline void put_functype(writer *w, const char *params,
				const char *results)
{
	put(w, TYPE_FUNC);
	put_uleb(w, (uint32_t)strlen(params));
	put_bytes(w, params, strlen(params));
	put_uleb(w, (uint32_t)strlen(results));
	put_bytes(w, results, strlen(results));
}

/* The core's memory, whatever its size (no maximum asked). */
static inline void emit_memory_import(writer *w)
{
	uint8_t *size;

	put(w, SEC_IMPORT);
	size = begin_size(w);
	put_uleb(w, 1);
	put_name(w, HASHX_WASM_MEMORY_MODULE);
	put_name(w, HASHX_WASM_MEMORY_NAME);
	put(w, EXTERN_MEMORY);
	put(w, LIMITS_MIN_ONLY);
	put_uleb(w, 0);
	end_size(w, size);
}

/* The functions' types, and the export of the last one. */
static inline void emit_signatures(writer *w, const uint8_t *types,
				   unsigned n)
{
	uint8_t *size;

	put(w, SEC_FUNCTION);
	size = begin_size(w);
	put_uleb(w, n);
	for (unsigned i = 0; i < n; i++)
		put_uleb(w, types[i]);
	end_size(w, size);

	put(w, SEC_EXPORT);
	size = begin_size(w);
	put_uleb(w, 1);
	put_name(w, HASHX_WASM_EXPORT_NAME);
	put(w, EXTERN_FUNC);
	put_uleb(w, n - 1);
	end_size(w, size);
}
#endif

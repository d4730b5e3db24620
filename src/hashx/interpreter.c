/*
 * interpreter.c - the portable HashX interpreter.
 */
#include <stdbool.h>

#include "interpreter.h"

#if defined(__SIZEOF_INT128__)
static inline uint64_t mulh_unsigned(uint64_t a, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

static inline uint64_t mulh_signed(uint64_t a, uint64_t b)
{
	return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
}
#else
/* Schoolbook multiplication on 32-bit halves, for compilers without a
 * 128-bit type. */
static inline uint64_t mulh_unsigned(uint64_t a, uint64_t b)
{
	uint64_t al = (uint32_t)a, ah = a >> 32;
	uint64_t bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* Signed high half from the unsigned one: each negative factor adds
 * -2^64 * other factor to the product. */
static inline uint64_t mulh_signed(uint64_t a, uint64_t b)
{
	uint64_t hi = mulh_unsigned(a, b);

	if (a >> 63)
		hi -= b;
	if (b >> 63)
		hi -= a;
	return hi;
}
#endif

static inline uint64_t rotr64(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

static inline uint64_t sign_extend32(uint32_t imm)
{
	return (uint64_t)(int64_t)(int32_t)imm;
}

void hashx_interpret(const hashx_program *prog, uint64_t r[8])
{
	size_t target = 0;
	bool branch_enabled = true;
	uint32_t mul_result = 0; /* low half of the last UMULH/SMULH */

	for (size_t i = 0; i < prog->size; i++) {
		const hashx_instr *in = &prog->code[i];

		switch ((hashx_opcode)in->opcode) {
		case HASHX_OP_UMULH_R:
			r[in->dst] = mulh_unsigned(r[in->dst], r[in->src]);
			mul_result = (uint32_t)r[in->dst];
			break;
		case HASHX_OP_SMULH_R:
			r[in->dst] = mulh_signed(r[in->dst], r[in->src]);
			mul_result = (uint32_t)r[in->dst];
			break;
		case HASHX_OP_MUL_R:
			r[in->dst] *= r[in->src];
			break;
		case HASHX_OP_SUB_R:
			r[in->dst] -= r[in->src];
			break;
		case HASHX_OP_XOR_R:
			r[in->dst] ^= r[in->src];
			break;
		case HASHX_OP_ADD_RS:
			r[in->dst] += r[in->src] << in->imm;
			break;
		case HASHX_OP_ROR_C:
			r[in->dst] = rotr64(r[in->dst], in->imm);
			break;
		case HASHX_OP_ADD_C:
			r[in->dst] += sign_extend32(in->imm);
			break;
		case HASHX_OP_XOR_C:
			r[in->dst] ^= sign_extend32(in->imm);
			break;
		case HASHX_OP_TARGET:
			target = i;
			break;
		case HASHX_OP_BRANCH:
			/* At most one jump per run, back to just after the
			 * last TARGET (the loop increment skips it). */
			if (branch_enabled && (mul_result & in->imm) == 0) {
				branch_enabled = false;
				i = target;
			}
			break;
		case HASHX_OP_COUNT:
		default:
			break;
		}
	}
}

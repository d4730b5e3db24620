/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter.c - the portable HashX interpreter.
 */
#include <stdbool.h>
#include <string.h>

#include "analysis.h"
#include "interpreter.h"
#include "mulh.h"

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
/* From 32-bit halves (mulh.h), for compilers without a 128-bit type. */
static inline uint64_t mulh_unsigned(uint64_t a, uint64_t b)
{
	return hashx_umulh_halves(a, b);
}

static inline uint64_t mulh_signed(uint64_t a, uint64_t b)
{
	return hashx_smulh_halves(a, b);
}
#endif

/* Rotation by the low 6 bits of n (a count of 0 is the identity, not
 * a shift by 64). */
static inline uint64_t rotr64(uint64_t x, unsigned n)
{
	return (x >> (n & 63)) | (x << ((64 - n) & 63));
}

static inline uint64_t sign_extend32(uint32_t imm)
{
	return (uint64_t)(int64_t)(int32_t)imm;
}

/*
 * Each operation's effect, written once and used by every dispatcher
 * below: d is its destination register (an lvalue), s its source's value
 * and k its immediate sign-extended to 64 bits (every operation takes it
 * so: the shift and rotation counts are small, so extension leaves them
 * alone, and they use their low 6 bits only). mul_result is the low half
 * of the last high multiplication (what BRANCH tests). NONE is the empty
 * slot of a pair (see the paired interpreter).
 */
#define EXEC_UMULH_R(d, s, k)                                            \
	((d) = mulh_unsigned((d), (s)), mul_result = (uint32_t)(d))
#define EXEC_SMULH_R(d, s, k)                                            \
	((d) = mulh_signed((d), (s)), mul_result = (uint32_t)(d))
#define EXEC_MUL_R(d, s, k) ((d) *= (s))
#define EXEC_SUB_R(d, s, k) ((d) -= (s))
#define EXEC_XOR_R(d, s, k) ((d) ^= (s))
#define EXEC_ADD_RS(d, s, k) ((d) += (s) << ((k) & 63))
#define EXEC_ROR_C(d, s, k) ((d) = rotr64((d), (unsigned)(k)))
#define EXEC_ADD_C(d, s, k) ((d) += (k))
#define EXEC_XOR_C(d, s, k) ((d) ^= (k))
#define EXEC_NONE(d, s, k) ((void)0)
/* At most one jump per run, back to just after the last TARGET. */
#define BRANCH_TAKEN(mask) (branch_enabled && (mul_result & (mask)) == 0)

/* The plain dispatchers' view: operands straight from the instruction. */
#define OP(name) EXEC_##name(r[in->dst], r[in->src], sign_extend32(in->imm))

#if HASHX_HAVE_THREADED_INTERPRETER
/*
 * Threaded dispatch (GNU C "labels as values"): every handler ends with
 * its own indirect jump to the next one, so the CPU's branch predictor
 * learns per-handler patterns instead of sharing one jump for all 512
 * instructions. Measured when it was written: 457 ns per hash against
 * 1035 ns for the switch below (gcc 12, -O2, x86-64).
 */
void hashx_interpret_threaded(const hashx_program *prog, uint64_t r[8])
{
	static const void *const handler[HASHX_OP_COUNT] = {
		[HASHX_OP_UMULH_R] = &&umulh_r, [HASHX_OP_SMULH_R] = &&smulh_r,
		[HASHX_OP_MUL_R] = &&mul_r,     [HASHX_OP_SUB_R] = &&sub_r,
		[HASHX_OP_XOR_R] = &&xor_r,     [HASHX_OP_ADD_RS] = &&add_rs,
		[HASHX_OP_ROR_C] = &&ror_c,     [HASHX_OP_ADD_C] = &&add_c,
		[HASHX_OP_XOR_C] = &&xor_c,     [HASHX_OP_TARGET] = &&target,
		[HASHX_OP_BRANCH] = &&branch,
	};
	const hashx_instr *const end = prog->code + prog->size;
	const hashx_instr *in = prog->code;
	/* Where a jump resumes (analysis.h's rule, followed live). */
	const hashx_instr *after_target =
		prog->code + HASHX_RESUME_WITHOUT_TARGET;
	bool branch_enabled = true;
	uint32_t mul_result = 0;

#define NEXT                                                             \
	do {                                                             \
		if (++in == end)                                         \
			return;                                          \
		goto *handler[in->opcode];                               \
	} while (0)

	if (in == end)
		return;
	goto *handler[in->opcode];
umulh_r:
	OP(UMULH_R);
	NEXT;
smulh_r:
	OP(SMULH_R);
	NEXT;
mul_r:
	OP(MUL_R);
	NEXT;
sub_r:
	OP(SUB_R);
	NEXT;
xor_r:
	OP(XOR_R);
	NEXT;
add_rs:
	OP(ADD_RS);
	NEXT;
ror_c:
	OP(ROR_C);
	NEXT;
add_c:
	OP(ADD_C);
	NEXT;
xor_c:
	OP(XOR_C);
	NEXT;
target:
	after_target =
		prog->code + hashx_resume_after_target((size_t)(in - prog->code));
	NEXT;
branch:
	if (BRANCH_TAKEN(in->imm)) {
		branch_enabled = false;
		in = after_target;
		if (in == end)
			return;
		goto *handler[in->opcode];
	}
	NEXT;
#undef NEXT
}
#endif

#if HASHX_HAVE_PAIRED_INTERPRETER
/*
 * The paired form (interpreter.h says why): kind = first * PAIR_WIDTH +
 * second, each slot an operation's number, NONE for an empty slot and
 * BRANCH (second slot only) for a fused branch. NONE takes TARGET's
 * number: a TARGET does nothing to the registers, and the form drops it.
 */
enum {
	HASHX_OP_NONE = HASHX_OP_TARGET,
	PAIR_WIDTH = HASHX_OP_COUNT,
	PAIR_END = (HASHX_OP_NONE + 1) * PAIR_WIDTH, /* after the last */
	PAIR_KINDS
};

/* The operations a slot can hold (a second slot also BRANCH). Two lists
 * because a macro cannot expand inside its own expansion; each item
 * names an EXEC_ macro above, where its semantics live. */
#define PAIR_FIRST_OPS(X)                                                \
	X(UMULH_R) X(SMULH_R) X(MUL_R) X(SUB_R) X(XOR_R) X(ADD_RS)       \
	X(ROR_C) X(ADD_C) X(XOR_C) X(NONE)
#define PAIR_SECOND_OPS(X, a)                                            \
	X(a, UMULH_R) X(a, SMULH_R) X(a, MUL_R) X(a, SUB_R) X(a, XOR_R)  \
	X(a, ADD_RS) X(a, ROR_C) X(a, ADD_C) X(a, XOR_C) X(a, NONE)      \
	X(a, BRANCH)

static const void *const *pair_handlers(void);

/* Slot `k` of `e` runs `in`: its operands, decoded. */
static inline void pair_slot(hashx_pair *e, int k, const hashx_instr *in)
{
	/* dst and src side by side, as in the instruction: one copy */
	memcpy(e->reg[k], &in->dst, 2);
	e->imm[k] = sign_extend32(in->imm);
}

void hashx_pairs_decode(const hashx_program *prog, hashx_pairs *out)
{
	const void *const *handler = pair_handlers();
	const hashx_instr *code = prog->code;
	size_t size = prog->size < HASHX_PROGRAM_SIZE ? prog->size
						      : HASHX_PROGRAM_SIZE;
	hashx_pair *e = out->elem;
	size_t n = 0;        /* elements made */
	uint16_t resume = 0; /* the element after the last TARGET */
	bool seen_target = false;

	/* One element per step: the choice between one instruction and two
	 * follows the program's layout (TARGETs and BRANCHes), so it is
	 * predicted well, unlike a choice made per instruction. */
	for (size_t i = 0; i < size;) {
		unsigned op = code[i].opcode, second = HASHX_OP_NONE;
		hashx_pair *cur;

		/* A jump without a TARGET resumes at instruction 1, which
		 * therefore starts an element (below). */
		if (i == HASHX_RESUME_WITHOUT_TARGET && !seen_target)
			resume = (uint16_t)n;
		if (op == HASHX_OP_TARGET) {
			/* Where the next jump resumes, so an element starts;
			 * the TARGET itself is dropped. */
			resume = (uint16_t)n;
			seen_target = true;
			i++;
			continue;
		}
		if (op > HASHX_OP_BRANCH) {
			i++; /* unknown: does nothing, as in the switch */
			continue;
		}
		cur = &e[n++];
		if (op == HASHX_OP_BRANCH) {
			/* alone: in the second slot after an empty one */
			second = op;
			op = HASHX_OP_NONE;
			pair_slot(cur, 1, &code[i]);
			i++;
		} else {
			size_t j = i + 1;

			pair_slot(cur, 0, &code[i]);
			if (j < size && j != HASHX_RESUME_WITHOUT_TARGET &&
			    code[j].opcode <= HASHX_OP_BRANCH &&
			    code[j].opcode != HASHX_OP_TARGET) {
				second = code[j].opcode;
				pair_slot(cur, 1, &code[j]);
			}
			i += second == HASHX_OP_NONE ? 1 : 2;
		}
		/* A BRANCH ends its element. Before instruction 1 without a
		 * TARGET, its jump goes to the element that instruction 1
		 * starts, the next one. */
		if (second == HASHX_OP_BRANCH)
			cur->resume = i <= HASHX_RESUME_WITHOUT_TARGET &&
					      !seen_target
				      ? (uint16_t)n
				      : resume;
		/* Each element holds its handler's address: a dispatch is
		 * one load and the jump, not two dependent loads, so a
		 * mispredicted jump is found out sooner. */
		cur->handler = handler[op * PAIR_WIDTH + second];
	}
	e[n].handler = handler[PAIR_END];
}

/* The paired interpreter; with prog NULL it returns its handler table
 * (the labels' addresses exist only inside this function). */
static __attribute__((noinline)) const void *const *
run_pairs(const hashx_pairs *prog, uint64_t r[8])
{
#define PAIR_ENTRY(a, b)                                                 \
	[HASHX_OP_##a * PAIR_WIDTH + HASHX_OP_##b] = &&pair_##a##_##b,
#define PAIR_ROW_ENTRIES(a) PAIR_SECOND_OPS(PAIR_ENTRY, a)
	static const void *const handler[PAIR_KINDS] = {
		PAIR_FIRST_OPS(PAIR_ROW_ENTRIES)[PAIR_END] = &&end,
	};
#undef PAIR_ROW_ENTRIES
#undef PAIR_ENTRY
	if (prog == NULL)
		return handler;

	const hashx_pair *p = prog->elem;
	bool branch_enabled = true;
	uint32_t mul_result = 0;

	/* A fused BRANCH, in the second slot (k: its mask). */
#define EXEC_BRANCH(d, s, k)                                             \
	do {                                                             \
		if (BRANCH_TAKEN(k)) {                                   \
			branch_enabled = false;                          \
			p = prog->elem + p->resume;                      \
			goto *p->handler;                                \
		}                                                        \
	} while (0)
#define PAIR_HANDLER(a, b)                                               \
	pair_##a##_##b : EXEC_##a(r[p->reg[0][0]], r[p->reg[0][1]],       \
				  p->imm[0]);                            \
	EXEC_##b(r[p->reg[1][0]], r[p->reg[1][1]], p->imm[1]);            \
	p++;                                                             \
	goto *p->handler;
#define PAIR_ROW_HANDLERS(a) PAIR_SECOND_OPS(PAIR_HANDLER, a)

	goto *p->handler;
	PAIR_FIRST_OPS(PAIR_ROW_HANDLERS)
end:
	return NULL;
#undef PAIR_ROW_HANDLERS
#undef PAIR_HANDLER
#undef EXEC_BRANCH
}

static const void *const *pair_handlers(void)
{
	return run_pairs(NULL, NULL);
}

void hashx_interpret_pairs(const hashx_pairs *prog, uint64_t r[8])
{
	run_pairs(prog, r);
}
#endif

/* Portable dispatch: one switch per instruction. */
void hashx_interpret_portable(const hashx_program *prog, uint64_t r[8])
{
	size_t after_target = HASHX_RESUME_WITHOUT_TARGET;
	bool branch_enabled = true;
	uint32_t mul_result = 0;

	for (size_t i = 0; i < prog->size;) {
		const hashx_instr *in = &prog->code[i++];

		switch ((hashx_opcode)in->opcode) {
		case HASHX_OP_UMULH_R: OP(UMULH_R); break;
		case HASHX_OP_SMULH_R: OP(SMULH_R); break;
		case HASHX_OP_MUL_R: OP(MUL_R); break;
		case HASHX_OP_SUB_R: OP(SUB_R); break;
		case HASHX_OP_XOR_R: OP(XOR_R); break;
		case HASHX_OP_ADD_RS: OP(ADD_RS); break;
		case HASHX_OP_ROR_C: OP(ROR_C); break;
		case HASHX_OP_ADD_C: OP(ADD_C); break;
		case HASHX_OP_XOR_C: OP(XOR_C); break;
		case HASHX_OP_TARGET:
			after_target = hashx_resume_after_target(i - 1);
			break;
		case HASHX_OP_BRANCH:
			if (BRANCH_TAKEN(in->imm)) {
				branch_enabled = false;
				i = after_target;
			}
			break;
		case HASHX_OP_COUNT:
		default: break;
		}
	}
}

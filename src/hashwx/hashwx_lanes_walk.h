/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_lanes_walk.h - the 8-lane HashWX interpreter, written once over a
 * small vocabulary of 8-lane operations (the model is HashX's,
 * src/hashx/interpreter_lanes_walk.h).
 *
 * Scalar HashWX pays for its loop-back BRANCH: it is taken with
 * probability 1/2, so about every other program mispredicts, and its
 * multiply chains leave the core idle between products. Here one walk of
 * each program does 8 nonces' work. Every lane has its own branch counter
 * (HASHWX_BRANCH_BUDGET per phase) and its own 2 KiB memory; at the
 * BRANCH the lanes that take it (counter not 0, BF = bit 5 of RMCG's
 * result 0) run the body again with only them active, their writes merged
 * into the others' values, until none takes it; then the tail slot runs
 * in every lane. The semantics per lane are hashwx_interpreter.c's.
 *
 * The memory is interleaved: word w of lane l is mem[w] lane l, so the
 * write phase stores a register of all lanes at once and the read phase
 * gathers each lane's word.
 *
 * The vocabulary, all of it static inline and under LANES_TARGET:
 *   LANES_TARGET      the function attribute that enables the instructions
 *   LANES_HASH        the name of the function this file defines
 *   lanes_v           eight 64-bit lanes
 *   lanes_m           a set of lanes
 *   v_set1(u), v_load(p), v_store(p, x)
 *   v_add, v_sub, v_xor, v_or, v_and, v_mullo (the low 64 bits)
 *   v_rotr(x, n), v_shr(x, n), v_sar(x, n)  by a count known at run time
 *   V_ROTL(x, n)      rotation left by a constant
 *   v_lane_ids()      0, 1, ..., 7
 *   v_gather(mem, i)  lane l gets 64-bit word i[l] of mem
 *   m_all()           every lane
 *   m_branch(m, bc, f) the lanes of m whose bc is not 0 and f & 32 is 0
 *   v_dec(bc, m)      bc - 1 in the lanes of m
 *   m_any(m)          m is not empty
 *   v_merge(old, x, m) x in the lanes of m, old in the others
 */
#ifndef LANES_HASH
#error "define the lanes vocabulary before including hashwx_lanes_walk.h"
#endif

#include <stddef.h>

#include "hashwx_interpreter.h"
#include "hashwx_lanes.h"
#include "hashwx_program.h"
#include "hashwx_rng.h"
#include "siphash.h"

_Static_assert(HASHWX_LANES == 8,
	       "a memory word's byte offset is its interleaved index");
_Static_assert(UINT64_C(1) << HASHWX_BRANCH_FLAG_BIT == 32,
	       "m_branch tests bit 5");

#define LANES_FORCE LANES_TARGET __attribute__((always_inline)) static inline

/* siphash.h's SipRound on the words of 8 states at once. */
#define LANES_SIP_ADD(d, s) v[d] = v_add(v[d], v[s]);
#define LANES_SIP_ROTL(d, n) v[d] = V_ROTL(v[d], n);
#define LANES_SIP_XOR(d, s) v[d] = v_xor(v[d], v[s]);

LANES_TARGET static void sipround8(lanes_v v[4])
{
	HASHX_SIPROUND_STEPS(LANES_SIP_ADD, LANES_SIP_ROTL, LANES_SIP_XOR)
}

#undef LANES_SIP_ADD
#undef LANES_SIP_ROTL
#undef LANES_SIP_XOR

/* hashwx_initial_registers in each lane: hashwx_rng_start under the
 * nonce, the first block's words v3..v0, hashwx_rng_mix, the second
 * block's; then R8 and R9. */
LANES_TARGET static void start8(const hashwx_sip_key *key, lanes_v nonce,
				lanes_v r[HASHWX_REGISTERS + 2])
{
	const uint64_t k[4] = {key->k0, key->k1, key->k0, key->k1};
	lanes_v v[4] = {
		v_set1(HASHWX_SIP_C0 ^ k[0]),
		v_set1(HASHWX_SIP_C1 ^ k[1]),
		v_set1(HASHWX_SIP_C2 ^ k[2]),
		v_xor(v_set1(HASHWX_SIP_C3 ^ k[3]), nonce),
	};

	sipround8(v);
	v[0] = v_xor(v[0], nonce);
	v[2] = v_xor(v[2], v_set1(HASHWX_SIP_INIT_MARK));
	for (int i = 0; i < HASHWX_SIP_INIT_ROUNDS; i++)
		sipround8(v);
	for (int b = 0; b < HASHWX_REGISTERS / 4; b++) {
		if (b > 0) {
			for (int w = 0; w < 4; w++)
				v[w] = v_xor(v[w], v_set1(k[w]));
			for (int i = 0; i < HASHWX_SIP_MIX_ROUNDS; i++)
				sipround8(v);
		}
		for (int w = 0; w < 4; w++)
			r[4 * b + w] = v[3 - w];
	}
	r[HASHWX_RMCG_R8] = v_or(v_and(r[4], v_set1(~UINT64_C(7))),
				 v_set1(3));
	r[HASHWX_RMCG_R9] = v_or(v_and(r[7], v_set1(~UINT64_C(7))),
				 v_set1(5));
}

/* An instruction's source: the register in the write phase (mem NULL)
 * and for RMCG, else each lane's memory word it points to. */
LANES_FORCE lanes_v source8(const lanes_v *r, const hashwx_instr *in,
			    const lanes_v *mem)
{
	lanes_v s = r[in->src];

	if (mem == NULL || in->opcode == HASHWX_RMCG)
		return s;
	return v_gather(mem, v_add(v_and(s, v_set1(HASHWX_MEMORY_MASK)),
				   v_lane_ids()));
}

LANES_FORCE lanes_v xas8(const hashwx_instr *in, lanes_v d, lanes_v s)
{
	switch (hashwx_xas_shift(in->opcode)) {
	case HASHWX_ROR:
		d = v_rotr(d, in->imm);
		break;
	case HASHWX_ASR:
		d = v_sar(d, in->imm);
		break;
	default:
		d = v_shr(d, in->imm);
		break;
	}
	switch (hashwx_xas_combine(in->opcode)) {
	case HASHWX_XOR:
		return v_xor(d, s);
	case HASHWX_ADD:
		return v_add(d, s);
	default:
		return v_sub(d, s);
	}
}

LANES_FORCE lanes_v mul8(const hashwx_instr *in, lanes_v d, lanes_v s)
{
	lanes_v imm = v_set1(in->imm);

	switch (in->opcode) {
	case HASHWX_MULOR:
		return v_mullo(v_or(d, imm), s);
	case HASHWX_MULXOR:
		return v_mullo(v_xor(d, imm), s);
	default:
		return v_mullo(v_add(d, imm), s);
	}
}

/* The value slot `k` of class `cls` writes, in every lane; the class is
 * a constant where the shape is expanded, so only the opcode within it
 * is dispatched at run time. */
LANES_FORCE lanes_v slot8(hashwx_slot_class cls, const hashwx_instr *in,
			  const lanes_v *r, const lanes_v *mem)
{
	lanes_v d = r[in->dst], s = source8(r, in, mem);

	switch (cls) {
	case HASHWX_CLASS_RMCG:
		return v_rotr(v_mullo(d, s), in->imm);
	case HASHWX_CLASS_MUL:
		return mul8(in, d, s);
	default:
		return xas8(in, d, s);
	}
}

/*
 * One program in every lane of `groups` groups of 8 (a constant where
 * this is inlined), their chains interleaved so that one group's
 * multiplies and gathers run while the other's wait. The body (the slots
 * before the BRANCH) runs with each group's `active` lanes; a lane leaves
 * the loop when its counter is 0 or RMCG's BF is 1; the body repeats while
 * any lane of any group stays; the slots after the BRANCH run once in
 * every lane.
 */
LANES_FORCE void run8(unsigned groups, const hashwx_program *prog,
		      lanes_v (*r)[HASHWX_REGISTERS + 2],
		      lanes_v (*mem)[HASHWX_MEMORY_WORDS], bool read,
		      lanes_v *bc)
{
	lanes_m active[HASHWX_LANES_GROUPS], taken;
	lanes_v flag[HASHWX_LANES_GROUPS];

	for (unsigned g = 0; g < groups; g++)
		active[g] = m_all();
	do {
#define LANES_BODY(k, cls)                                                \
	if ((k) < HASHWX_BRANCH_SLOT && (cls) != HASHWX_CLASS_HALT) {     \
		const hashwx_instr *in = &prog->code[k];                  \
									  \
		for (unsigned g = 0; g < groups; g++) {                   \
			/* a group whose lanes all left waits */         \
			if (!m_any(active[g]))                            \
				continue;                                 \
			lanes_v x = slot8(cls, in, r[g],                  \
					  read ? mem[g] : NULL);          \
									  \
			r[g][in->dst] = v_merge(r[g][in->dst], x,         \
						active[g]);               \
			if ((cls) == HASHWX_CLASS_RMCG)                   \
				flag[g] = x;                              \
		}                                                         \
	}
		HASHWX_SHAPE(LANES_BODY)
#undef LANES_BODY
		taken = 0;
		for (unsigned g = 0; g < groups; g++) {
			active[g] = m_branch(active[g], bc[g], flag[g]);
			bc[g] = v_dec(bc[g], active[g]);
			taken |= active[g];
		}
	} while (m_any(taken));
#define LANES_TAIL(k, cls)                                                \
	if ((k) > HASHWX_BRANCH_SLOT && (cls) != HASHWX_CLASS_HALT) {     \
		const hashwx_instr *in = &prog->code[k];                  \
									  \
		for (unsigned g = 0; g < groups; g++)                     \
			r[g][in->dst] = slot8(cls, in, r[g],              \
					      read ? mem[g] : NULL);      \
	}
	HASHWX_SHAPE(LANES_TAIL)
#undef LANES_TAIL
}

/* Both phases: the write phase runs on registers only and stores each
 * program's R0..R7 after it at hashwx_memory_word; the read phase takes
 * its sources from memory; each has its own branch budget. */
LANES_FORCE void phases8(unsigned groups, const hashwx_instance *inst,
			 lanes_v (*r)[HASHWX_REGISTERS + 2],
			 lanes_v (*mem)[HASHWX_MEMORY_WORDS])
{
	lanes_v bc[HASHWX_LANES_GROUPS];

	for (unsigned g = 0; g < groups; g++)
		bc[g] = v_set1(HASHWX_BRANCH_BUDGET);
	for (unsigned p = 0; p < HASHWX_PROGRAMS; p++) {
		run8(groups, &inst->programs[p], r, mem, false, bc);
		for (unsigned g = 0; g < groups; g++)
			for (unsigned j = 0; j < HASHWX_REGISTERS; j++)
				mem[g][hashwx_memory_word(p, j)] = r[g][j];
	}
	for (unsigned g = 0; g < groups; g++)
		bc[g] = v_set1(HASHWX_BRANCH_BUDGET);
	for (unsigned p = 0; p < HASHWX_PROGRAMS; p++)
		run8(groups, &inst->programs[p], r, mem, true, bc);
}

/* `groups` groups of 8 nonces from nonce[], their hashes into out[]. */
LANES_FORCE void hash8(unsigned groups, const hashwx_instance *inst,
		       const uint64_t *nonce, uint64_t *out)
{
	lanes_v r[HASHWX_LANES_GROUPS][HASHWX_REGISTERS + 2];
	lanes_v mem[HASHWX_LANES_GROUPS][HASHWX_MEMORY_WORDS];

	for (unsigned g = 0; g < groups; g++)
		start8(&inst->hash_key, v_load(nonce + HASHWX_LANES * g),
		       r[g]);
	phases8(groups, inst, r, mem);
	for (unsigned g = 0; g < groups; g++) {
		/* hashwx_finalize */
		sipround8(r[g]);
		sipround8(r[g] + 4);
		v_store(out + HASHWX_LANES * g,
			v_xor(v_xor(r[g][3], r[g][7]), r[g][HASHWX_RMCG_R9]));
	}
}

LANES_TARGET void LANES_HASH(const hashwx_instance *inst,
			     const uint64_t *nonce, unsigned groups,
			     uint64_t *out)
{
	if (groups >= 2)
		hash8(2, inst, nonce, out);
	else
		hash8(1, inst, nonce, out);
}

#undef LANES_FORCE

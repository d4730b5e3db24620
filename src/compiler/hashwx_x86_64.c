/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_x86_64.c - the HashWX compiler for x86-64 (System V calling
 * convention): one function per instance, the whole hash of a nonce
 * (hashwx_compiler.h).
 *
 * Register mapping, for the whole function: R0..R7 live in r8..r15, the
 * read-only R8 and R9 in rbx and rbp, the branch counter in ecx; rax and
 * rdx are scratch (a memory offset, a source that is also the
 * destination, a 64-bit constant), esi holds the branch flag when the
 * RMCG's destination is written again before the BRANCH, edi the memory
 * mask (the nonce until the registers start). The 2 KiB memory is the
 * function's own stack frame, [rsp, rsp + 2048), filled by pushes.
 *
 * What depends only on the hash key is folded at compile time: the
 * register start walks the SipRound table (siphash.h) over a state whose
 * words are either known constants or machine registers, and emits code
 * only for the steps the nonce reaches. Each program is straight-line
 * code, its BRANCH a backward jump to its first slot.
 */
#include <config.h>

#include <stddef.h>

#include "compiler.h"
#include "hashwx_compiler.h"
#include "x86_64_emit.h"

/* x86 register numbers of the mapping above. */
enum {
	RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSP = 4, RBP = 5, RSI = 6,
	RDI = 7, R8 = 8,
};

/* The machine register of HashWX register r (0..9). */
static int home(unsigned r)
{
	if (r < HASHWX_REGISTERS)
		return R8 + (int)r;
	return r == HASHWX_RMCG_R8 ? RBX : RBP;
}

/*
 * Largest encodings, in bytes, by the program's fixed shape (one RMCG,
 * three MUL, four XAS slots and the BRANCH). Write phase: an RMCG with
 * the flag's copy 11, a MUL whose source is its destination (mov, or
 * imm8, imul) 11, such an XAS 10, the BRANCH (test r8, jnz rel8, sub,
 * jnc rel8, xor) 13, the eight pushes that store the registers 16. Read
 * phase: the offset (mov, and) 5 before each MUL (or, imul [rsp + rax]:
 * 14) and XAS (shift, op reg, [rsp + rax]: 13). The loop body before the
 * jnc is then at most 11 + 3 * 14 + 3 * 13 + 9 = 101 bytes, within
 * rel8's reach. The entry holds the register start (measured: about 550
 * bytes), the exit the finalization and the return. Checked by the code
 * that emits them; tests/test_hashwx_compiler.c compiles the largest
 * programs.
 */
#define RMCG_BYTES 11
#define WRITE_MUL_BYTES 11
#define WRITE_XAS_BYTES 10
#define READ_MUL_BYTES 14
#define READ_XAS_BYTES 13
#define BRANCH_BYTES 13
#define STORES_BYTES (2 * HASHWX_REGISTERS)
#define PROLOGUE_BYTES 640
#define EPILOGUE_BYTES 160
#define WRITE_PROGRAM_BYTES                                              \
	(RMCG_BYTES + 3 * WRITE_MUL_BYTES + 4 * WRITE_XAS_BYTES +          \
	 BRANCH_BYTES + STORES_BYTES)
#define READ_PROGRAM_BYTES                                               \
	(RMCG_BYTES + 3 * READ_MUL_BYTES + 4 * READ_XAS_BYTES + BRANCH_BYTES)
#define PROGRAM_BYTES (WRITE_PROGRAM_BYTES + READ_PROGRAM_BYTES)
#define CODE_CAPACITY                                                    \
	(PROLOGUE_BYTES + HASHWX_PROGRAMS * PROGRAM_BYTES + EPILOGUE_BYTES)
/* The largest loop body (to the end of its jnc) a rel8 reaches back. */
#define LOOP_REACH 128

const hashwx_code_bounds hashwx_x86_64_code_bounds = {
	.capacity = CODE_CAPACITY,
	.fixed = PROLOGUE_BYTES + EPILOGUE_BYTES,
	.per_program = PROGRAM_BYTES,
};

/* ---- instruction encoders (Intel SDM names) ---- */

/* op rm, reg, 64-bit (01 add, 29 sub, 31 xor, 89 mov) */
enum { OP_ADD = 0x01, OP_SUB = 0x29, OP_XOR = 0x31, OP_MOV = 0x89 };

static inline void rr64(x86_emitter *e, unsigned op, int rm, int reg)
{
	x86_rex(e, 1, reg, 0, rm);
	x86_byte(e, op);
	x86_modrm(e, 3, reg, rm);
}

/* op reg, [rsp + rax] (03 add, 2b sub, 33 xor: the load forms) */
static inline void r_mem64(x86_emitter *e, unsigned op, int reg)
{
	x86_rex(e, 1, reg, 0, 0);
	x86_byte(e, op);
	x86_modrm(e, 0, reg, 4);
	x86_byte(e, 0x04); /* SIB: base rsp, index rax, scale 1 */
}

/* imul reg, rm (0f af) */
static inline void imul_rr(x86_emitter *e, int reg, int rm)
{
	x86_rex(e, 1, reg, 0, rm);
	x86_byte(e, 0x0f);
	x86_byte(e, 0xaf);
	x86_modrm(e, 3, reg, rm);
}

/* imul reg, [rsp + rax] */
static inline void imul_mem(x86_emitter *e, int reg)
{
	x86_rex(e, 1, reg, 0, 0);
	x86_byte(e, 0x0f);
	x86_byte(e, 0xaf);
	x86_modrm(e, 0, reg, 4);
	x86_byte(e, 0x04);
}

/* Group-2 shifts by an immediate (c1 /ext ib). */
enum { SH_ROL = 0, SH_ROR = 1, SH_SHR = 5, SH_SAR = 7 };

static inline void shift64(x86_emitter *e, unsigned ext, int reg, unsigned n)
{
	x86_rex(e, 1, 0, 0, reg);
	x86_byte(e, 0xc1);
	x86_modrm(e, 3, (int)ext, reg);
	x86_byte(e, n);
}

/* Group-1 operations with an immediate (83 /ext ib, 81 /ext id). */
enum { G1_ADD = 0, G1_OR = 1, G1_AND = 4, G1_XOR = 6 };

static inline void imm64op(x86_emitter *e, unsigned ext, int reg, int32_t v)
{
	x86_rex(e, 1, 0, 0, reg);
	if (v >= -128 && v < 128) {
		x86_byte(e, 0x83);
		x86_modrm(e, 3, (int)ext, reg);
		x86_byte(e, (uint8_t)v);
	} else {
		x86_byte(e, 0x81);
		x86_modrm(e, 3, (int)ext, reg);
		x86_imm32(e, (uint32_t)v);
	}
}

/* eax = reg & HASHWX_MEMORY_MASK (held in edi during the programs): the
 * offset of a memory operand. */
static inline void mem_offset(x86_emitter *e, int reg)
{
	x86_rr32(e, OP_MOV, RAX, RDI);
	x86_rr32(e, X86_OP_AND_RM_R, RAX, reg);
}

/* ---- the register start: SipHash with constants folded ---- */

/* The generator's state: each word a constant or a machine register. */
typedef struct sip_words {
	bool known[4];
	uint64_t val[4];
	int reg[4];
} sip_words;

/* Word w into its register, if it was a constant. */
static inline void sip_materialize(x86_emitter *e, sip_words *s, int w)
{
	if (s->known[w]) {
		x86_mov_imm64(e, s->reg[w], s->val[w]);
		s->known[w] = false;
	}
}

/* v[d] op= v[s] for op add or xor, on constants where both are. */
static inline void sip_binary(x86_emitter *e, sip_words *s, unsigned op, int d,
		       int src)
{
	if (s->known[d] && s->known[src]) {
		s->val[d] = op == OP_ADD ? s->val[d] + s->val[src]
					 : s->val[d] ^ s->val[src];
		return;
	}
	sip_materialize(e, s, d);
	if (s->known[src]) {
		x86_mov_imm64(e, RAX, s->val[src]);
		rr64(e, op, s->reg[d], RAX);
	} else {
		rr64(e, op, s->reg[d], s->reg[src]);
	}
}

/* v[w] ^= c, a constant. */
static inline void sip_xor_const(x86_emitter *e, sip_words *s, int w, uint64_t c)
{
	if (s->known[w]) {
		s->val[w] ^= c;
		return;
	}
	x86_mov_imm64(e, RAX, c);
	rr64(e, OP_XOR, s->reg[w], RAX);
}

/* One SipRound restricted to `steps` (bit k: table step k). */
static void sip_round(x86_emitter *e, sip_words *s, unsigned steps)
{
	for (int k = 0; k < HASHX_SIPROUND_STEP_COUNT; k++) {
		const hashx_sip_step *st = &hashx_sipround_table[k];

		if (!(steps >> k & 1))
			continue;
		switch (st->op) {
		case HASHX_SIP_ADD:
			sip_binary(e, s, OP_ADD, st->dst, st->arg);
			break;
		case HASHX_SIP_XOR:
			sip_binary(e, s, OP_XOR, st->dst, st->arg);
			break;
		default:
			if (s->known[st->dst])
				s->val[st->dst] = hashx_rotl64(s->val[st->dst],
							       st->arg);
			else
				shift64(e, SH_ROL, s->reg[st->dst], st->arg);
		}
	}
}

/*
 * R0..R7 from the nonce (in rdi), as hashwx_initial_registers() computes
 * them: the stream of the hash key under salt = nonce, its words v3, v2,
 * v1, v0 per block. Each block's state is held in the homes of the
 * registers it becomes, the next block continuing from a copy.
 */
static void emit_register_start(x86_emitter *e, const hashwx_sip_key *key)
{
	sip_words s;

	/* hashwx_rng_start()'s state before its first round: constants,
	 * but for v3, the only word the salt reaches there. */
	s.val[0] = HASHWX_SIP_C0 ^ key->k0;
	s.val[1] = HASHWX_SIP_C1 ^ key->k1;
	s.val[2] = HASHWX_SIP_C2 ^ key->k0;
	s.val[3] = HASHWX_SIP_C3 ^ key->k1;
	for (int w = 0; w < 4; w++) {
		s.known[w] = true;
		s.reg[w] = home((unsigned)(3 - w));
	}
	x86_mov_imm64(e, s.reg[3], s.val[3]);
	rr64(e, OP_XOR, s.reg[3], RDI);
	s.known[3] = false;
	sip_round(e, &s, HASHX_SIP_ALL_STEPS);
	sip_materialize(e, &s, 0);
	rr64(e, OP_XOR, s.reg[0], RDI);
	sip_xor_const(e, &s, 2, HASHWX_SIP_INIT_MARK);
	for (int i = 0; i < HASHWX_SIP_INIT_ROUNDS; i++)
		sip_round(e, &s, HASHX_SIP_ALL_STEPS);
	for (unsigned b = 1; b < HASHWX_REGISTERS / 4; b++) {
		for (int w = 0; w < 4; w++) {
			int to = home(4 * b + 3 - (unsigned)w);

			sip_materialize(e, &s, w);
			rr64(e, OP_MOV, to, s.reg[w]);
			s.reg[w] = to;
		}
		sip_xor_const(e, &s, 0, key->k0);
		sip_xor_const(e, &s, 1, key->k1);
		sip_xor_const(e, &s, 2, key->k0);
		sip_xor_const(e, &s, 3, key->k1);
		for (int i = 0; i < HASHWX_SIP_MIX_ROUNDS; i++)
			sip_round(e, &s, HASHX_SIP_ALL_STEPS);
	}
	for (int w = 0; w < 4; w++)
		sip_materialize(e, &s, w);
	/* R8 and R9 (hashwx_r8, hashwx_r9): odd multipliers. */
	rr64(e, OP_MOV, RBX, home(4));
	imm64op(e, G1_AND, RBX, -8);
	imm64op(e, G1_OR, RBX, 3);
	rr64(e, OP_MOV, RBP, home(7));
	imm64op(e, G1_AND, RBP, -8);
	imm64op(e, G1_OR, RBP, 5);
	x86_mov32_imm(e, RCX, HASHWX_BRANCH_BUDGET);
}

/* The finalization (hashwx_finalize): a SipRound on each half, only the
 * steps v3 needs, then rax = R3 ^ R7 ^ R9. */
static void emit_finalize(x86_emitter *e)
{
	unsigned steps = hashx_sipround_needed(1u << 3);

	for (unsigned h = 0; h < 2; h++) {
		sip_words s;

		for (int w = 0; w < 4; w++) {
			s.known[w] = false;
			s.reg[w] = home(4 * h + (unsigned)w);
		}
		sip_round(e, &s, steps);
	}
	rr64(e, OP_MOV, RAX, home(3));
	rr64(e, OP_XOR, RAX, home(7));
	rr64(e, OP_XOR, RAX, home(HASHWX_RMCG_R9));
}

/* ---- the programs ---- */

/* A MUL slot: dst = (dst op imm) * src, src a register or [src & mask]. */
static inline void emit_mul(x86_emitter *e, const hashwx_instr *in, bool mem)
{
	static const unsigned prepare[] = { G1_OR, G1_XOR, G1_ADD };
	int dst = home(in->dst), src = home(in->src);

	if (mem) {
		mem_offset(e, src);
	} else if (src == dst) {
		rr64(e, OP_MOV, RDX, src);
		src = RDX;
	}
	imm64op(e, prepare[in->opcode - HASHWX_MULOR], dst, in->imm);
	if (mem)
		imul_mem(e, dst);
	else
		imul_rr(e, dst, src);
}

/* An XAS slot: dst = shift(dst, imm) combine src. */
static inline void emit_xas(x86_emitter *e, const hashwx_instr *in, bool mem)
{
	static const unsigned shifts[] = { SH_ROR, SH_SAR, SH_SHR };
	static const unsigned rr_ops[] = { OP_XOR, OP_ADD, OP_SUB };
	static const unsigned load_ops[] = { 0x33, 0x03, 0x2b };
	unsigned combine = hashwx_xas_combine(in->opcode);
	int dst = home(in->dst), src = home(in->src);

	if (mem) {
		mem_offset(e, src);
	} else if (src == dst) {
		rr64(e, OP_MOV, RDX, src);
		src = RDX;
	}
	shift64(e, shifts[hashwx_xas_shift(in->opcode)], dst, in->imm);
	if (mem)
		r_mem64(e, load_ops[combine], dst);
	else
		rr64(e, rr_ops[combine], dst, src);
}

/* Whether a slot between the RMCG and the BRANCH writes the RMCG's
 * destination, so that the flag must be kept aside. */
static bool flag_overwritten(const hashwx_program *prog)
{
	for (unsigned k = 1; k < HASHWX_BRANCH_SLOT; k++)
		if (prog->code[k].dst == prog->code[0].dst)
			return true;
	return false;
}

/*
 * The BRANCH: back to the program's start when BC != 0 and the flag (bit
 * 5 of `flag`) is clear, counting BC down. `sub ecx, 1` borrows exactly
 * when BC was 0: the jump is not taken and ecx is zeroed again.
 */
static inline bool emit_branch(x86_emitter *e, int flag, const uint8_t *start)
{
	x86_rex(e, 0, 0, 0, flag); /* test flag8, 32 (REX: sil, r8b..) */
	x86_byte(e, 0xf6);
	x86_modrm(e, 3, 0, flag);
	x86_byte(e, 1u << HASHWX_BRANCH_FLAG_BIT);
	x86_jnz8(e, 3 + 2 + 2);
	x86_byte(e, 0x83); /* sub ecx, 1 */
	x86_modrm(e, 3, 5, RCX);
	x86_byte(e, 1);
	if (e->pos + 2 - start > LOOP_REACH)
		return false;
	x86_byte(e, 0x73); /* jnc rel8 */
	x86_byte(e, (uint8_t)(start - (e->pos + 1)));
	x86_rr32(e, X86_OP_XOR_RM_R, RCX, RCX);
	return true;
}

static inline void emit_push(x86_emitter *e, int reg)
{
	x86_rex_opt(e, 0, 0, reg);
	x86_byte(e, 0x50 + (reg & 7));
}

static inline void emit_pop(x86_emitter *e, int reg)
{
	x86_rex_opt(e, 0, 0, reg);
	x86_byte(e, 0x58 + (reg & 7));
}

/* One program in one phase; false if it would not fit. */
static bool emit_program(x86_emitter *e, const hashwx_program *prog,
			 bool mem)
{
	const uint8_t *start = e->pos;
	bool keep_flag = flag_overwritten(prog);
	int flag = keep_flag ? RSI : home(prog->code[0].dst);

	if (!x86_room(e, mem ? READ_PROGRAM_BYTES : WRITE_PROGRAM_BYTES))
		return false;
	for (unsigned o = 0; o < HASHWX_OPERAND_SLOTS; o++) {
		unsigned k = hashwx_operand_slot(o);
		const hashwx_instr *in = &prog->code[k];

		if (k == HASHWX_TAIL_SLOT && !emit_branch(e, flag, start))
			return false;
		if (in->opcode == HASHWX_RMCG) {
			imul_rr(e, home(in->dst), home(in->src));
			shift64(e, SH_ROR, home(in->dst), in->imm);
			if (keep_flag)
				x86_rr32(e, OP_MOV, RSI, home(in->dst));
		} else if (hashwx_is_mul(in->opcode)) {
			emit_mul(e, in, mem);
		} else {
			emit_xas(e, in, mem);
		}
	}
	/* The memory fills downwards from its end, R0 first
	 * (hashwx_memory_word): the stack's own order, so pushes store it,
	 * and the write phase leaves rsp at the memory's start. */
	for (unsigned j = 0; !mem && j < HASHWX_REGISTERS; j++)
		emit_push(e, home(j));
	return true;
}

/* The callee-saved registers the mapping uses. */
static const int saved[] = { RBX, RBP, 12, 13, 14, 15 };
#define SAVED_COUNT (sizeof saved / sizeof saved[0])

/* The job handed through hashx_compiler_build (compiler.h): its HashX
 * part first, so the emitter gets the instance back from the pointer. */
typedef struct hashwx_job {
	hashx_compile_job base;
	const hashwx_instance *inst;
} hashwx_job;

static uint8_t *emit_hash(uint8_t *start, uint8_t *end,
			  hashx_compile_job *base)
{
	const hashwx_instance *inst = ((hashwx_job *)base)->inst;
	x86_emitter e = { start, end };

	if (!x86_room(&e, PROLOGUE_BYTES))
		return NULL;
	for (size_t i = 0; i < SAVED_COUNT; i++)
		emit_push(&e, saved[i]);
	emit_register_start(&e, &inst->hash_key);
	x86_mov32_imm(&e, RDI, HASHWX_MEMORY_MASK);
	for (int phase = 0; phase < 2; phase++) {
		for (unsigned p = 0; p < HASHWX_PROGRAMS; p++)
			if (!emit_program(&e, &inst->programs[p], phase == 1))
				return NULL;
		x86_mov32_imm(&e, RCX, HASHWX_BRANCH_BUDGET);
	}
	if (!x86_room(&e, EPILOGUE_BYTES))
		return NULL;
	emit_finalize(&e);
	x86_add_imm32(&e, RSP, HASHWX_MEMORY_BYTES);
	for (size_t i = SAVED_COUNT; i-- > 0;)
		emit_pop(&e, saved[i]);
	x86_byte(&e, 0xc3); /* ret */
	return e.pos;
}

bool hashwx_compiler_available(void)
{
	return true;
}

/* Object to function pointers: allowed by POSIX (as for dlsym). */
hashwx_hash_fn *hashwx_compile(const hashwx_instance *inst,
			       hashx_code_buffer *code)
{
	hashwx_job job = { .inst = inst };

	return (hashwx_hash_fn *)hashx_compiler_build(code, CODE_CAPACITY,
						      emit_hash, &job.base);
}

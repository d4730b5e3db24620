/*
 * x86_64.c - the HashX compiler for x86-64 (System V calling convention).
 *
 * Register mapping: HashX r0..r7 live in r8..r15 for the whole program, so
 * every instruction needs a REX prefix but none needs a spill. rax and rdx
 * are the scratch pair of the 128-bit multiplications; edx also keeps the
 * low half of the last high multiplication, which is what BRANCH tests. ecx
 * is 0 while the program's one jump is still available and all ones after.
 * rdi holds the register file's address throughout.
 *
 * Every emit_* function writes one instruction form; the bytes are built
 * from named opcodes and ModRM/SIB/REX helpers, so each line can be read
 * against the Intel SDM.
 */
#include <config.h>

#include <string.h>

#include "compiler.h"

/* Largest encoding of one HashX instruction (BRANCH), in bytes, and of the
 * out-of-line stub a BRANCH adds after the epilogue. */
#define MAX_INSTR_BYTES 16
#define STUB_BYTES 8
#define PROLOGUE_BYTES 64
#define EPILOGUE_BYTES 64
/* The emitted code always fits here; checked before every instruction. */
#define CODE_CAPACITY                                                  \
	(PROLOGUE_BYTES + HASHX_PROGRAM_SIZE * (MAX_INSTR_BYTES + STUB_BYTES) + \
	 EPILOGUE_BYTES)

/* x86 register numbers. */
enum { RAX = 0, RCX = 1, RDX = 2, RDI = 7, R8 = 8 };

/* Opcode bytes (Intel SDM names). */
enum {
	OP_ADD_SUB_XOR_IMM32 = 0x81, /* 81 /0 add, /6 xor r/m64, imm32 */
	OP_SUB_RM_R = 0x29,          /* sub r/m64, r64 */
	OP_XOR_RM_R = 0x31,          /* xor r/m64, r64 (xor r/m32, r32) */
	OP_OR_RM_R = 0x09,           /* or r/m32, r32 */
	OP_MOV_RM_R = 0x89,          /* mov r/m64, r64 */
	OP_MOV_R_RM = 0x8b,          /* mov r64, r/m64 */
	OP_LEA = 0x8d,               /* lea r64, m */
	OP_SHIFT_IMM8 = 0xc1,        /* c1 /1 ror r/m64, imm8 */
	OP_GROUP3 = 0xf7,            /* f7 /0 test imm32, /4 mul, /5 imul */
	OP_GROUP5 = 0xff,            /* ff /1 dec r/m32 */
	OP_TWO_BYTE = 0x0f,          /* 0f af: imul r64, r/m64 */
	OP_IMUL_R_RM = 0xaf,
	OP_JZ_REL32 = 0x84,          /* 0f 84: jz rel32 */
	OP_JMP_REL32 = 0xe9,
	OP_PUSH_R = 0x50,            /* 50+r, with REX.B for r8..r15 */
	OP_POP_R = 0x58,
	OP_RET = 0xc3,
};

/* ModRM "reg" field values that select an operation in opcode groups. */
enum {
	EXT_ADD = 0, EXT_ROR = 1, EXT_DEC = 1, EXT_MUL = 4, EXT_IMUL = 5,
	EXT_XOR = 6, EXT_TEST = 0,
};

typedef struct emitter {
	uint8_t *pos;
	uint8_t *end;
} emitter;

static void byte(emitter *e, unsigned b)
{
	*e->pos++ = (uint8_t)b;
}

static void imm32(emitter *e, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		byte(e, (v >> (8 * i)) & 0xff);
}

/* REX prefix: W = 64-bit operand, R/X/B extend ModRM.reg, SIB.index and
 * ModRM.rm/SIB.base to r8..r15. */
static void rex(emitter *e, int w, int reg, int index, int base)
{
	byte(e, 0x40 | (w << 3) | ((reg >> 3) << 2) | ((index >> 3) << 1) |
			(base >> 3));
}

static void modrm(emitter *e, int mod, int reg, int rm)
{
	byte(e, (unsigned)(mod << 6 | (reg & 7) << 3 | (rm & 7)));
}

/* An instruction "op reg, rm" on two 64-bit registers. */
static void reg_reg(emitter *e, unsigned op, int reg, int rm)
{
	rex(e, 1, reg, 0, rm);
	byte(e, op);
	modrm(e, 3, reg, rm);
}

/* A register-file access [rdi + 8*i] to or from x86 register `reg`. */
static void regfile(emitter *e, unsigned op, int reg, int i)
{
	rex(e, 1, reg, 0, RDI);
	byte(e, op);
	modrm(e, 1, reg, RDI); /* mod 01: [rdi + disp8] */
	byte(e, (unsigned)(8 * i));
}

static int x86_reg(int hashx_reg)
{
	return R8 + hashx_reg;
}

/* dst = high 64 bits of dst * src: mov rax, dst; mul/imul src (rdx:rax =
 * rax * src); mov dst, rdx. edx keeps the low half for BRANCH. */
static void emit_mulh(emitter *e, int ext, int dst, int src)
{
	reg_reg(e, OP_MOV_RM_R, x86_reg(dst), RAX);
	rex(e, 1, 0, 0, x86_reg(src));
	byte(e, OP_GROUP3);
	modrm(e, 3, ext, x86_reg(src));
	reg_reg(e, OP_MOV_RM_R, RDX, x86_reg(dst));
}

/* imul dst, src */
static void emit_mul(emitter *e, int dst, int src)
{
	rex(e, 1, x86_reg(dst), 0, x86_reg(src));
	byte(e, OP_TWO_BYTE);
	byte(e, OP_IMUL_R_RM);
	modrm(e, 3, x86_reg(dst), x86_reg(src));
}

/* sub dst, src / xor dst, src */
static void emit_alu_reg(emitter *e, unsigned op, int dst, int src)
{
	reg_reg(e, op, x86_reg(src), x86_reg(dst));
}

/* lea dst, [dst + src * 2^shift]. With base r13, mod 00 would mean "no
 * base, disp32", so r13 takes mod 01 and a zero displacement byte. The
 * generator never makes r5 (r13) the destination, for this reason; the
 * emitter still handles it, to be correct for any program. */
static void emit_add_rs(emitter *e, int dst, int src, unsigned shift)
{
	int base = x86_reg(dst);
	int needs_disp = (base & 7) == 5;

	rex(e, 1, base, x86_reg(src), base);
	byte(e, OP_LEA);
	modrm(e, needs_disp ? 1 : 0, base, 4); /* rm 100: SIB follows */
	byte(e, (unsigned)(shift << 6 | (x86_reg(src) & 7) << 3 | (base & 7)));
	if (needs_disp)
		byte(e, 0);
}

/* ror dst, count */
static void emit_ror(emitter *e, int dst, unsigned count)
{
	rex(e, 1, 0, 0, x86_reg(dst));
	byte(e, OP_SHIFT_IMM8);
	modrm(e, 3, EXT_ROR, x86_reg(dst));
	byte(e, count);
}

/* add dst, imm32 / xor dst, imm32: the CPU sign-extends the immediate to
 * 64 bits, exactly HashX's semantics. */
static void emit_alu_imm(emitter *e, int ext, int dst, uint32_t imm)
{
	rex(e, 1, 0, 0, x86_reg(dst));
	byte(e, OP_ADD_SUB_XOR_IMM32);
	modrm(e, 3, ext, x86_reg(dst));
	imm32(e, imm);
}

/*
 * BRANCH: if the jump is still available and (edx & mask) == 0, use it up
 * and jump back. The rare taken case (1 in 16) goes through a stub placed
 * after the epilogue, so the usual path is straight fall-through:
 *     or   edx, ecx       ; ecx = ~0 once used: the test then fails
 *     test edx, mask
 *     jz   stub           ; patched when the stub is emitted
 *   ...
 *   stub:
 *     dec  ecx            ; 0 -> ~0
 *     jmp  target
 */
typedef struct branch_stub {
	uint8_t *jz_rel32;     /* displacement to patch */
	const uint8_t *target; /* where the jump resumes */
} branch_stub;

static void emit_branch(emitter *e, uint32_t mask, const uint8_t *target,
			branch_stub *stub)
{
	byte(e, OP_OR_RM_R);
	modrm(e, 3, RCX, RDX);
	byte(e, OP_GROUP3);
	modrm(e, 3, EXT_TEST, RDX);
	imm32(e, mask);
	byte(e, OP_TWO_BYTE);
	byte(e, OP_JZ_REL32);
	stub->jz_rel32 = e->pos;
	stub->target = target;
	imm32(e, 0);
}

static void rel32_at(uint8_t *at, const uint8_t *from_end, const uint8_t *to)
{
	uint32_t rel = (uint32_t)(to - from_end);

	for (int i = 0; i < 4; i++)
		at[i] = (uint8_t)(rel >> (8 * i));
}

static void emit_stub(emitter *e, const branch_stub *stub)
{
	rel32_at(stub->jz_rel32, stub->jz_rel32 + 4, e->pos);
	byte(e, OP_GROUP5);
	modrm(e, 3, EXT_DEC, RCX);
	byte(e, OP_JMP_REL32);
	rel32_at(e->pos, e->pos + 4, stub->target);
	e->pos += 4;
}

/* Saves r12-r15 (callee-saved), loads r8-r15 from the register file, and
 * clears edx (no multiplication yet) and ecx (jump available). */
static void emit_prologue(emitter *e)
{
	for (int r = 12; r <= 15; r++) {
		rex(e, 0, 0, 0, r);
		byte(e, OP_PUSH_R + (r & 7));
	}
	for (int i = 0; i < 8; i++)
		regfile(e, OP_MOV_R_RM, x86_reg(i), i);
	byte(e, OP_XOR_RM_R);
	modrm(e, 3, RDX, RDX);
	byte(e, OP_XOR_RM_R);
	modrm(e, 3, RCX, RCX);
}

static void emit_epilogue(emitter *e)
{
	for (int i = 0; i < 8; i++)
		regfile(e, OP_MOV_RM_R, x86_reg(i), i);
	for (int r = 15; r >= 12; r--) {
		rex(e, 0, 0, 0, r);
		byte(e, OP_POP_R + (r & 7));
	}
	byte(e, OP_RET);
}

static void emit_instr(emitter *e, const hashx_instr *in,
		       const uint8_t *jump_target, branch_stub *stub)
{
	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_UMULH_R: emit_mulh(e, EXT_MUL, in->dst, in->src); break;
	case HASHX_OP_SMULH_R: emit_mulh(e, EXT_IMUL, in->dst, in->src); break;
	case HASHX_OP_MUL_R: emit_mul(e, in->dst, in->src); break;
	case HASHX_OP_SUB_R: emit_alu_reg(e, OP_SUB_RM_R, in->dst, in->src); break;
	case HASHX_OP_XOR_R: emit_alu_reg(e, OP_XOR_RM_R, in->dst, in->src); break;
	case HASHX_OP_ADD_RS: emit_add_rs(e, in->dst, in->src, in->imm); break;
	case HASHX_OP_ROR_C: emit_ror(e, in->dst, in->imm); break;
	case HASHX_OP_ADD_C: emit_alu_imm(e, EXT_ADD, in->dst, in->imm); break;
	case HASHX_OP_XOR_C: emit_alu_imm(e, EXT_XOR, in->dst, in->imm); break;
	case HASHX_OP_TARGET: break; /* only a jump destination */
	case HASHX_OP_BRANCH: emit_branch(e, in->imm, jump_target, stub); break;
	case HASHX_OP_COUNT:
	default: break;
	}
}

/* Emits the whole function; false if it would not fit (it always does:
 * CODE_CAPACITY covers the largest program, and the check before each
 * instruction keeps room for it, the pending stubs and the epilogue). */
static bool emit_program(emitter *e, const hashx_program *prog)
{
	branch_stub stubs[HASHX_PROGRAM_SIZE];
	size_t nstubs = 0;
	/* Where a jump resumes: after the last TARGET, or at instruction 1
	 * when none ran (the interpreter's rule). */
	const uint8_t *resume = NULL;
	size_t resume_index = 1;

	emit_prologue(e);
	for (size_t i = 0; i < prog->size; i++) {
		const hashx_instr *in = &prog->code[i];
		size_t reserve = MAX_INSTR_BYTES + EPILOGUE_BYTES +
				 STUB_BYTES * (nstubs + 1);

		if ((size_t)(e->end - e->pos) < reserve)
			return false;
		if (i == resume_index)
			resume = e->pos;
		if (in->opcode == HASHX_OP_TARGET)
			resume_index = i + 1;
		/* A branch right after its TARGET resumes at itself. */
		emit_instr(e, in, resume != NULL ? resume : e->pos,
			   &stubs[nstubs]);
		nstubs += in->opcode == HASHX_OP_BRANCH;
	}
	emit_epilogue(e);
	for (size_t k = 0; k < nstubs; k++)
		emit_stub(e, &stubs[k]);
	return true;
}

hashx_compiled_fn *hashx_compile(const hashx_program *prog,
				 hashx_code_buffer *buf)
{
	emitter e;
	hashx_compiled_fn *fn;

	if (!hashx_code_buffer_writable(buf, CODE_CAPACITY))
		return NULL;
	e.pos = buf->mem;
	e.end = buf->mem + buf->size;
	if (!emit_program(&e, prog) || !hashx_code_buffer_executable(buf))
		return NULL;
	/* Object to function pointer: allowed by POSIX (as for dlsym). */
	memcpy(&fn, &buf->mem, sizeof fn);
	return fn;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_program.h - HashWX's virtual machine: its instruction set, the fixed
 * shape of a program, and the sizes every part of HashWX agrees on
 * (doc/hashwx.md, sections 1 and 2).
 *
 * A HashWX instance is 32 programs of 10 instructions in one fixed shape
 * (HASHWX_SHAPE below) and a SipHash key. Unlike HashX there is no CPU
 * model and no rejection: every seed gives an instance, each slot's
 * opcode class is fixed, and only the opcodes within a class, the
 * registers and the immediates are drawn.
 */
#ifndef HASHWX_PROGRAM_H
#define HASHWX_PROGRAM_H

#include <stdint.h>

/* The opcodes, numbered as the specification numbers them. */
typedef enum hashwx_opcode {
	HASHWX_MULOR,  /* dst = (dst | imm) * [src] */
	HASHWX_MULXOR, /* dst = (dst ^ imm) * [src] */
	HASHWX_MULADD, /* dst = (dst + imm) * [src] */
	HASHWX_RMCG,   /* dst = (dst * src) >>> imm; BF = bit 5 of dst */
	HASHWX_XORROR, /* dst = (dst >>> imm) ^ [src]  (rotation) */
	HASHWX_ADDROR, /* dst = (dst >>> imm) + [src] */
	HASHWX_SUBROR, /* dst = (dst >>> imm) - [src] */
	HASHWX_XORASR, /* dst = (dst >> imm) ^ [src]   (arithmetic shift) */
	HASHWX_ADDASR, /* dst = (dst >> imm) + [src] */
	HASHWX_SUBASR, /* dst = (dst >> imm) - [src] */
	HASHWX_XORLSR, /* dst = (dst >> imm) ^ [src]   (logical shift) */
	HASHWX_ADDLSR, /* dst = (dst >> imm) + [src] */
	HASHWX_SUBLSR, /* dst = (dst >> imm) - [src] */
	HASHWX_BRANCH, /* if BC != 0 and BF == 0: BC--, restart the program */
	HASHWX_HALT,   /* end of the program */
	HASHWX_OPCODE_COUNT
} hashwx_opcode;

/*
 * The nine XOR/ADD/SUB opcodes ("XAS") are three shift kinds times three
 * combining operations: opcode = HASHWX_XORROR + 3 * kind + op. Back-ends
 * decode them with these two functions rather than nine cases.
 */
typedef enum hashwx_shift { HASHWX_ROR, HASHWX_ASR, HASHWX_LSR } hashwx_shift;
typedef enum hashwx_combine { HASHWX_XOR, HASHWX_ADD, HASHWX_SUB } hashwx_combine;

static inline hashwx_shift hashwx_xas_shift(unsigned op)
{
	return (hashwx_shift)((op - HASHWX_XORROR) / 3);
}

static inline hashwx_combine hashwx_xas_combine(unsigned op)
{
	return (hashwx_combine)((op - HASHWX_XORROR) % 3);
}

static inline int hashwx_is_xas(unsigned op)
{
	return op >= HASHWX_XORROR && op <= HASHWX_SUBLSR;
}

static inline int hashwx_is_mul(unsigned op)
{
	return op <= HASHWX_MULADD;
}

/* The VM: 8 read-write registers R0..R7, two read-only ones R8 and R9
 * (RMCG's multipliers), and 2048 bytes of read-only memory, written
 * between programs in the first phase. */
#define HASHWX_REGISTERS 8
#define HASHWX_RMCG_R8 8
#define HASHWX_RMCG_R9 9
#define HASHWX_MEMORY_BYTES 2048
#define HASHWX_MEMORY_WORDS (HASHWX_MEMORY_BYTES / 8)
/* A memory operand is the register's value masked to an aligned offset. */
#define HASHWX_MEMORY_MASK (HASHWX_MEMORY_BYTES - 8)

/* An instance: 32 programs, run twice (the write and the read phase);
 * each phase may take 32 branches in all, across its programs. */
#define HASHWX_PROGRAMS 32
#define HASHWX_BRANCH_BUDGET 32
#define HASHWX_PROGRAM_SIZE 10

/* The 64-bit words of the generator's stream that make one program. */
#define HASHWX_WORDS_PER_PROGRAM 16

/* The classes of the program's slots. */
typedef enum hashwx_slot_class {
	HASHWX_CLASS_RMCG,
	HASHWX_CLASS_XAS,
	HASHWX_CLASS_MUL,
	HASHWX_CLASS_BRANCH,
	HASHWX_CLASS_HALT,
} hashwx_slot_class;

/*
 * The fixed shape of every program (specification table 2.2.1): slot k's
 * class. Slots 0..6 and 8 are "operand slots" (a destination and an
 * immediate each); the operand slot number o (0..7) of slot k is k for
 * k < 7 and 7 for slot 8. The BRANCH at slot 7 restarts at slot 0, so the
 * loop body is slots 0..6 and slot 8 runs once per program.
 */
#define HASHWX_SHAPE(X)                                                   \
	X(0, HASHWX_CLASS_RMCG) X(1, HASHWX_CLASS_XAS)                     \
	X(2, HASHWX_CLASS_MUL) X(3, HASHWX_CLASS_XAS)                      \
	X(4, HASHWX_CLASS_MUL) X(5, HASHWX_CLASS_XAS)                      \
	X(6, HASHWX_CLASS_MUL) X(7, HASHWX_CLASS_BRANCH)                   \
	X(8, HASHWX_CLASS_XAS) X(9, HASHWX_CLASS_HALT)
#define HASHWX_BRANCH_SLOT 7
#define HASHWX_OPERAND_SLOTS 8
#define HASHWX_TAIL_SLOT 8

/* The slot of operand slot `o`. */
static inline unsigned hashwx_operand_slot(unsigned o)
{
	return o < HASHWX_BRANCH_SLOT ? o : HASHWX_TAIL_SLOT;
}

/* The bit of RMCG's result that becomes the branch flag. */
#define HASHWX_BRANCH_FLAG_BIT 5

/* One instruction of a generated program; BRANCH and HALT ignore the
 * operands. `src` is 0..7, or 8/9 for RMCG. */
typedef struct hashwx_instr {
	uint8_t opcode; /* hashwx_opcode */
	uint8_t dst;
	uint8_t src;
	uint8_t imm;
} hashwx_instr;

typedef struct hashwx_program {
	hashwx_instr code[HASHWX_PROGRAM_SIZE];
} hashwx_program;

#endif

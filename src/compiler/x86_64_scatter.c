/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_scatter.c - Equi-X's stage 0 table update as x86-64 code
 * (x86_64_scatter.h), for the scalar scatter form and the fused AVX2
 * batch form.
 */
#include <config.h>

#include "x86_64_scatter.h"

#define byte x86_byte
#define imm32 x86_imm32
#define rex x86_rex
#define modrm x86_modrm
#define mov_imm64 x86_mov_imm64

/* x86 registers. */
enum { RAX = 0, RCX = 1, RDX = 2, R8 = 8 };

/* Opcode bytes (Intel SDM names) and ModRM "reg" extensions. */
enum {
	OP_ADD_RM_R = 0x01,          /* add r/m32, r32 */
	OP_MOV_RM_R = 0x89,          /* mov r/m, r */
	OP_LEA = 0x8d,               /* lea r32, m */
	OP_ADD_SUB_XOR_IMM32 = 0x81, /* 81 /7: cmp r/m32, imm32 */
	OP_SHIFT_IMM8 = 0xc1,        /* c1 /5: shr r/m64, imm8 */
	OP_TWO_BYTE = 0x0f,
	OP_MOVZX_BYTE = 0xb6,        /* 0f b6: movzx r32, r/m8 */
	OP_MOVZX_WORD = 0xb7,        /* 0f b7: movzx r32, r/m16 */
	OP_IMUL_IMM32 = 0x69,        /* imul r32, r/m32, imm32 */
	OP_OPERAND16 = 0x66,         /* operand-size prefix: 16-bit */
	OP_JAE_REL8 = 0x73,
	EXT_CMP = 7,
	EXT_SHR = 5,
};

/* A 16-bit or 64-bit access [base + index * scale] (x86 registers, base
 * not rbp/r13, index not rsp). */
static void mem_sib(x86_emitter *e, int w16, int w64, unsigned op, int reg,
		    int base, int index, int scale_log2)
{
	if (w16)
		byte(e, OP_OPERAND16);
	rex(e, w64, reg, index, base);
	if (op > 0xff)
		byte(e, op >> 8);
	byte(e, op & 0xff);
	modrm(e, 0, reg, 4);
	byte(e, (unsigned)(scale_log2 << 6 | (index & 7) << 3 | (base & 7)));
}

/*
 * With the hash's first word v in `value` and the input in `index`
 * (neither rax, rcx, rdx nor r9..r11, which are scratch here):
 *     movzx eax, value_b           ; bucket
 *     mov   r9, counts
 *     movzx edx, word [r9+rax*2]   ; its item count
 *     cmp   edx, capacity
 *     jae   skip                   ; full: the item is dropped
 *     lea   ecx, [rdx+1]
 *     mov   [r9+rax*2], cx
 *     imul  eax, eax, capacity
 *     add   eax, edx               ; item slot
 *     mov   r10, idx
 *     mov   [r10+rax*2], index_w   ; the input, as a 16-bit index
 *     shr   value, 8
 *     mov   r11, data
 *     mov   [r11+rax*8], value     ; the rest of the value
 *   skip:
 * The three `mov rN, address` are left out when `load` is false: the
 * caller has put the table's addresses in r9..r11 once for several items
 * (hashx_x86_64_scatter_table), as the fused batch form does at the end
 * of a group.
 */
/* The byte register (movzx eax, value_b) and shift (shr value, 8) below
 * are the bucket bits: the only width this emitter takes. */
#define X86_SCATTER_BUCKET_BITS 8

enum { R9 = R8 + 1, R10 = R8 + 2, R11 = R8 + 3 };

bool hashx_x86_64_scatter_fits(const hashx_scatter *t)
{
	return t != NULL && t->bucket_bits == X86_SCATTER_BUCKET_BITS;
}

void hashx_x86_64_scatter_table(x86_emitter *e, const hashx_scatter *t)
{
	mov_imm64(e, R9, (uint64_t)(uintptr_t)t->counts);
	mov_imm64(e, R10, (uint64_t)(uintptr_t)t->idx);
	mov_imm64(e, R11, (uint64_t)(uintptr_t)t->data);
}

void hashx_x86_64_scatter_item(x86_emitter *e, const hashx_scatter *t,
			       int value, int index, bool load)
{
	uint8_t *jae_rel8;

	rex(e, 0, RAX, 0, value);
	byte(e, OP_TWO_BYTE);
	byte(e, OP_MOVZX_BYTE);
	modrm(e, 3, RAX, value);
	if (load)
		mov_imm64(e, R9, (uint64_t)(uintptr_t)t->counts);
	mem_sib(e, 0, 0, OP_TWO_BYTE << 8 | OP_MOVZX_WORD, RDX, R9, RAX, 1);
	byte(e, OP_ADD_SUB_XOR_IMM32);
	modrm(e, 3, EXT_CMP, RDX);
	imm32(e, t->capacity);
	byte(e, OP_JAE_REL8);
	jae_rel8 = e->pos++;
	byte(e, OP_LEA);
	modrm(e, 1, RCX, RDX);
	byte(e, 1);
	mem_sib(e, 1, 0, OP_MOV_RM_R, RCX, R9, RAX, 1);
	byte(e, OP_IMUL_IMM32);
	modrm(e, 3, RAX, RAX);
	imm32(e, t->capacity);
	byte(e, OP_ADD_RM_R);
	modrm(e, 3, RDX, RAX);
	if (load)
		mov_imm64(e, R10, (uint64_t)(uintptr_t)t->idx);
	mem_sib(e, 1, 0, OP_MOV_RM_R, index, R10, RAX, 1);
	rex(e, 1, 0, 0, value);
	byte(e, OP_SHIFT_IMM8);
	modrm(e, 3, EXT_SHR, value);
	byte(e, X86_SCATTER_BUCKET_BITS);
	if (load)
		mov_imm64(e, R11, (uint64_t)(uintptr_t)t->data);
	mem_sib(e, 0, 1, OP_MOV_RM_R, value, R11, RAX, 3);
	*jae_rel8 = (uint8_t)(e->pos - (jae_rel8 + 1));
}

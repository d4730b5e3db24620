/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * code_buffer.h - executable memory that is never writable and executable
 * at the same address (W^X).
 *
 * Two ways to get there, chosen when the buffer is first mapped:
 *
 * - Flipped (the default, and wherever the alias is not built or the
 *   system refuses it): one private mapping, read-write while it is
 *   filled, then read-execute; to compile another program it is flipped
 *   back to read-write first. No page is ever writable and executable at
 *   once, and no other writable mapping of the code exists: once the code
 *   runs, changing it takes a system call (mprotect(), mmap(), a write to
 *   /proc/self/mem), not just a stray or hostile memory write.
 * - Aliased (opt-in, `--enable-code-alias`; x86-64 Linux only): the same
 *   shared pages mapped twice for the buffer's whole life, once read-write
 *   (`rw-s`, where the compiler writes) and once read-execute (`r-xs`,
 *   where the code runs). No single mapping is both, but the code is
 *   writable through the first address while it runs (as in .NET's W^X):
 *   a memory-write bug that reaches that address rewrites live code.
 *   What it buys: compiling another program makes no system call, where
 *   each mprotect() of the flipped form flushes the TLB of every CPU the
 *   process runs on (doc/performance.md section 4 has the figures).
 *
 * - WebAssembly (HASHX_JIT_WASM): no executable memory at all. The buffer
 *   is plain heap memory that holds a module; "executable" is the host
 *   compiling it into a slot of the function table (wasm_host.h), after
 *   which the bytes are freed (the host keeps its own copy), and writing
 *   again first empties that slot.
 *
 * Systems that refuse executable memory (SELinux execmem, PaX or NetBSD
 * MPROTECT, PR_SET_MDWE) make one of these steps fail, and the caller then
 * falls back to the interpreter.
 */
#ifndef HASHX_CODE_BUFFER_H
#define HASHX_CODE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Test hook: make the named step fail as a hostile system would. */
enum {
	HASHX_FAULT_MAP = 1,        /* mmap refuses the buffer */
	HASHX_FAULT_WRITABLE = 2,   /* mprotect refuses read-write */
	HASHX_FAULT_EXECUTABLE = 4, /* mprotect refuses read-execute */
	HASHX_FAULT_ALIAS = 8,      /* no second view: the flipped form */
};

typedef struct hashx_code_buffer {
	uint8_t *mem;    /* where the code runs; NULL until first mapped
			  * (in WebAssembly, also once installed) */
	uint8_t *write;  /* where it is written: mem itself when flipped */
	size_t size;     /* bytes mapped, a multiple of the page size */
	size_t used;     /* bytes the last build wrote; 0 if it failed */
	bool executable; /* filled and runnable, else being written */
	bool aliased;    /* two views of the same pages */
	unsigned forks;  /* aliased: forks seen when mapped (code_buffer.c) */
	unsigned faults; /* HASHX_FAULT_* to simulate (tests only) */
	uint32_t slot;   /* WebAssembly: the function table slot the host
			  * installed the module in, 0 for none */
} hashx_code_buffer;

/* Makes the buffer (at least `size` bytes) writable at b->write, mapping it
 * the first time. False if the system refuses. */
bool hashx_code_buffer_writable(hashx_code_buffer *b, size_t size);

/* Makes a filled buffer runnable at b->mem. False if the system refuses. */
bool hashx_code_buffer_executable(hashx_code_buffer *b);

/* Unmaps the buffer; it can be mapped again later. */
void hashx_code_buffer_release(hashx_code_buffer *b);

#endif

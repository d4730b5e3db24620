/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * code_buffer.h - executable memory that is never writable and executable
 * at the same address (W^X).
 *
 * Two ways to get there, chosen when the buffer is first mapped:
 *
 * - Aliased (x86-64 Linux, unless configured --disable-code-alias): the
 *   same shared pages mapped twice, once read-write (where the compiler
 *   writes) and once read-execute (where the code runs). Compiling
 *   another program makes no system call. Each mprotect() of the other
 *   way flushes the TLB of every CPU the process runs on; on a virtual
 *   machine the pair cost 12 to 30 us, most of a compile
 *   (doc/performance.md section 4.3). The price: the code is writable
 *   through the second address while it runs (as in .NET's W^X), so
 *   `--disable-code-alias` keeps the strict form below.
 * - Flipped (elsewhere, or when the system refuses the alias): one
 *   mapping, read-write while it is filled, then read-execute; to compile
 *   another program it is flipped back to read-write first.
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

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * code_buffer.h - executable memory that is never writable and executable
 * at the same time (W^X).
 *
 * A buffer is mapped read-write on first use, filled, then flipped to
 * read-execute; to compile another program it is flipped back to
 * read-write first. Systems that refuse executable memory (SELinux execmem,
 * PaX or NetBSD MPROTECT) make one of these steps fail, and the caller then
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
};

typedef struct hashx_code_buffer {
	uint8_t *mem;    /* NULL until first mapped */
	size_t size;     /* bytes mapped, a multiple of the page size */
	size_t used;     /* bytes the last build wrote; 0 if it failed */
	bool executable; /* current protection: read-execute, else read-write */
	unsigned faults; /* HASHX_FAULT_* to simulate (tests only) */
} hashx_code_buffer;

/* Makes the buffer (at least `size` bytes) read-write, mapping it the first
 * time. False if the system refuses. */
bool hashx_code_buffer_writable(hashx_code_buffer *b, size_t size);

/* Flips a filled buffer to read-execute. False if the system refuses. */
bool hashx_code_buffer_executable(hashx_code_buffer *b);

/* Unmaps the buffer; it can be mapped again later. */
void hashx_code_buffer_release(hashx_code_buffer *b);

#endif

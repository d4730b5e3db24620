/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * code_buffer.c - W^X executable memory with mmap/mprotect (POSIX).
 */
#include <config.h>

#include "code_buffer.h"

#if defined(HAVE_MMAP) && defined(HAVE_MPROTECT)
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

static size_t round_to_pages(size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t p = page > 0 ? (size_t)page : 4096;

	return (size + p - 1) / p * p;
}

bool hashx_code_buffer_writable(hashx_code_buffer *b, size_t size)
{
	if (b->mem != NULL && size > b->size)
		hashx_code_buffer_release(b);
	if (b->mem == NULL) {
		size_t bytes = round_to_pages(size);
		void *m;

		if (b->faults & HASHX_FAULT_MAP)
			return false;
		m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return false;
		b->mem = m;
		b->size = bytes;
		b->executable = false;
		return true;
	}
	if (!b->executable)
		return true;
	if ((b->faults & HASHX_FAULT_WRITABLE) ||
	    mprotect(b->mem, b->size, PROT_READ | PROT_WRITE) != 0)
		return false;
	b->executable = false;
	return true;
}

bool hashx_code_buffer_executable(hashx_code_buffer *b)
{
	if (b->mem == NULL)
		return false;
	if ((b->faults & HASHX_FAULT_EXECUTABLE) ||
	    mprotect(b->mem, b->size, PROT_READ | PROT_EXEC) != 0)
		return false;
	b->executable = true;
	return true;
}

void hashx_code_buffer_release(hashx_code_buffer *b)
{
	if (b->mem != NULL)
		munmap(b->mem, b->size);
	b->mem = NULL;
	b->size = 0;
	b->used = 0;
	b->executable = false;
}

#else /* no mmap: never any executable memory */

bool hashx_code_buffer_writable(hashx_code_buffer *b, size_t size)
{
	(void)b;
	(void)size;
	return false;
}

bool hashx_code_buffer_executable(hashx_code_buffer *b)
{
	(void)b;
	return false;
}

void hashx_code_buffer_release(hashx_code_buffer *b)
{
	b->mem = NULL;
	b->size = 0;
	b->used = 0;
	b->executable = false;
}
#endif

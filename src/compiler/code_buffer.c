/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * code_buffer.c - W^X executable memory (code_buffer.h) with mmap and
 * mprotect (POSIX), and, configured --enable-code-alias, on x86-64 Linux
 * as two views of shared pages; in WebAssembly, modules the host installs.
 */
#define _GNU_SOURCE /* mremap */
#include <config.h>

#include "code_buffer.h"

#if defined(HASHX_JIT_WASM)
#include <stdlib.h>

#include "wasm_host.h"

/* The module in the slot is the old program's: empty the slot before the
 * buffer changes, so that no stale function stays callable. */
static void uninstall(hashx_code_buffer *b)
{
	if (b->slot != 0)
		hashx_wasm_uninstall(b->slot);
	b->slot = 0;
	b->executable = false;
}

bool hashx_code_buffer_writable(hashx_code_buffer *b, size_t size)
{
	uninstall(b);
	if (b->mem != NULL && size > b->size)
		hashx_code_buffer_release(b);
	if (b->mem == NULL) {
		if (b->faults & HASHX_FAULT_MAP)
			return false;
		b->mem = malloc(size);
		if (b->mem == NULL)
			return false;
		b->write = b->mem;
		b->size = size;
	}
	return !(b->faults & HASHX_FAULT_WRITABLE);
}

/* The buffer's memory, not its slot. */
static void free_bytes(hashx_code_buffer *b)
{
	free(b->mem);
	b->mem = b->write = NULL;
	b->size = 0;
}

/* The host compiles its own copy of the module, so the bytes are freed
 * once it has: a context then keeps its slot, not the buffer sized for
 * the largest module (CODE_CAPACITY in wasm.c, 66 KiB, where a module is
 * about 9 KB), and the next program's compile allocates it again. */
bool hashx_code_buffer_executable(hashx_code_buffer *b)
{
	if (b->mem == NULL || (b->faults & HASHX_FAULT_EXECUTABLE))
		return false;
	b->slot = hashx_wasm_install(b->mem, b->used);
	b->executable = b->slot != 0;
	free_bytes(b);
	return b->executable;
}

void hashx_code_buffer_release(hashx_code_buffer *b)
{
	uninstall(b);
	free_bytes(b);
	b->used = 0;
	b->aliased = false;
}

#elif defined(HAVE_MMAP) && defined(HAVE_MPROTECT)
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/*
 * Aliasing is built only when configured (--enable-code-alias; by default
 * the flipped form is all there is). It needs Linux's mremap() of a shared
 * mapping with old size 0 (a second view of the same pages) and a CPU
 * that keeps its instruction cache coherent with stores made through
 * another address (x86). On
 * aarch64 that takes cache maintenance by address, which qemu-user, where
 * CI tests that port, does not model for a second view: so not there.
 */
#if defined(HASHX_CODE_ALIAS) && defined(__x86_64__) && \
	defined(HAVE_MREMAP) && defined(MREMAP_MAYMOVE)
#define CAN_ALIAS 1
#include <pthread.h>
#include <stdatomic.h>
#else
#define CAN_ALIAS 0
#endif

static size_t round_to_pages(size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t p = page > 0 ? (size_t)page : 4096;

	return (size + p - 1) / p * p;
}

#if CAN_ALIAS
/*
 * Shared pages stay shared across fork(): a process writing a new program
 * into its buffer would change the code the other process runs. So every
 * fork is counted (in parent and child alike), and a buffer mapped before
 * the latest fork is never written again: its next compile maps new pages
 * and leaves the old ones to whichever process still runs them. This
 * counter and the once-flag are the library's only mutable globals besides
 * its dispatch; nothing can be done about fork from inside without them.
 */
static atomic_uint forks_seen;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;
static atomic_bool watching;

static void count_fork(void)
{
	atomic_fetch_add(&forks_seen, 1);
}

static void watch_forks(void)
{
	atomic_store(&watching, pthread_atfork(NULL, count_fork, count_fork) == 0);
}

/* The second view: false, with nothing left mapped, if the system (or a
 * test) refuses it; the flipped form is then used. */
static bool map_aliased(hashx_code_buffer *b, size_t bytes)
{
	void *w, *x;

	pthread_once(&watch_once, watch_forks);
	if ((b->faults & HASHX_FAULT_ALIAS) || !atomic_load(&watching))
		return false;
	w = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED)
		return false;
	x = mremap(w, 0, bytes, MREMAP_MAYMOVE);
	if (x == MAP_FAILED) {
		munmap(w, bytes);
		return false;
	}
	if (mprotect(x, bytes, PROT_READ | PROT_EXEC) != 0) {
		munmap(x, bytes);
		munmap(w, bytes);
		return false;
	}
	b->write = w;
	b->mem = x;
	b->aliased = true;
	b->forks = atomic_load(&forks_seen);
	return true;
}

static bool shared_with_a_fork(const hashx_code_buffer *b)
{
	return b->aliased && b->forks != atomic_load(&forks_seen);
}
#else
static bool map_aliased(hashx_code_buffer *b, size_t bytes)
{
	(void)b;
	(void)bytes;
	return false;
}

static bool shared_with_a_fork(const hashx_code_buffer *b)
{
	(void)b;
	return false;
}
#endif

static bool map_flipped(hashx_code_buffer *b, size_t bytes)
{
	void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return false;
	b->mem = b->write = m;
	b->aliased = false;
	return true;
}

bool hashx_code_buffer_writable(hashx_code_buffer *b, size_t size)
{
	if (b->mem != NULL && (size > b->size || shared_with_a_fork(b)))
		hashx_code_buffer_release(b);
	if (b->mem == NULL) {
		size_t bytes = round_to_pages(size);

		if (b->faults & HASHX_FAULT_MAP)
			return false;
		if (!map_aliased(b, bytes) && !map_flipped(b, bytes))
			return false;
		b->size = bytes;
		b->executable = false;
		/* The simulated refusal of writable code applies to both
		 * forms (the aliased one is writable from the start). */
		return !(b->aliased && (b->faults & HASHX_FAULT_WRITABLE));
	}
	if (!b->executable)
		return true;
	if (b->faults & HASHX_FAULT_WRITABLE)
		return false;
	if (!b->aliased && mprotect(b->mem, b->size, PROT_READ | PROT_WRITE))
		return false;
	b->executable = false;
	return true;
}

bool hashx_code_buffer_executable(hashx_code_buffer *b)
{
	if (b->mem == NULL || (b->faults & HASHX_FAULT_EXECUTABLE))
		return false;
	if (!b->aliased && mprotect(b->mem, b->size, PROT_READ | PROT_EXEC))
		return false;
	b->executable = true;
	return true;
}

void hashx_code_buffer_release(hashx_code_buffer *b)
{
	if (b->mem != NULL)
		munmap(b->mem, b->size);
	if (b->aliased)
		munmap(b->write, b->size);
	b->mem = b->write = NULL;
	b->size = 0;
	b->used = 0;
	b->executable = false;
	b->aliased = false;
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
	b->mem = b->write = NULL;
	b->size = 0;
	b->used = 0;
	b->executable = false;
	b->aliased = false;
}
#endif

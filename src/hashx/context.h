/*
 * context.h - what a hashx_ctx holds.
 */
#ifndef HASHX_CONTEXT_H
#define HASHX_CONTEXT_H

#include <hashx.h>

#include "keys.h"
#include "program.h"
#include "rng.h"

struct hashx_ctx {
	hashx_type ctx_type;   /* as passed to hashx_alloc() */
	hashx_type func_type;  /* how the current function runs; 0: none */
	hashx_keys keys;
	hashx_program program;
	hashx_rng_observer *rng_observer;
	void *rng_observer_data;
};

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * link_clash_internals.h - the names link_clash_internals.c defines.
 */
#ifndef LINK_CLASH_INTERNALS_H
#define LINK_CLASH_INTERNALS_H

#define CLASH_MARKER 7000

int hashx_generate(void);
int hashx_siphash24_ctr_state512(void);
int hashx_compile(void);
int hashx_make_for_few(void);
int hashx_keys_from_seed(void);
int hashx_interpret_portable(void);
int replay_cache_insert(void);
int replay_cache_init(void);
int hashx_ctx_set_impl(void);

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hash_mode.h - how HashX runs, as chosen by --interpret / --compile:
 * compiled where possible (the default), always interpreted, or compiled
 * or nothing.
 */
#ifndef EQUIX_CLI_HASH_MODE_H
#define EQUIX_CLI_HASH_MODE_H

#include <stdbool.h>
#include <stddef.h>

#include "option_table.h"
#include <equix.h>
#include <hashx.h>

typedef enum cli_hash_mode {
	CLI_HASH_DEFAULT = 0, /* native code where possible */
	CLI_HASH_INTERPRET,   /* --interpret */
	CLI_HASH_COMPILE,     /* --compile: native code or failure */
} cli_hash_mode;

/* The option rows of --interpret and --compile, for a table whose values
 * (type `T`) have int fields `interpret` and `compile`. */
#define CLI_HASH_MODE_OPTIONS(T)                                           \
	{"interpret", NULL, "interpreted HashX only", TOOL_OPT_FLAG,       \
	 offsetof(T, interpret), 0, 0, 0, 0, 0},                           \
	{"compile", NULL,                                                  \
	 "compiled HashX or failure (default: compiled where\n"            \
	 "possible)",                                                      \
	 TOOL_OPT_FLAG, offsetof(T, compile), 0, 0, 0, 0, 0}

/* The mode the two flags choose; prints one line and returns false when
 * both are given. */
bool cli_hash_mode_pick(int interpret, int compile, cli_hash_mode *mode);

/* The context flags (without EQUIX_CTX_SOLVE) and the HashX type. */
equix_ctx_flags cli_hash_mode_equix_flags(cli_hash_mode mode);
hashx_type cli_hash_mode_hashx_type(cli_hash_mode mode);

/* For CLI_HASH_COMPILE, whether this machine runs compiled HashX (with
 * `v2`, HashWX) at all;
 * prints one line and returns false when it does not; true otherwise. A
 * clear message up front beats a failure code from deep inside. */
bool cli_hash_mode_usable(cli_hash_mode mode, int v2);

#endif /* EQUIX_CLI_HASH_MODE_H */

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
#include <equix.h>
#include <hashx.h>

typedef enum cli_hash_mode {
	CLI_HASH_DEFAULT = 0, /* native code where possible */
	CLI_HASH_INTERPRET,   /* --interpret */
	CLI_HASH_COMPILE,     /* --compile: native code or failure */
} cli_hash_mode;

/* Records `chosen` in `*mode`; prints one line and returns false when
 * the other of --interpret / --compile was already given. */
bool cli_hash_mode_set(cli_hash_mode *mode, cli_hash_mode chosen);

/* The context flags (without EQUIX_CTX_SOLVE) and the HashX type. */
equix_ctx_flags cli_hash_mode_equix_flags(cli_hash_mode mode);
hashx_type cli_hash_mode_hashx_type(cli_hash_mode mode);

/* For CLI_HASH_COMPILE, whether this machine runs compiled HashX at all;
 * prints one line and returns false when it does not; true otherwise. A
 * clear message up front beats a failure code from deep inside. */
bool cli_hash_mode_usable(cli_hash_mode mode);

#endif /* EQUIX_CLI_HASH_MODE_H */

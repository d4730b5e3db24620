/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wasm_host.h - what the WebAssembly compiler (wasm.c) and its code buffer
 * ask of the host that runs the core: the core cannot turn bytes into code
 * by itself (WebAssembly has no executable memory), so the host compiles
 * each module, instantiates it with the core's memory and puts its one
 * export into the core's function table. The JavaScript side of these
 * imports is js/src/jit.js.
 */
#ifndef HASHX_WASM_HOST_H
#define HASHX_WASM_HOST_H

#include <stddef.h>
#include <stdint.h>

/* What each emitted module imports and exports. */
#define HASHX_WASM_MEMORY_MODULE "env"
#define HASHX_WASM_MEMORY_NAME "memory"
#define HASHX_WASM_EXPORT_NAME "f"

/* hashx_wasm_features(): the engine runs the wide-arithmetic proposal's
 * i64.mul_wide_u and i64.mul_wide_s (the host tries a module that uses
 * them). */
#define HASHX_WASM_WIDE_MUL 1u

#define HASHX_WASM_IMPORT(name)                                           \
	__attribute__((import_module("hashx"), import_name(name)))

/* Compiles and instantiates the module of `size` bytes at `module` and
 * returns the function table slot it now holds, or 0 where the host
 * refuses (a Content-Security-Policy, a size limit, an invalid module):
 * the caller then falls back as on a system without executable memory. */
HASHX_WASM_IMPORT("install")
uint32_t hashx_wasm_install(const uint8_t *module, size_t size);

/* Empties `slot` (from hashx_wasm_install) for reuse. */
HASHX_WASM_IMPORT("uninstall")
void hashx_wasm_uninstall(uint32_t slot);

/* The optional WebAssembly features this engine has (HASHX_WASM_*). */
HASHX_WASM_IMPORT("features")
uint32_t hashx_wasm_features(void);

#endif

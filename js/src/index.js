// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The package's entry point. All hashing, solving and checking happens in
// the C code of dist/equix.wasm (src/core.js loads it); the modules here
// only move bytes in and out of its memory.

export { ready, jitStatus, limits } from './core.js';
export { EquixError } from './errors.js';
export { toHex, fromHex } from './hex.js';
export { hashx } from './hashx.js';
export { hashwx } from './hashwx.js';
export { equix } from './equix.js';
export { pow } from './pow.js';

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The few WASI functions the core imports. The core is a WASI reactor
// only because wasi-libc is its C library (malloc, memcpy, ...); it reads
// no files and no clock. What it uses:
//   random_get         libsodium's sodium_init() seeds its generator (the
//                      core never draws from it, but it must initialise);
//   environ_*          getenv("HASHX_IMPL") in src/facade/dispatch.c: an
//                      empty environment, so the default is chosen;
//   fd_write           an assert()'s message on stderr, before it traps.
// Anything else wasi-libc links in answers ENOSYS, so a path that should
// never run fails visibly instead of pretending to succeed.

import { failure } from './errors.js';

const ENOSYS = 52;
const ESUCCESS = 0;
const EBADF = 8;

// crypto.getRandomValues fills at most 65536 bytes per call.
function fillRandom(bytes) {
  for (let i = 0; i < bytes.length; i += 65536) {
    globalThis.crypto.getRandomValues(bytes.subarray(i, Math.min(bytes.length, i + 65536)));
  }
}

/**
 * The import object for `module`: every function it imports from
 * wasi_snapshot_preview1, random_get and proc_exit implemented, the rest
 * ENOSYS. `memory()` returns the instance's memory once it exists.
 * `others` are the caller's own import modules (the JIT's "hashx").
 */
export function wasiImports(module, memory, others = {}) {
  const wasi = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function' || Object.hasOwn(others, imp.module)) continue;
    if (imp.module !== 'wasi_snapshot_preview1') {
      // Not the core (ready({ wasm }) gave another module).
      throw failure(`equix: the core imports ${imp.module}.${imp.name}, which nothing provides`, 'FAIL_WASM');
    }
    wasi[imp.name] = () => ENOSYS;
  }
  const view = () => new DataView(memory().buffer);
  wasi.environ_sizes_get = (count, size) => {
    view().setUint32(count, 0, true);
    view().setUint32(size, 0, true);
    return ESUCCESS;
  };
  wasi.environ_get = () => ESUCCESS;
  // Standard output and error go to the console, whole writes at a time;
  // no other descriptor exists.
  wasi.fd_write = (fd, iovs, iovsLen, written) => {
    if (fd !== 1 && fd !== 2) return EBADF;
    const v = view();
    let text = '';
    let total = 0;
    for (let i = 0; i < iovsLen; i++) {
      const base = v.getUint32(iovs + 8 * i, true);
      const len = v.getUint32(iovs + 8 * i + 4, true);
      text += new TextDecoder().decode(new Uint8Array(memory().buffer, base, len));
      total += len;
    }
    if (text.trim() !== '') console.error(`equix core: ${text.trimEnd()}`);
    v.setUint32(written, total, true);
    return ESUCCESS;
  };
  wasi.random_get = (p, n) => {
    fillRandom(new Uint8Array(memory().buffer, p, n));
    return ESUCCESS;
  };
  wasi.proc_exit = (code) => {
    throw failure(`equix: the core exited (status ${code})`, 'FAIL_INTERNAL');
  };
  return { ...others, wasi_snapshot_preview1: wasi };
}

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The core: loads dist/equix.wasm (the C library built by build.sh) and
// holds its instance, with the few helpers every part of the API uses to
// move bytes in and out of the module's memory. Not part of the package's
// exports: index.js re-exports ready() and the API built on this.

import { wasiImports } from './wasi.js';
import { jitHost } from './jit.js';

let core = null; // the instance's exports, once ready() has resolved
let compiled = null; // the core's WebAssembly.Module, for workers
let jit = null; // the HashX compiler's host side (jit.js)
let loading = null; // ready()'s promise, so that concurrent calls share it
let scratch = 0; // a fixed buffer in the module's memory for small I/O
const SCRATCH_SIZE = 4096;

// Where the module's bytes come from when the caller gives none: the file
// next to this package's src/, read from disk in Node and fetched
// elsewhere (browsers, Deno).
async function defaultWasm() {
  const url = new URL('../dist/equix.wasm', import.meta.url);
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`equix: fetching ${url}: ${response.status}`);
  return response.arrayBuffer();
}

// A browser refuses to compile any WebAssembly, the core included, on a
// page whose Content-Security-Policy has a script-src without
// 'wasm-unsafe-eval' (or 'unsafe-eval'): nothing of the package can run
// there, so ready() says so with the fix, and the engine's own words.
async function compileCore(source) {
  try {
    return await WebAssembly.compile(source);
  } catch (e) {
    if (!(e instanceof WebAssembly.CompileError)) throw e;
    const refused = failure(`equix: the engine refused to compile the core (${e.message}); `
      + "a page's Content-Security-Policy must allow 'wasm-unsafe-eval' in script-src", 'FAIL_WASM');
    refused.cause = e;
    throw refused;
  }
}

/**
 * Loads and instantiates the core. Every other function needs it to have
 * resolved. `options.wasm` may give the module (bytes or a compiled
 * WebAssembly.Module) instead of the packaged file; `options.jit: false`
 * keeps HashX interpreted; `options.wideMultiply: false` keeps the JIT's
 * high products in 32-bit pieces where the engine has a wide multiply.
 */
export function ready(options = {}) {
  if (loading === null) {
    loading = (async () => {
      const source = options.wasm ?? (await defaultWasm());
      const module = source instanceof WebAssembly.Module
        ? source : await compileCore(source);
      compiled = module;
      const host = jitHost(() => core, options);
      const imports = wasiImports(module, () => core.memory, host.imports);
      const instance = await WebAssembly.instantiate(module, imports);
      jit = host;
      core = instance.exports;
      core._initialize(); // a WASI reactor's constructors
      scratch = core.ex_malloc(SCRATCH_SIZE);
      if (scratch === 0) throw new Error('equix: no memory for the core');
    })();
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/**
 * The core's compiled WebAssembly.Module, once ready() has resolved: a
 * worker given it (postMessage clones a Module) calls ready({ wasm })
 * without fetching or compiling the file again.
 */
export function coreModule() {
  need();
  return compiled;
}

/**
 * The HashX compiler's state: { enabled, wideMultiply, compiles,
 * installed, refusal }, where refusal says why the engine refused the
 * last module (the interpreter then runs), null when it accepted it.
 */
export function jitStatus() {
  need();
  return jit.status();
}

/**
 * For tests and tools, not the package's API: fn(bytes) sees a copy of
 * every HashX module the compiler makes from now on (null stops it).
 * Returns the previous observer.
 */
export function observeJitModules(fn) {
  need();
  return jit.observe(fn);
}

/** The core's exports, or null before ready() has resolved. */
export function loaded() {
  return core;
}

export function need() {
  if (core === null) throw new Error('equix: call and await ready() first');
  return core;
}

// A view of the module's memory; it must be taken again after any call
// that may allocate, since growing the memory detaches the old buffer.
export function heap() {
  return new Uint8Array(need().memory.buffer);
}

export function asBytes(value, what) {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError(`equix: ${what} must be a Uint8Array, another ArrayBuffer view or an ArrayBuffer`);
}

// Copies `bytes` into the module (into a fresh allocation: the scratch
// buffer is for outputs), runs fn(pointer, length) and frees the copy.
export function withCopy(bytes, fn) {
  const c = need();
  const p = c.ex_malloc(Math.max(bytes.length, 1));
  if (p === 0) throw new Error('equix: out of memory');
  try {
    heap().set(bytes, p);
    return fn(p, bytes.length);
  } finally {
    c.ex_free(p);
  }
}

export function cString(p) {
  const h = heap();
  let end = p;
  while (h[end] !== 0) end++;
  return new TextDecoder().decode(h.subarray(p, end));
}

export function failure(message, code) {
  const e = new Error(message);
  e.code = code;
  return e;
}


/** The core's fixed scratch buffer (SCRATCH_SIZE bytes), for outputs. */
export function scratchBuffer() {
  need();
  return scratch;
}

export const SCRATCH_BYTES = SCRATCH_SIZE;

/** `value` as bytes, which must be exactly `length` long. */
export function fixed(value, length, what) {
  const b = asBytes(value, what);
  if (b.length !== length) throw new RangeError(`equix: ${what} is ${length} bytes`);
  return b;
}

/** `effort` checked to be a 32-bit unsigned integer. */
export function effortOf(effort) {
  if (!Number.isInteger(effort) || effort < 0 || effort > 0xffffffff) {
    throw new RangeError('equix: an effort is an integer from 0 to 2^32 - 1');
  }
  return effort >>> 0;
}


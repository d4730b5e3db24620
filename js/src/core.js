// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The core: loads dist/equix.wasm (the C library built by build.sh) and
// holds its instance, with the few helpers every part of the API uses to
// move bytes in and out of the module's memory. Not part of the package's
// exports: index.js re-exports ready() and the API built on this.

import { wasiImports } from './wasi.js';
import { jitHost } from './jit.js';
import { coreMismatches } from './core_abi.js';
import { failure, badArgument } from './errors.js';

// The errors' home is errors.js; the API's modules take them from here
// with the rest of the core's helpers.
export { failure, badArgument };

let core = null; // the instance's exports, once ready() has resolved
let compiled = null; // the core's WebAssembly.Module, for workers
let jit = null; // the HashX compiler's host side (jit.js)
let loading = null; // ready()'s promise, so that concurrent calls share it
let settings = null; // the options ready() is loading (or loaded) the core with
let scratch = 0; // a fixed buffer in the module's memory for small I/O
const SCRATCH_SIZE = 4096;

/**
 * What the package takes at most. `inputBytes`: any input of variable
 * length (a HashX seed or block input, an Equi-X challenge, an extension
 * body, a pow-params line). The module's memory can grow but never shrink,
 * so a 1 GiB input would keep 1 GiB for the page's life; 1 MiB is far
 * above any real use (Tor's challenge is 100 bytes) and bounds that.
 * `workers`: pow.solve's workers, each a thread with its own instance of
 * the core (14 to 22 MiB each in Node 20); more than the machine's
 * threads only costs memory, and 64 covers today's largest desktops
 * while keeping the worst case near 1 GiB.
 */
export const limits = Object.freeze({ inputBytes: 1 << 20, workers: 64 });

// Where the module's bytes come from when the caller gives none: the file
// next to this package's src/, read from disk in Node and fetched
// elsewhere (browsers, Deno). FAIL_FETCH when it cannot be had, with
// the engine's or the server's reason.
async function defaultWasm() {
  const url = new URL('../dist/equix.wasm', import.meta.url);
  let response;
  try {
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      return await readFile(url);
    }
    response = await fetch(url);
    if (response.ok) return await response.arrayBuffer();
  } catch (e) {
    const refused = failure(`equix: ${url.protocol === 'file:' ? 'reading' : 'fetching'} ${url}: ${e?.message ?? e}`, 'FAIL_FETCH');
    refused.cause = e;
    throw refused;
  }
  throw failure(`equix: fetching ${url}: ${response.status} ${response.statusText}`.trimEnd(), 'FAIL_FETCH');
}

// A browser refuses to compile any WebAssembly, the core included, on a
// page whose Content-Security-Policy has a script-src without
// 'wasm-unsafe-eval' (or 'unsafe-eval'): nothing of the package can run
// there, so ready() says so with the fix, and the engine's own words
// (which also say when ready({ wasm }) gave bytes that are no module).
// The engine's TypeError for a `wasm` that is not bytes is the
// argument's: FAIL_ARGUMENT.
async function compileCore(source) {
  try {
    return await WebAssembly.compile(source);
  } catch (e) {
    const refused = e instanceof TypeError
      ? badArgument(`ready()'s option wasm must be the core's bytes or a WebAssembly.Module (${e.message})`)
      : failure(`equix: the engine refused to compile the core (${e?.message ?? e}); `
        + "a page's Content-Security-Policy must allow 'wasm-unsafe-eval' in script-src", 'FAIL_WASM');
    refused.cause = e;
    throw refused;
  }
}

// What the package needs of the core before calling into it: a module
// without them is not the core (another module given as ready({ wasm })).
// Then its functions against the ABI the package calls (core_abi.js),
// which tells a core of another version apart.
const CORE_EXPORTS = ['memory', '_initialize'];

// The instance of `module` with the core's imports, FAIL_WASM when it
// is not the core: it imports what nothing here provides, lacks the
// core's first exports, or its functions are not the ones this package
// calls.
async function instantiateCore(module, host) {
  const imports = wasiImports(module, () => core.memory, host.imports);
  let instance;
  try {
    instance = await WebAssembly.instantiate(module, imports);
  } catch (e) {
    const refused = failure(`equix: the engine could not instantiate the core (${e?.message ?? e})`, 'FAIL_WASM');
    refused.cause = e;
    throw refused;
  }
  const missing = CORE_EXPORTS.filter((name) => !(name in instance.exports));
  if (missing.length > 0) {
    throw failure(`equix: the module is not the equix core (it exports no ${missing.join(', ')})`, 'FAIL_WASM');
  }
  const wrong = coreMismatches(instance.exports);
  if (wrong.length > 0) {
    throw failure(`equix: the module is not this package's core (${wrong.slice(0, 3).join('; ')}`
      + `${wrong.length > 3 ? `; and ${wrong.length - 3} more` : ''}): a core from another version? `
      + 'rebuild dist/equix.wasm with js/build.sh', 'FAIL_WASM');
  }
  return instance;
}

/**
 * Loads and instantiates the core. Every other function needs it to have
 * resolved. `options.wasm` may give the module (bytes or a compiled
 * WebAssembly.Module) instead of the packaged file; `options.jit: false`
 * keeps HashX interpreted; `options.wideMultiply: false` keeps the JIT's
 * high products in 32-bit pieces where the engine has a wide multiply.
 * The core is loaded once: a later call returns the same promise when it
 * gives no options or the same ones, and rejects with FAIL_OPTIONS when
 * it gives others (FAIL_ARGUMENT for options that do not exist or are of
 * the wrong type).
 */
export function ready(options) {
  let given;
  try {
    given = optionsOf(options, READY_OPTIONS, 'ready()');
  } catch (e) {
    return Promise.reject(e);
  }
  if (loading !== null) {
    // The core is loaded once: a later call may repeat the first call's
    // options or leave them out, not change them.
    const clash = Object.keys(READY_OPTIONS).find((k) => given[k] !== undefined && given[k] !== settings[k]);
    if (clash !== undefined) {
      return Promise.reject(failure(`equix: ready() was already called with another ${clash}; `
        + 'the core is loaded once, with the first call\'s options', 'FAIL_OPTIONS'));
    }
    return loading;
  }
  settings = { wasm: given.wasm, jit: given.jit !== false, wideMultiply: given.wideMultiply !== false };
  loading = (async () => {
    const source = settings.wasm ?? (await defaultWasm());
    const module = source instanceof WebAssembly.Module
      ? source : await compileCore(source);
    compiled = module;
    const host = jitHost(() => core, settings);
    const instance = await instantiateCore(module, host);
    jit = host;
    core = instance.exports;
    core._initialize(); // a WASI reactor's constructors
    scratch = core.ex_malloc(SCRATCH_SIZE);
    if (scratch === 0) throw failure('equix: no memory for the core', 'FAIL_NO_MEMORY');
  })();
  loading.catch(() => {
    loading = null;
    settings = null;
  });
  return loading;
}

// ready()'s options and their types (null: any; the engine checks `wasm`).
const READY_OPTIONS = { wasm: null, jit: 'boolean', wideMultiply: 'boolean' };

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
  if (core === null) throw failure('equix: call and await ready() first', 'FAIL_NOT_READY');
  return core;
}

// A view of the module's memory; it must be taken again after any call
// that may allocate, since growing the memory detaches the old buffer.
export function heap() {
  return new Uint8Array(need().memory.buffer);
}

// ---- Bytes in ------------------------------------------------------------
//
// Every byte the package copies into the core's memory comes through
// bytes(): it accepts what ArrayBuffer.isView accepts (typed arrays,
// DataViews) and ArrayBuffers, reads where their bytes are through the
// engine's own getters (an object that only inherits from
// Uint8Array.prototype, a Proxy or a subclass with its own `length` has
// no say), once, and returns a copy the caller cannot reach: nothing the
// caller does afterwards (a getter of another argument, a transfer)
// changes the length or the bytes that are copied into the core.

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (prototype, name) => Object.getOwnPropertyDescriptor(prototype, name).get;
const TYPED = ['buffer', 'byteOffset', 'byteLength'].map((n) => getter(TypedArrayPrototype, n));
const DATA_VIEW = ['buffer', 'byteOffset', 'byteLength'].map((n) => getter(DataView.prototype, n));
const bufferLength = getter(ArrayBuffer.prototype, 'byteLength');
const slice = TypedArrayPrototype.slice;

function detachedError(what) {
  return failure(`equix: ${what} is in a detached ArrayBuffer (transferred elsewhere)`, 'FAIL_DETACHED', TypeError);
}

// [buffer, offset, length] of a view or an ArrayBuffer; null for anything
// else. A DataView's getters throw once its buffer is detached.
function whereBytes(value, what) {
  if (ArrayBuffer.isView(value)) {
    let get = TYPED;
    try {
      TYPED[0].call(value);
    } catch {
      get = DATA_VIEW;
    }
    try {
      return get.map((g) => g.call(value));
    } catch {
      throw detachedError(what);
    }
  }
  try {
    return [value, 0, bufferLength.call(value)];
  } catch {
    return null; // not an ArrayBuffer (a SharedArrayBuffer needs a view)
  }
}

/**
 * The bytes of `value` (an ArrayBuffer view or an ArrayBuffer), copied
 * into a Uint8Array of the package's own: exactly `length` of them when
 * given (else FAIL_LENGTH), at most limits.inputBytes (else
 * FAIL_TOO_LARGE); FAIL_ARGUMENT for anything else, FAIL_DETACHED for a
 * detached buffer. `what` names the argument in the message.
 */
export function bytes(value, what, length) {
  const where = whereBytes(value, what);
  if (where === null) {
    throw badArgument(`${what} must be a Uint8Array, another ArrayBuffer view or an ArrayBuffer`);
  }
  const [buffer, offset, n] = where;
  let view;
  try {
    view = new Uint8Array(buffer, offset, n);
  } catch {
    throw detachedError(what); // detached, or outside a resizable buffer that shrank
  }
  if (length !== undefined && n !== length) {
    throw failure(`equix: ${what} is ${length} bytes, not ${n}`, 'FAIL_LENGTH', RangeError);
  }
  if (n > limits.inputBytes) {
    throw failure(`equix: ${what} is ${n} bytes, more than limits.inputBytes (${limits.inputBytes})`,
      'FAIL_TOO_LARGE', RangeError);
  }
  return slice.call(view);
}

// Copies `b` (from bytes()) into a fresh allocation in the module, runs
// fn(pointer, length) and frees the copy.
export function withCopy(b, fn) {
  const c = need();
  const p = c.ex_malloc(Math.max(b.length, 1));
  if (p === 0) throw failure('equix: out of memory in the core', 'FAIL_NO_MEMORY');
  try {
    heap().set(b, p);
    return fn(p, b.length);
  } finally {
    c.ex_free(p);
  }
}

/**
 * Lays `parts` (from bytes(), or the package's own output buffers) out
 * one after another in the scratch buffer, each at an 8-byte boundary;
 * returns their addresses in the same order.
 */
export function place(...parts) {
  const h = heap();
  const start = scratchBuffer();
  let p = start;
  return parts.map((b) => {
    if (p + b.length > start + SCRATCH_SIZE) throw failure('equix: internal: the scratch buffer is too small', 'FAIL_INTERNAL');
    const at = p;
    h.set(b, at);
    p += (b.length + 7) & ~7;
    return at;
  });
}

export function cString(p) {
  const h = heap();
  let end = p;
  while (h[end] !== 0) end++;
  return new TextDecoder().decode(h.subarray(p, end));
}

/** The core's fixed scratch buffer (SCRATCH_SIZE bytes), for outputs. */
export function scratchBuffer() {
  need();
  return scratch;
}

export const SCRATCH_BYTES = SCRATCH_SIZE;

// ---- Other arguments -------------------------------------------------------

/**
 * The options object `options` of `what` (undefined: none), checked
 * against `names` ({ name: 'boolean' | ... | null for any type }): an
 * object with no other own keys, each given value of its type. Returns
 * the values, each read once.
 */
export function optionsOf(options, names, what) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw badArgument(`${what}'s options must be an object`);
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(names, key)) {
      throw badArgument(`${what} has no option '${key}' (it takes ${Object.keys(names).join(', ')})`);
    }
  }
  const out = {};
  for (const [key, type] of Object.entries(names)) {
    const value = options[key];
    if (value !== undefined && type !== null && typeof value !== type) {
      throw badArgument(`${what}'s option ${key} must be a ${type}`);
    }
    out[key] = value;
  }
  return out;
}

/** `value` checked to be an object (the argument of `what`). */
export function record(value, what) {
  if (value === null || typeof value !== 'object') throw badArgument(`${what} takes an object`);
  return value;
}

/** `effort` checked to be a 32-bit unsigned integer. */
export function effortOf(effort) {
  if (!Number.isInteger(effort) || effort < 0 || effort > 0xffffffff) {
    throw badArgument('an effort is an integer from 0 to 2^32 - 1', RangeError);
  }
  return effort >>> 0;
}

/**
 * `value` as a 64-bit unsigned BigInt: a BigInt, or a safe non-negative
 * integer Number; FAIL_ARGUMENT otherwise (a RangeError outside 0 to
 * 2^64 - 1). `what` names the argument ('a HashX input', ...).
 */
export function u64Of(value, what) {
  const x = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof x !== 'bigint') throw badArgument(`${what} is a BigInt (or a safe integer Number)`);
  if (x < 0n || x >= 1n << 64n) throw badArgument(`${what} is a 64-bit unsigned integer`, RangeError);
  return x;
}

// ---- Contexts the API's objects own ---------------------------------------
//
// A HashX or HashWX function holds a context in the module's memory:
// freed by free(), or when the JavaScript object is collected, whichever
// comes first. (The engine collects when its own heap asks for it and
// runs the finalizers only after the current task: a loop that makes many
// functions should free them.)
const ownedContexts = new FinalizationRegistry(({ ctx, release }) => {
  const c = loaded();
  if (c !== null) c[release](ctx);
});

/** The core's context `ctx` owned by `owner` (the API's object), which
 * the core's export `release` frees; `what` names it in FAIL_FREED. */
export class OwnedContext {
  #ctx;
  #release;
  #what;

  constructor(owner, ctx, release, what) {
    this.#ctx = ctx;
    this.#release = release;
    this.#what = what;
    ownedContexts.register(owner, { ctx, release }, this);
  }

  /** The context, unless free() has released it (FAIL_FREED). */
  live() {
    if (this.#ctx === 0) throw failure(`equix: this ${this.#what} was freed`, 'FAIL_FREED');
    return this.#ctx;
  }

  /** Frees the context now rather than at collection (again: nothing). */
  free() {
    if (this.#ctx !== 0) {
      ownedContexts.unregister(this);
      need()[this.#release](this.#ctx);
      this.#ctx = 0;
    }
  }
}

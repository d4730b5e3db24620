// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Types of the package's API (src/index.js): HashX and HashWX (compiled
// to WebAssembly where the engine allows, else interpreted), Equi-X v1
// and v2, Tor's PoW v1, the hex helpers and the errors.

/**
 * Bytes in any of the forms the functions accept: a typed array or a
 * DataView (what `ArrayBuffer.isView` accepts; an object that only
 * inherits from `Uint8Array.prototype`, or a Proxy, is refused with
 * FAIL_ARGUMENT), or an ArrayBuffer. Their place and length are read once
 * through the engine's own getters and the bytes copied before any work;
 * a detached buffer is refused with FAIL_DETACHED. An input of variable
 * length has at most `limits.inputBytes` bytes (FAIL_TOO_LARGE); a field
 * of fixed size (an id, a solution...) must have exactly its size
 * (FAIL_LENGTH).
 */
export type Bytes = Uint8Array | ArrayBufferView | ArrayBuffer;

/** What the package takes at most (a frozen object). */
export const limits: {
  /** Bytes of any variable-length input: a HashX seed or block input, an
   * Equi-X challenge, an extension body, a pow-params line (1 MiB: the
   * core's memory grows for an input but never shrinks). */
  readonly inputBytes: 1048576;
  /** pow.solve's workers (64), each a thread with its own instance of
   * the core: 14 to 22 MiB each in Node 20 (measured with 6 and with 2). */
  readonly workers: 64;
};

/** ready()'s options; any other key is refused with FAIL_ARGUMENT. The
 * core is loaded once: a later ready() that gives an option with another
 * value than the first call's rejects with FAIL_OPTIONS, one that gives
 * none or the same returns the first call's promise. */
export interface ReadyOptions {
  /** The core's module instead of the packaged dist/equix.wasm. */
  wasm?: BufferSource | WebAssembly.Module;
  /** false: never compile HashX, interpret every function. */
  jit?: boolean;
  /** false: high products from 32-bit pieces even where the engine has
   * a wide multiply (to test that path). */
  wideMultiply?: boolean;
}

/** The HashX compiler's state. */
export interface JitStatus {
  /** false after ready({ jit: false }). */
  enabled: boolean;
  /** The engine runs i64.mul_wide_u/_s and the compiler uses them. */
  wideMultiply: boolean;
  /** Modules compiled so far. */
  compiles: number;
  /** Modules in the core's function table now. */
  installed: number;
  /** Why the engine refused the last module (the function then runs
   * interpreted); null when it accepted it. */
  refusal: string | null;
}

export function jitStatus(): JitStatus;

/** Loads and instantiates the core; everything else needs it resolved
 * (before, every function throws FAIL_NOT_READY; toHex and fromHex
 * excepted). Rejects with an EquixError with code 'FAIL_WASM' when the
 * engine refuses to compile WebAssembly (in a browser: a
 * Content-Security-Policy whose script-src lacks 'wasm-unsafe-eval') or
 * `wasm` is not the core, 'FAIL_FETCH' when dist/equix.wasm cannot be
 * read or fetched, 'FAIL_OPTIONS' when an earlier call loaded it with
 * other options. */
export function ready(options?: ReadyOptions): Promise<void>;

/**
 * A `code` the package's errors carry: the package's own, or the name of
 * a C result without its prefix. The package's own:
 * - 'FAIL_ARGUMENT': an argument of the wrong type or range (not bytes,
 *   options that are not an object or have an unknown key, an effort
 *   outside 32 bits, workers outside 1 to limits.workers, text that is
 *   not hex, ...);
 * - 'FAIL_LENGTH': bytes of a fixed-size field with another length;
 * - 'FAIL_TOO_LARGE': an input above limits.inputBytes;
 * - 'FAIL_DETACHED': bytes in a detached (transferred) ArrayBuffer;
 * - 'FAIL_FREED': a HashX function used after free();
 * - 'FAIL_NOT_READY': a call before ready() resolved;
 * - 'FAIL_OPTIONS': ready() again with other options;
 * - 'FAIL_FETCH': the packaged dist/equix.wasm could not be read (Node)
 *   or fetched (elsewhere);
 * - 'FAIL_WASM': the engine refuses WebAssembly, or ready({ wasm }) gave
 *   a module that is not the core;
 * - 'FAIL_WORKER': a pow.solve worker failed or ended;
 * - 'FAIL_LIMIT': pow.solve's maxAttempts reached;
 * - 'FAIL_NO_MEMORY': the core's memory cannot grow;
 * - 'FAIL_INTERNAL': a fault of the package itself (a bug to report).
 * Then the C library's: hashx() and HashX.hash throw a hashx_result's
 * failure, equix.solve an equix_result's, the PoW layer's parsers and
 * encoders an equix_pow_result's (the codes they name are in their
 * comments; they may throw any of these). doc/bad-input.md lists the
 * calls and their codes. js/test/errors.test.js checks that every name
 * the core can report is here.
 */
export type EquixErrorCode =
  // The package's own.
  | 'FAIL_ARGUMENT' | 'FAIL_LENGTH' | 'FAIL_TOO_LARGE' | 'FAIL_DETACHED'
  | 'FAIL_FREED' | 'FAIL_NOT_READY' | 'FAIL_OPTIONS' | 'FAIL_FETCH' | 'FAIL_WASM'
  | 'FAIL_WORKER' | 'FAIL_LIMIT' | 'FAIL_NO_MEMORY' | 'FAIL_INTERNAL'
  // hashx_result's (HASHX_RESULTS in src/core.c), less those above.
  | 'FAIL_UNPREPARED' | 'FAIL_UNDEFINED' | 'FAIL_SEED' | 'FAIL_COMPILE'
  // equix_result's (EQUIX_RESULTS in src/core.c), less those above.
  | 'FAIL_CHALLENGE' | 'FAIL_ORDER' | 'FAIL_PARTIAL_SUM' | 'FAIL_FINAL_SUM'
  | 'FAIL_NO_SOLVER'
  // equix_pow_result's (src/pow/result.c), less those above.
  | 'FAIL_SEED_HEAD' | 'FAIL_REPLAY' | 'FAIL_EFFORT' | 'FAIL_CACHE_FULL'
  | 'FAIL_CANCELLED' | 'FAIL_VERSION' | 'FAIL_SYNTAX' | 'FAIL_BASE64'
  | 'FAIL_NUMBER' | 'FAIL_TIMESTAMP' | 'FAIL_LOW_EFFORT' | 'FAIL_SEED_RETIRED'
  | 'FAIL_EVICTED' | 'FAIL_REENTERED';

/**
 * The package's errors. Every error it throws, or a promise of it rejects
 * with, is an EquixError: `e instanceof EquixError` holds, and `e.code`
 * says what went wrong. The argument checks' errors (FAIL_ARGUMENT,
 * FAIL_LENGTH, FAIL_TOO_LARGE, FAIL_DETACHED) are TypeErrors or
 * RangeErrors (fromHex's digits: SyntaxErrors), as the engine's own
 * checks are, and EquixErrors as well; the others are made by this
 * class. Not the package's, so passed on as they are: pow.solve's
 * rejection with its signal's reason or with what onProgress threw, and
 * the engine's own errors that no check comes before (a trap in the
 * core, a WebAssembly.RuntimeError, would be a bug).
 */
export class EquixError extends Error {
  constructor(message: string, code: EquixErrorCode);
  readonly code: EquixErrorCode;
}

/** Bytes as lowercase hex digits, two a byte (at most limits.inputBytes
 * bytes: FAIL_TOO_LARGE). Plain JavaScript: works before ready(). */
export function toHex(bytes: Bytes): string;

/** The bytes that hex digits spell: either case, two a byte, nothing
 * else (no prefix, no spaces). FAIL_ARGUMENT otherwise: a TypeError for
 * a value that is not a string, a SyntaxError for an odd count or a
 * character that is no hex digit; FAIL_TOO_LARGE (a RangeError) for the
 * digits of more than limits.inputBytes bytes. Works before ready(). */
export function fromHex(hex: string): Uint8Array;

/** hashx()'s options; any other key, or a value that is not a boolean,
 * is refused with FAIL_ARGUMENT. */
export interface HashXOptions {
  /** Block mode: hash() takes a byte string instead of a counter. */
  block?: boolean;
  /** false: always interpret (default: compile where the engine allows). */
  compile?: boolean;
}

/** equix.solve()'s and verify()'s options (FAIL_ARGUMENT as for
 * HashXOptions). */
export interface EquixOptions {
  /** false: interpret the hash (default: compile where the engine allows). */
  compile?: boolean;
  /** true: Equi-X v2, whose hash is HashWX (default: v1, on HashX, what
   * Tor's network speaks). The solver and the solution form are the same;
   * a solution of one version fails the other's check, but for chance. */
  v2?: boolean;
}

/** A HashX function made from a seed. It holds about 20 KiB of the
 * core's memory (its context; a compiled function's code lives in the
 * engine) until free() or, if never freed, until the engine has
 * collected the object and run its finalizer (after the current task
 * ends, and only when the engine collects): a loop that makes many
 * functions should free each one. */
export interface HashX {
  /** The 32-byte hash of a 64-bit counter (or of bytes in block mode, at
   * most limits.inputBytes). FAIL_FREED after free(). */
  hash(input: bigint | number | Bytes): Uint8Array;
  /** true when the WebAssembly JIT runs it; false when interpreted
   * ({ compile: false }, or the engine refused: jitStatus().refusal).
   * FAIL_FREED after free(). */
  readonly compiled: boolean;
  /** Whether it was made in block mode. */
  readonly block: boolean;
  /** Returns its memory in the core now instead of at collection. */
  free(): void;
}

/**
 * The HashX function of `seed` (at most limits.inputBytes); throws an
 * EquixError with code 'FAIL_SEED' when the seed generates no valid
 * program.
 */
export function hashx(seed: Bytes, options?: HashXOptions): HashX;

/** hashwx()'s options (FAIL_ARGUMENT as for HashXOptions). */
export interface HashWXOptions {
  /** false: always interpret (default: compile where the engine allows). */
  compile?: boolean;
}

/** A HashWX function (Equi-X v2's hash) made from a 32-byte seed; its
 * memory in the core lives as a HashX function's does. */
export interface HashWX {
  /** The 64-bit hash of a 64-bit nonce (a BigInt, or a safe non-negative
   * integer Number), as a BigInt: hashwx_exec's result. FAIL_ARGUMENT for
   * another type, a RangeError with FAIL_ARGUMENT outside 0 to 2^64 - 1,
   * FAIL_FREED after free(). */
  hash(nonce: bigint | number): bigint;
  /** true when the HashWX-to-WebAssembly compiler runs it; false when
   * interpreted ({ compile: false }, or the engine refused:
   * jitStatus().refusal). FAIL_FREED after free(). */
  readonly compiled: boolean;
  /** Returns its memory in the core now instead of at collection. */
  free(): void;
}

/** The HashWX function of `seed`: exactly 32 bytes (else FAIL_LENGTH).
 * Every seed makes one (HashWX has no failing seeds). */
export function hashwx(seed: Bytes, options?: HashWXOptions): HashWX;

/** The name of equix_verify's result without the EQUIX_ prefix. */
export type VerifyResult =
  | 'OK'
  | 'FAIL_CHALLENGE'
  | 'FAIL_ORDER'
  | 'FAIL_PARTIAL_SUM'
  | 'FAIL_FINAL_SUM'
  | 'FAIL_COMPILE'
  | 'FAIL_NO_SOLVER'
  | 'FAIL_INTERNAL';

export const equix: {
  /**
   * The solutions of `challenge`, each 16 bytes in wire form, in the
   * reference solver's order. Throws an EquixError with code
   * 'FAIL_CHALLENGE' when the challenge has no HashX function (v1 only).
   * With { v2: true }, Equi-X v2's solutions, in the order of the
   * reference's equix_v2 branch.
   */
  solve(challenge: Bytes, options?: EquixOptions): Uint8Array[];
  /** Checks a 16-byte wire-form solution of `challenge`. */
  verify(challenge: Bytes, solution: Bytes, options?: EquixOptions): VerifyResult;
};

export interface ChallengeParams {
  /** ID: the blinded service ID, 32 bytes. */
  id: Bytes;
  /** C: the service's seed, 32 bytes. */
  seed: Bytes;
  /** N: the nonce, 16 bytes. */
  nonce: Bytes;
  /** E: the effort, 0 to 2^32 - 1. */
  effort: number;
}

/** A proof as the client sends it. */
export interface Proof {
  /** N, 16 bytes. */
  nonce: Uint8Array;
  /** E. */
  effort: number;
  /** The first 4 bytes of the seed C. */
  seedHead: Uint8Array;
  /** S, the Equi-X solution in wire form, 16 bytes. */
  solution: Uint8Array;
}

export interface SolveOptions {
  id: Bytes;
  seed: Bytes;
  effort: number;
  /** The first nonce (16 bytes); default random. */
  nonce?: Bytes;
  /** Workers to search with, 1 to limits.workers (64) (default: the
   * machine's threads, at most 16); any number finds the proof one worker
   * finds. */
  workers?: number;
  /** Cancels: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called at most every 100 ms, and once at the end. If it throws, the
   * search ends, its workers are terminated and the promise rejects with
   * what it threw. */
  onProgress?: (progress: { attempts: number; seconds: number }) => void;
  /** Give up after this many nonces (0: no limit): an EquixError with
   * code 'FAIL_LIMIT'. */
  maxAttempts?: number;
  /** true: Equi-X v2 is the puzzle (the same challenge string, effort
   * rule and proof form); only pow.verify with v2 accepts the proof. Tor
   * speaks v1 only: v2 is for services that choose it, such as a web
   * gate. */
  v2?: boolean;
}

export interface SolveResult extends Proof {
  /** Nonces tried by all workers together. */
  attempts: number;
  seconds: number;
}

/** The name of an equix_pow_result without the EQUIX_POW_ prefix, each
 * of them (src/pow/result.c). pow.verify gives 'OK' or a failure of its
 * checks: 'FAIL_SEED_HEAD', 'FAIL_EFFORT', then Equi-X's ('FAIL_ORDER',
 * 'FAIL_CHALLENGE', 'FAIL_PARTIAL_SUM', 'FAIL_FINAL_SUM', ...). */
export type PowResult =
  | 'OK' | 'FAIL_SEED_HEAD' | 'FAIL_REPLAY' | 'FAIL_EFFORT' | 'FAIL_CACHE_FULL'
  | 'FAIL_ORDER' | 'FAIL_CHALLENGE' | 'FAIL_PARTIAL_SUM' | 'FAIL_FINAL_SUM'
  | 'FAIL_COMPILE' | 'FAIL_CANCELLED' | 'FAIL_LIMIT' | 'FAIL_LENGTH' | 'FAIL_VERSION'
  | 'FAIL_SYNTAX' | 'FAIL_BASE64' | 'FAIL_NUMBER' | 'FAIL_TIMESTAMP' | 'FAIL_ARGUMENT'
  | 'FAIL_INTERNAL' | 'FAIL_NO_MEMORY' | 'FAIL_LOW_EFFORT' | 'FAIL_SEED_RETIRED'
  | 'FAIL_EVICTED' | 'FAIL_REENTERED';

/** The descriptor's pow-params line. */
export interface PowParams {
  type: 'v1';
  /** C, 32 bytes. */
  seed: Uint8Array;
  suggestedEffort: number;
  /** When the seed expires: seconds since 1970-01-01T00:00:00 UTC. */
  expiration: number;
}

export const pow: {
  /** Tor's v1 client search over workers. Every argument error rejects
   * the promise before any worker starts; a worker that fails or ends
   * rejects it with FAIL_WORKER. */
  solve(options: SolveOptions): Promise<SolveResult>;
  /** The service's stateless checks in its order: seed head, effort,
   * Equi-X (v2 with { v2: true }). A service adds its minimum effort and
   * a replay store. */
  verify(proof: Proof & { id: Bytes; seed: Bytes; v2?: boolean }): PowResult;
  /** The 41-byte PROOF_OF_WORK extension body. */
  encodeExtension(proof: Proof): Uint8Array;
  /** Throws an EquixError with code 'FAIL_LENGTH' or 'FAIL_VERSION'
   * (a body above limits.inputBytes: 'FAIL_TOO_LARGE'). */
  decodeExtension(body: Bytes): Proof;
  /** Throws an EquixError: 'FAIL_SYNTAX', 'FAIL_VERSION', 'FAIL_BASE64',
   * 'FAIL_NUMBER', 'FAIL_TIMESTAMP' (a line above limits.inputBytes:
   * 'FAIL_TOO_LARGE'). */
  parseParams(line: string): PowParams;
  /** The line, without a newline. */
  formatParams(params: { seed: Bytes; suggestedEffort: number; expiration: number }): string;
  /** P || ID || C || N || E (100 bytes), the string Equi-X solves. */
  challenge(params: ChallengeParams): Uint8Array;
  /** R: BLAKE2b-32 of challenge || solution, read big-endian. */
  effortHash(challenge: Bytes, solution: Bytes): number;
  /** Whether R * effort <= 2^32 - 1. */
  effortCheck(challenge: Bytes, solution: Bytes, effort: number): boolean;
};

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The package's errors against their types. Every result name the core
// can report (its ex_*_result_name functions, asked for every value
// from -64 to 64) must be a member of the closed union in index.d.ts
// that a caller compares it with: EquixErrorCode for a failure thrown,
// VerifyResult for equix.verify's answer, PowResult for pow.verify's,
// so that a new result in the C library cannot reach a caller as a code
// its types say does not exist. And `instanceof EquixError` must hold
// for real errors of each kind the package throws (an EquixError, and
// the TypeErrors, RangeErrors and SyntaxErrors of its argument checks,
// which stay what they are), and for none it did not make.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  ready, hashx, equix, pow, fromHex, EquixError,
} from '../src/index.js';
import { need, cString } from '../src/core.js';
import { docRows } from './doc_rows.js';
import {
  hex, hashxVectors, equixVectors, torVectors,
} from './vectors.js';

await ready();

const isNode = new URL(import.meta.url).protocol === 'file:';

// A file of the repository: read in Node, fetched in a browser (the
// runner serves the repository's top).
async function repositoryFile(path) {
  const url = new URL(`../../${path}`, import.meta.url);
  if (isNode) {
    const { readFileSync } = await import('node:fs');
    return readFileSync(url, 'utf8');
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fetching ${url}: ${response.status}`);
  return response.text();
}

const TYPES = await repositoryFile('js/index.d.ts');

// The members of `export type NAME = 'A' | 'B' ...;` in index.d.ts. The
// union must be closed: string literals only, no `string` or other type
// that would admit any name.
function union(name) {
  const m = new RegExp(`export type ${name} =([^;]*);`).exec(TYPES);
  assert.ok(m !== null, `index.d.ts declares no type ${name}`);
  const body = m[1].replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  const members = body.split('|').map((s) => s.trim()).filter((s) => s !== '');
  for (const member of members) {
    assert.match(member, /^'[A-Z][A-Z0-9_]*'$/, `${name} has a member that is not a name's literal: ${member}`);
  }
  return new Set(members.map((s) => s.slice(1, -1)));
}

// Every name the core's `fn` gives for a value from -64 to 64, less
// "UNKNOWN" (its answer for a value outside the enumeration).
function resultNames(fn) {
  const names = new Set();
  for (let r = -64; r <= 64; r++) names.add(cString(need()[fn](r)));
  names.delete('UNKNOWN');
  return [...names];
}

function assertSubset(names, set, where) {
  const missing = names.filter((n) => !set.has(n));
  assert.deepEqual(missing, [], `names the core can report that ${where} lacks`);
}

test('every result name of the core is in its union in index.d.ts', () => {
  const codes = union('EquixErrorCode');
  const hashxNames = resultNames('ex_hashx_result_name');
  const equixNames = resultNames('ex_equix_result_name');
  const powNames = resultNames('ex_pow_result_name');
  // The scan found the lists, not just a few names (the C headers'
  // enumerations: hashx_result, equix_result, equix_pow_result).
  assert.ok(hashxNames.includes('FAIL_SEED') && hashxNames.includes('FAIL_UNPREPARED'), `${hashxNames}`);
  assert.ok(equixNames.includes('FAIL_CHALLENGE') && equixNames.includes('FAIL_NO_SOLVER'), `${equixNames}`);
  assert.ok(powNames.includes('FAIL_SEED_HEAD') && powNames.includes('FAIL_REENTERED'), `${powNames}`);
  const failures = (names) => names.filter((n) => n !== 'OK');
  // hashx() and HashX.hash, equix.solve and the PoW layer's parsers
  // throw any failure of theirs as its code.
  assertSubset(failures(hashxNames), codes, 'EquixErrorCode');
  assertSubset(failures(equixNames), codes, 'EquixErrorCode');
  assertSubset(failures(powNames), codes, 'EquixErrorCode');
  assert.ok(!codes.has('OK'), 'EquixErrorCode has OK, which no error carries');
  // equix.verify and pow.verify return any of theirs.
  assertSubset(equixNames, union('VerifyResult'), 'VerifyResult');
  assertSubset(powNames, union('PowResult'), 'PowResult');
});

test("every code of doc/bad-input.md's js- rows is in EquixErrorCode", async () => {
  const codes = union('EquixErrorCode');
  // OK: a call that succeeds; CALLER: the caller's own error, passed on.
  const wanted = docRows(await repositoryFile('doc/bad-input.md'), 'js-')
    .map((r) => r.want).filter((w) => w !== 'OK' && w !== 'CALLER');
  assert.ok(wanted.length > 0);
  assertSubset([...new Set(wanted)], codes, 'EquixErrorCode');
});

// ---- instanceof ------------------------------------------------------------

const seed = new TextEncoder().encode('This is a test\0');
const v = torVectors()[0];
const proof = {
  id: hex(v.id), seed: hex(v.seed), nonce: hex(v.nonce), effort: v.effort,
  seedHead: hex(v.seed).slice(0, 4), solution: hex(v.solution),
};

function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error(`${fn} did not throw`);
}

async function rejected(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('the promise resolved');
}

function assertEquixError(e, code, Kind) {
  assert.equal(e?.code, code, `${e?.name}: ${e?.message}`);
  assert.ok(e instanceof EquixError, `${code}: not instanceof EquixError`);
  assert.ok(e instanceof Error);
  if (Kind === EquixError) {
    assert.equal(Object.getPrototypeOf(e), EquixError.prototype);
    assert.equal(e.name, 'EquixError');
  } else {
    assert.ok(e instanceof Kind, `${code}: not instanceof ${Kind.name}`);
    assert.equal(e.name, Kind.name);
  }
}

test('argument errors are EquixErrors and stay TypeError, RangeError, SyntaxError', () => {
  assertEquixError(thrown(() => hashx('seed')), 'FAIL_ARGUMENT', TypeError);
  assertEquixError(thrown(() => pow.challenge({ ...proof, effort: -1 })), 'FAIL_ARGUMENT', RangeError);
  assertEquixError(thrown(() => fromHex('0g')), 'FAIL_ARGUMENT', SyntaxError);
  assertEquixError(thrown(() => equix.verify(seed, new Uint8Array(15))), 'FAIL_LENGTH', RangeError);
  assertEquixError(thrown(() => hashx(new Uint8Array((1 << 20) + 1))), 'FAIL_TOO_LARGE', RangeError);
  const gone = new Uint8Array(4);
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  assertEquixError(thrown(() => hashx(gone)), 'FAIL_DETACHED', TypeError);
});

test("the core's failures and the package's own are EquixErrors", async () => {
  const badSeed = hashxVectors('hashx-named.txt').find((x) => x.status === 'fail-seed');
  assert.ok(badSeed !== undefined, 'hashx-named.txt has no failing seed');
  assertEquixError(thrown(() => hashx(hex(badSeed.seed))), 'FAIL_SEED', EquixError);
  const badChallenge = equixVectors('equix-named.txt').find((x) => x.status === 'fail-challenge');
  assert.ok(badChallenge !== undefined, 'equix-named.txt has no failing challenge');
  assertEquixError(thrown(() => equix.solve(hex(badChallenge.challenge))), 'FAIL_CHALLENGE', EquixError);
  const body = pow.encodeExtension(proof);
  body[0] = 2;
  assertEquixError(thrown(() => pow.decodeExtension(body)), 'FAIL_VERSION', EquixError);
  assertEquixError(thrown(() => pow.parseParams('pow-params v1')), 'FAIL_SYNTAX', EquixError);
  const h = hashx(seed);
  h.free();
  assertEquixError(thrown(() => h.hash(0n)), 'FAIL_FREED', EquixError);
  assertEquixError(await rejected(ready({ jit: false })), 'FAIL_OPTIONS', EquixError);
  assertEquixError(await rejected(pow.solve({ ...proof, effort: 2 ** 32 - 1, workers: 1, maxAttempts: 1 })),
    'FAIL_LIMIT', EquixError);
});

test('errors the package did not make are not EquixErrors', async () => {
  const own = Object.assign(new Error('the caller\'s'), { code: 'FAIL_SEED' });
  assert.ok(!(own instanceof EquixError), 'an Error with a code is not the package\'s');
  assert.ok(!(Object.create(EquixError.prototype) instanceof EquixError));
  for (const value of [null, undefined, 'FAIL_SEED', 42, {}]) assert.ok(!(value instanceof EquixError));
  // pow.solve rejects with what the caller's callback threw, unchanged.
  const e = await rejected(pow.solve({ ...proof, effort: 1000, workers: 1, onProgress: () => { throw own; } }));
  assert.equal(e, own);
  assert.ok(!(e instanceof EquixError));
});

// ---- Loading the core ------------------------------------------------------

// A core.js of its own, not yet loaded (a module is one instance per
// URL): ready() can be called there as a first call. It shares
// errors.js, and so EquixError, with the package above.
let instances = 0;
function freshCore() {
  instances++;
  return import(`../src/core.js?fresh=${instances}`);
}

const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

test("ready()'s wasm that is not the core: FAIL_ARGUMENT or FAIL_WASM, EquixErrors", async () => {
  assertEquixError(await rejected((await freshCore()).ready({ wasm: 42 })), 'FAIL_ARGUMENT', TypeError);
  const garbage = await rejected((await freshCore()).ready({ wasm: new Uint8Array([1, 2, 3]) }));
  assertEquixError(garbage, 'FAIL_WASM', EquixError);
  assert.ok(garbage.cause instanceof WebAssembly.CompileError, 'the engine\'s error as the cause');
  const other = await rejected((await freshCore()).ready({ wasm: EMPTY_MODULE }));
  assertEquixError(other, 'FAIL_WASM', EquixError);
  assert.match(other.message, /not the equix core/);
});

test('ready() without dist/equix.wasm: FAIL_FETCH', async (t) => {
  if (!isNode) {
    t.skip('needs Node (a copy of src/ without dist/ next to it)');
    return;
  }
  const { mkdtempSync, cpSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const dir = mkdtempSync(join(tmpdir(), 'equix-no-dist-'));
  try {
    cpSync(new URL('../src/', import.meta.url), join(dir, 'src'), { recursive: true });
    const copy = pathToFileURL(join(dir, 'src', 'index.js')).href;
    const { ready: readyCopy, EquixError: CopyError } = await import(copy);
    const e = await rejected(readyCopy());
    assert.equal(e.code, 'FAIL_FETCH', e.message);
    assert.ok(e instanceof CopyError);
    assert.match(e.message, /dist\/equix\.wasm/);
    assert.equal(e.cause?.code, 'ENOENT');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

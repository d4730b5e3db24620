// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Tor's PoW v1 beyond the puzzle, through the package: the client's search
// in workers (pow.solve), finding Tor's own proofs for all of Tor's vectors
// and, with any number of workers, the proof one worker finds; progress,
// cancellation and the attempt limit; the stateless check of a proof
// (pow.verify) and its failure names in the service's order; the
// INTRODUCE1 extension body; the descriptor's pow-params line, with the
// C suite's own lines.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ready, pow, equix } from '../src/index.js';
import { hex, toHex, torVectors } from './vectors.js';

await ready();

const vectors = torVectors();
const proofOf = (v) => ({
  id: hex(v.id), seed: hex(v.seed), nonce: hex(v.nonce), effort: v.effort,
  seedHead: hex(v.seed).slice(0, 4), solution: hex(v.solution),
});

test('one worker finds Tor\'s proof for every vector, after exactly Tor\'s attempts', async () => {
  for (const [i, v] of vectors.entries()) {
    const p = await pow.solve({ id: hex(v.id), seed: hex(v.seed), nonce: hex(v.start), effort: v.effort, workers: 1 });
    assert.equal(toHex(p.nonce), v.nonce, `vector ${i}: nonce`);
    assert.equal(toHex(p.solution), v.solution, `vector ${i}: solution`);
    assert.equal(p.attempts, v.attempts, `vector ${i}: attempts`);
    assert.equal(p.effort, v.effort);
    assert.equal(toHex(p.seedHead), v.seed.slice(0, 8));
    assert.ok(p.seconds > 0);
  }
});

test('two and three workers find the same proofs as one', async () => {
  for (const workers of [2, 3]) {
    for (const [i, v] of vectors.entries()) {
      if (v.attempts < 2 && i % 4 !== 0) continue; // the ones with a race, and some others
      const p = await pow.solve({ id: hex(v.id), seed: hex(v.seed), nonce: hex(v.start), effort: v.effort, workers });
      assert.equal(toHex(p.nonce), v.nonce, `vector ${i}, ${workers} workers: nonce`);
      assert.equal(toHex(p.solution), v.solution, `vector ${i}, ${workers} workers: solution`);
      // Every nonce up to the winner was tried; others may have been
      // too, and how many depends on timing: a worker still on the
      // winning nonce (its first, slowed by compiling, or descheduled on
      // a loaded machine) lets the others answer any number of later
      // ones until one of them wins, so no upper bound holds.
      assert.ok(p.attempts >= v.attempts, `vector ${i}: ${p.attempts} attempts`);
    }
  }
});

test('on random puzzles three workers return exactly the one-worker proof', async () => {
  const rnd = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n));
  for (let k = 0; k < 10; k++) {
    const job = { id: rnd(32), seed: rnd(32), nonce: rnd(16), effort: 8 + 4 * k };
    const one = await pow.solve({ ...job, workers: 1 });
    const three = await pow.solve({ ...job, workers: 3 });
    const what = `id ${toHex(job.id)} seed ${toHex(job.seed)} nonce ${toHex(job.nonce)} effort ${job.effort}`;
    assert.equal(toHex(three.nonce), toHex(one.nonce), what);
    assert.equal(toHex(three.solution), toHex(one.solution), what);
    assert.equal(pow.verify({ ...job, nonce: one.nonce, seedHead: one.seedHead, solution: one.solution }), 'OK');
  }
});

// The next nonce as the search takes them: a 128-bit little-endian add.
function nextNonce(nonce) {
  const n = nonce.slice();
  for (let i = 0; i < n.length && ++n[i] === 256; i++) n[i] = 0;
  return n;
}

// The v2 proof by the rule itself, one nonce after another: the first
// nonce with an Equi-X v2 solution that meets the effort, the first such
// solution in the solver's order.
function firstV2Proof(job) {
  let nonce = job.nonce;
  for (let attempts = 1; ; attempts++) {
    const challenge = pow.challenge({ ...job, nonce });
    const win = equix.solve(challenge, { v2: true }).find((s) => pow.effortCheck(challenge, s, job.effort));
    if (win !== undefined) return { nonce, solution: win, attempts };
    nonce = nextNonce(nonce);
  }
}

test('v2: the search finds the rule\'s proof over Equi-X v2; only v2 verification accepts it', async () => {
  // Fixed puzzles (the nonce's low byte near its wrap, so that the carry
  // is taken), efforts that need several nonces.
  for (let k = 0; k < 3; k++) {
    const fill = (n, b) => new Uint8Array(n).map((_, i) => (b + 37 * i) & 0xff);
    const job = { id: fill(32, k), seed: fill(32, 100 + k), nonce: fill(16, 250 + k), effort: 12 + 8 * k };
    const want = firstV2Proof(job);
    const got = await pow.solve({ ...job, workers: 2, v2: true });
    const what = `puzzle ${k}`;
    assert.equal(toHex(got.nonce), toHex(want.nonce), `${what}: nonce`);
    assert.equal(toHex(got.solution), toHex(want.solution), `${what}: solution`);
    const proof = { ...job, nonce: got.nonce, seedHead: got.seedHead, solution: got.solution };
    assert.equal(pow.verify({ ...proof, v2: true }), 'OK', what);
    // The same proof under v1: its sums fail (but for a 2^-60 chance).
    assert.ok(['FAIL_PARTIAL_SUM', 'FAIL_FINAL_SUM', 'FAIL_CHALLENGE'].includes(pow.verify(proof)), what);
  }
  await assert.rejects(pow.solve({ id: new Uint8Array(32), seed: new Uint8Array(32), effort: 1, v2: 'yes' }),
    (e) => e.code === 'FAIL_ARGUMENT');
  assert.throws(() => pow.verify({ ...proofOf(vectors[0]), v2: 1 }), (e) => e.code === 'FAIL_ARGUMENT');
  // Tor's own v1 proofs stay OK under v1 and fail under v2.
  assert.equal(pow.verify(proofOf(vectors[0])), 'OK');
  assert.notEqual(pow.verify({ ...proofOf(vectors[0]), v2: true }), 'OK');
});

test('progress is reported with rising attempts; the limit and the signal stop the search', async () => {
  const base = { id: new Uint8Array(32).fill(1), seed: new Uint8Array(32).fill(2), nonce: new Uint8Array(16) };
  const seen = [];
  const limited = pow.solve({ ...base, effort: 0xffffffff, workers: 2, maxAttempts: 12,
    onProgress: (p) => seen.push(p) });
  await assert.rejects(limited, (e) => e.code === 'FAIL_LIMIT');
  assert.ok(seen.length >= 1, 'no progress reported');
  for (let i = 1; i < seen.length; i++) {
    assert.ok(seen[i].attempts >= seen[i - 1].attempts && seen[i].seconds >= seen[i - 1].seconds);
  }
  assert.ok(seen.at(-1).attempts <= 12);

  // Already aborted: rejects at once with the signal's reason.
  const reason = new Error('not now');
  await assert.rejects(pow.solve({ ...base, effort: 1, signal: AbortSignal.abort(reason) }), (e) => e === reason);
  // Aborted while searching (an effort no nonce meets in a second).
  const controller = new AbortController();
  const t0 = performance.now();
  const running = pow.solve({ ...base, effort: 0xffffffff, workers: 2, signal: controller.signal });
  setTimeout(() => controller.abort(), 300);
  await assert.rejects(running, (e) => e.name === 'AbortError');
  assert.ok(performance.now() - t0 < 5000, 'the abort took effect late');
});

test('bad arguments are refused before any work', async () => {
  const v = vectors[0];
  const ok = { id: hex(v.id), seed: hex(v.seed), nonce: hex(v.start), effort: v.effort };
  await assert.rejects(pow.solve({ ...ok, id: new Uint8Array(31) }), RangeError);
  await assert.rejects(pow.solve({ ...ok, nonce: new Uint8Array(15) }), RangeError);
  await assert.rejects(pow.solve({ ...ok, effort: -1 }), RangeError);
  await assert.rejects(pow.solve({ ...ok, workers: 0 }), RangeError);
  await assert.rejects(pow.solve({ ...ok, seed: 'seed' }), TypeError);
});

test('verify: every vector\'s proof is OK; each fault gets its name, in the service\'s order', () => {
  for (const [i, v] of vectors.entries()) assert.equal(pow.verify(proofOf(v)), 'OK', `vector ${i}`);
  const v = vectors.find((x) => x.effort === 0);
  const p = proofOf(vectors.find((x) => x.effort >= 1000));
  // 1. the seed head must name the seed
  const head = Uint8Array.from(p.seedHead);
  head[3] ^= 1;
  assert.equal(pow.verify({ ...p, seedHead: head }), 'FAIL_SEED_HEAD');
  // ...checked before the effort: both wrong, the seed head is named
  assert.equal(pow.verify({ ...p, seedHead: head, effort: 0xffffffff }), 'FAIL_SEED_HEAD');
  // 3. the effort check
  assert.equal(pow.verify({ ...p, effort: 0xffffffff }), 'FAIL_EFFORT');
  // 5. Equi-X, on a proof of effort 0 (every solution passes the check)
  const z = proofOf(v);
  const swapped = Uint8Array.from([...z.solution.slice(8), ...z.solution.slice(0, 8)]);
  assert.equal(pow.verify({ ...z, solution: swapped }), 'FAIL_ORDER');
  const other = proofOf(vectors.find((x) => x !== v && x.effort === 0) ?? vectors[1]);
  assert.match(pow.verify({ ...z, solution: other.solution }), /^FAIL_(PARTIAL|FINAL)_SUM$/);
  assert.throws(() => pow.verify({ ...p, solution: new Uint8Array(15) }), RangeError);
});

test('the extension body: Tor\'s layout, both ways, and its faults', () => {
  const v = vectors[5];
  const p = proofOf(v);
  const body = pow.encodeExtension(p);
  assert.equal(body.length, 41);
  assert.equal(body[0], 1, 'version 1');
  assert.equal(toHex(body.subarray(1, 17)), v.nonce);
  assert.equal(new DataView(body.buffer).getUint32(17, false), v.effort, 'effort, big-endian');
  assert.equal(toHex(body.subarray(21, 25)), v.seed.slice(0, 8));
  assert.equal(toHex(body.subarray(25)), v.solution);
  const back = pow.decodeExtension(body);
  assert.deepEqual({ ...back, nonce: toHex(back.nonce), seedHead: toHex(back.seedHead), solution: toHex(back.solution) },
    { nonce: v.nonce, effort: v.effort, seedHead: v.seed.slice(0, 8), solution: v.solution });
  const code = (bytes) => { try { pow.decodeExtension(bytes); return 'OK'; } catch (e) { return e.code; } };
  assert.equal(code(new Uint8Array(0)), 'FAIL_LENGTH');
  assert.equal(code(body.subarray(0, 40)), 'FAIL_LENGTH');
  assert.equal(code(Uint8Array.from([...body, 0])), 'FAIL_LENGTH');
  const v2 = Uint8Array.from(body);
  v2[0] = 2;
  assert.equal(code(v2), 'FAIL_VERSION');
});

test('pow-params: the C suite\'s lines, both ways, and malformed lines refused', () => {
  const cases = [
    [1796229000, '2026-12-02T16:30:00'], [951868799, '2000-02-29T23:59:59'],
    [2147483648, '2038-01-19T03:14:08'], [0, '1970-01-01T00:00:00'],
    [253402300799, '9999-12-31T23:59:59'],
  ];
  const seed = new Uint8Array(32).fill(0xaa);
  for (const [time, stamp] of cases) {
    const line = `pow-params v1 qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo 250 ${stamp}`;
    assert.equal(pow.formatParams({ seed, suggestedEffort: 250, expiration: time }), line);
    const p = pow.parseParams(line);
    assert.deepEqual({ ...p, seed: toHex(p.seed) }, { type: 'v1', seed: toHex(seed), suggestedEffort: 250, expiration: time });
    assert.equal(pow.parseParams(`${line}\n`).expiration, time, 'one final newline allowed');
  }
  const code = (line) => { try { pow.parseParams(line); return 'OK'; } catch (e) { return e.code; } };
  const good = 'pow-params v1 qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo 250 2026-12-02T16:30:00';
  assert.equal(code(good), 'OK');
  assert.equal(code(good.replace('v1', 'v2')), 'FAIL_VERSION');
  assert.equal(code(good.replace(' 250 ', ' 0250 ')), 'FAIL_NUMBER');
  assert.equal(code(good.replace(' 250 ', ' 4294967296 ')), 'FAIL_NUMBER');
  assert.equal(code(good.replace('qo ', 'q= ')), 'FAIL_BASE64');
  assert.equal(code(good.replace('16:30:00', '16:30:60')), 'FAIL_TIMESTAMP');
  assert.equal(code(good.replace('  ', ' ').replace(' 250', '  250')), 'FAIL_SYNTAX');
  assert.equal(code(''), 'FAIL_SYNTAX');
  assert.throws(() => pow.formatParams({ seed, suggestedEffort: 250, expiration: -1 }), (e) => e.code === 'FAIL_TIMESTAMP');
  assert.throws(() => pow.parseParams(42), TypeError);
});

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Readers for the repository's reference vectors (tests/vectors/, the
// files the C tests read; their format is in the vectors' README), so
// that the package is checked against exactly the same outputs.

import { readFileSync } from 'node:fs';

const vectors = new URL('../../tests/vectors/', import.meta.url);

export function hex(s) {
  return s === '-' ? new Uint8Array(0) : Uint8Array.from(Buffer.from(s, 'hex'));
}

export function toHex(bytes) {
  return Buffer.from(bytes).toString('hex');
}

function lines(name) {
  return readFileSync(new URL(name, vectors), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));
}

// "hashx SEED ok NONCE:HASH x4" or "hashx SEED fail-seed"; block mode's
// "hashx-block SEED ok INPUT:HASH x4".
export function hashxVectors(name) {
  return lines(name).map(([kind, seed, status, ...pairs], i) => {
    if (kind !== 'hashx' && kind !== 'hashx-block') {
      throw new Error(`${name}:${i + 1}: not a HashX line`);
    }
    return {
      line: i + 1,
      seed,
      ok: status === 'ok',
      status,
      cases: pairs.map((p) => {
        const [input, hash] = p.split(':');
        return { input, hash };
      }),
    };
  });
}

// "equix CHALLENGE ok COUNT SOL..." (SOL: eight hex indices joined by
// commas) or "equix CHALLENGE fail-challenge".
export function equixVectors(name) {
  return lines(name).map(([kind, challenge, status, count, ...sols], i) => {
    if (kind !== 'equix') throw new Error(`${name}:${i + 1}: not an Equi-X line`);
    const parsed = sols.map((s) => s.split(',').map((x) => parseInt(x, 16)));
    if (status === 'ok' && parsed.length !== Number(count)) {
      throw new Error(`${name}:${i + 1}: COUNT says ${count}, ${parsed.length} listed`);
    }
    return { line: i + 1, challenge, ok: status === 'ok', status, sols: parsed };
  });
}

// The eight indices in the 16-byte wire form (equix_solution_pack: each
// index little-endian, in tree order).
export function wire(indices) {
  const out = new Uint8Array(16);
  indices.forEach((x, i) => {
    out[2 * i] = x & 0xff;
    out[2 * i + 1] = x >> 8;
  });
  return out;
}

export function indices(wireForm) {
  const out = [];
  for (let i = 0; i < 8; i++) out.push(wireForm[2 * i] | (wireForm[2 * i + 1] << 8));
  return out;
}

// Tor's v1 vectors as tests/test_pow.c holds them (its tor_vectors table,
// copied there from Tor's test_hs_pow_slow.c): read from that file so
// that both suites check the same proofs. Each entry is
//   {effort, "start", seed, id, "nonce", "solution", attempts},
// where seed and id are string literals or the table's #define names.
export function torVectors() {
  const src = readFileSync(new URL('../../tests/test_pow.c', import.meta.url), 'utf8');
  const start = src.indexOf('tor_vectors[] = {');
  const end = src.indexOf('};', start);
  if (start < 0 || end < 0) throw new Error('tests/test_pow.c: no tor_vectors table');
  const table = src.slice(start, end);
  const defines = {};
  for (const m of table.matchAll(/#define\s+(\w+)\s+"([0-9a-f]+)"/g)) defines[m[1]] = m[2];
  const value = (tok) => {
    const t = tok.trim();
    if (t.startsWith('"')) return t.slice(1, -1);
    if (t in defines) return defines[t];
    throw new Error(`tests/test_pow.c: unknown name ${t} in tor_vectors`);
  };
  const entries = [];
  for (const m of table.matchAll(/\{\s*(\d+),([^{}]*?),\s*(\d+)\s*\}/gs)) {
    const fields = m[2].split(',').map(value);
    if (fields.length !== 5) throw new Error(`tests/test_pow.c: bad entry ${m[0]}`);
    const [startNonce, seed, id, nonce, solution] = fields;
    entries.push({
      effort: Number(m[1]),
      start: startNonce,
      seed,
      id,
      nonce,
      solution,
      attempts: Number(m[3]),
    });
  }
  if (entries.length === 0) throw new Error('tests/test_pow.c: tor_vectors parsed empty');
  return entries;
}

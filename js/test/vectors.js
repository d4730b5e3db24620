// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Readers for the repository's reference vectors (tests/vectors/, the
// files the C tests read; their format is in the vectors' README), so
// that the package is checked against exactly the same outputs.
//
// The same module serves Node and browsers (test/browser/run.js runs the
// suite in Chromium): under Node (this module's URL is a file: URL) the
// files are read with node:fs when asked for; in a browser, which can
// neither read files nor list a directory, the files below are fetched
// once, relative to this module, before the module finishes loading (the
// readers stay synchronous, as the tests call them).

const vectors = new URL('../../tests/vectors/', import.meta.url);
const torTable = new URL('../../tests/test_pow.c', import.meta.url);

// What the browser fetches up front: every file of tests/vectors/ and
// tests/test_pow.c. A file added there and read here must be added too
// (readText says so).
const BROWSER_FILES = [
  'equix-named.txt', 'equix-v2.txt', 'equix.txt', 'hashwx-v2.txt', 'hashx-block.txt',
  'hashx-named.txt', 'hashx.txt', 'siphash24.txt',
].map((name) => new URL(name, vectors)).concat([torTable]);

let readText;
if (new URL(import.meta.url).protocol === 'file:') {
  const { readFileSync } = await import('node:fs');
  readText = (url) => readFileSync(url, 'utf8');
} else {
  const texts = new Map(await Promise.all(BROWSER_FILES.map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`vectors.js: fetching ${url}: ${response.status}`);
    return [url.href, await response.text()];
  })));
  readText = (url) => {
    const text = texts.get(url.href);
    if (text === undefined) {
      throw new Error(`vectors.js: ${url} is not among the files fetched in a browser (BROWSER_FILES)`);
    }
    return text;
  };
}

// Hex without Buffer (which browsers lack); "-" is the empty string, as
// in the vector files. Unlike Buffer.from(s, 'hex'), malformed hex throws
// instead of being cut short silently.
export function hex(s) {
  if (s === '-') return new Uint8Array(0);
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) {
    throw new Error(`vectors.js: not hex: ${s.length > 40 ? `${s.slice(0, 40)}...` : s}`);
  }
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(2 * i, 2), 16);
  return out;
}

export function toHex(bytes) {
  const b = bytes instanceof Uint8Array ? bytes
    : ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : Uint8Array.from(bytes);
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

function lines(name) {
  return readText(new URL(name, vectors))
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

// HashWX's corpus, recorded from tevador's reference: "hashwx SEED
// NONCE:HASH ...", the 32-byte seed in hex, each nonce and its hash as
// 64-bit integers in hex (tools/common/vectors.h reads them for C).
export function hashwxVectors(name) {
  return lines(name).map(([kind, seed, ...pairs], i) => {
    if (kind !== 'hashwx' || seed === undefined || seed.length !== 64 || pairs.length === 0) {
      throw new Error(`${name}:${i + 1}: not a HashWX line`);
    }
    return {
      line: i + 1,
      seed: hex(seed),
      cases: pairs.map((p) => {
        const [nonce, hash] = p.split(':');
        if (hash === undefined) throw new Error(`${name}:${i + 1}: ${p} is not NONCE:HASH`);
        return { nonce: BigInt(`0x${nonce}`), hash: BigInt(`0x${hash}`) };
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

// Equi-X v2's corpus, recorded from the reference's equix_v2 branch:
// "equixv2 CHALLENGE COUNT SOL...", the challenge in hex ("-": empty),
// SOL as in equix.txt. Every v2 challenge has a hash function, so there
// is no status.
export function equixV2Vectors(name) {
  return lines(name).map(([kind, challenge, count, ...sols], i) => {
    if (kind !== 'equixv2' || count === undefined) throw new Error(`${name}:${i + 1}: not an Equi-X v2 line`);
    const parsed = sols.map((s) => s.split(',').map((x) => parseInt(x, 16)));
    if (parsed.length !== Number(count)) {
      throw new Error(`${name}:${i + 1}: COUNT says ${count}, ${parsed.length} listed`);
    }
    return { line: i + 1, challenge: challenge === '-' ? '' : challenge, sols: parsed };
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
  const src = readText(torTable);
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

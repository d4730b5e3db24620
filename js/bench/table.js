// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// README.md's speed tables, Equi-X v1 and v2, in one run on one machine:
// the native library (equix-bench with HASHX_IMPL=scalar and
// HASHWX_IMPL=scalar, the scalar JITs, and equix-cli pow solve), the package in Node (this process) and in headless Chromium
// (bench/browser.html, driven by playwright-core with Debian's
// /usr/bin/chromium), each measured by bench/speed.js the same way. The
// PoW searches use the same fixed inputs everywhere, so they try the same
// nonces and must find the same proofs, which is checked.
//
//   node bench/table.js [--native DIR] [--solves N] [--interpreted N]
//                       [--effort E] [--runs R] [--workers 1,2] [--json]
// DIR is a configured build tree (default ../build/release, which
// scripts/build.sh makes).

import { execFileSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { measure, powCase } from './speed.js';
import { addressOf, launchChromium, serveDirectory } from '../test/browser/chromium.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const top = resolve(here, '..', '..');
const { values: args } = parseArgs({
  options: {
    native: { type: 'string', default: join(top, 'build', 'release') },
    solves: { type: 'string', default: '100' },
    interpreted: { type: 'string', default: '20' },
    effort: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '4' },
    workers: { type: 'string', default: '1,2' },
    json: { type: 'boolean', default: false },
  },
});
const options = {
  solves: Number(args.solves),
  interpretedSolves: Number(args.interpreted),
  powEffort: Number(args.effort),
  powRuns: Number(args.runs),
  workers: args.workers.split(',').map(Number),
};
const hex = (b) => Buffer.from(b).toString('hex');

function nativeBench(filter, impl, v2impl = 'scalar') {
  // Baselines go to a scratch directory: this is a measurement, not a
  // comparison with an earlier run.
  const results = mkdtempSync(join(tmpdir(), 'equix-bench-'));
  let out;
  try {
    out = execFileSync(join(args.native, 'bench', 'equix-bench'),
      ['--no-report', '--json', '--results', results, '--sample-size', '20',
        '--warm-up-time', '1', '--measurement-time', '3', '--filter', filter],
      { env: { ...process.env, HASHX_IMPL: impl, HASHWX_IMPL: v2impl }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
  const figures = {};
  for (const b of JSON.parse(out).benchmarks) figures[b.name] = b.estimates_ns.mean.point;
  return figures;
}

function nativePow(workers) {
  let seconds = 0;
  let attempts = 0;
  const proofs = [];
  for (let k = 0; k < options.powRuns; k++) {
    const { id, seed, nonce } = powCase(k);
    const t0 = performance.now();
    const out = JSON.parse(execFileSync(join(args.native, 'src', 'cli', 'equix-cli'),
      ['pow', 'solve', '--id', hex(id), '--seed', hex(seed), '--nonce', hex(nonce),
        '--effort', String(options.powEffort), '--threads', String(workers), '--json', '-q'],
      { encoding: 'utf8' }));
    seconds += (performance.now() - t0) / 1000; // the process included, as a user runs it
    attempts += out.attempts;
    proofs.push(`${out.nonce}:${out.solution}`);
  }
  return { workers, effort: options.powEffort, runs: options.powRuns, attempts, seconds, proofs };
}

async function inChromium() {
  const server = await serveDirectory(top);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const url = addressOf(server, `/js/bench/browser.html?options=${encodeURIComponent(JSON.stringify(options))}`);
    await page.goto(url);
    await page.waitForFunction(() => window.result || window.failure, null, { timeout: 30 * 60 * 1000 });
    const failure = await page.evaluate(() => window.failure);
    if (failure) throw new Error(`in Chromium: ${failure}`);
    return { version: browser.version(), ...(await page.evaluate(() => window.result)) };
  } finally {
    await browser.close();
    server.close();
  }
}

const native = {
  ...nativeBench('^(solve/compiled|verify/try-compile)$', 'scalar'),
  ...nativeBench('^solve/interp$', 'portable'),
  ...nativeBench('^(solve-v2/(compiled|interp)|verify-v2/try-compile)$', 'scalar'),
  pow: options.workers.map(nativePow),
};
const node = await measure(options);
const browser = await inChromium();

for (const [where, r] of [['Node', node], ['Chromium', browser]]) {
  r.pow.forEach((p, i) => {
    if (p.proofs.join() !== native.pow[i].proofs.join()) {
      throw new Error(`${where} found other PoW proofs than the native library: ${p.proofs} vs ${native.pow[i].proofs}`);
    }
  });
}

const ms = (x) => `${x.toFixed(1)} ms`;
const us = (x) => `${x.toFixed(1)} µs`;
const ratio = (x, y) => `${(x / y).toFixed(2)}×`;
const pows = (r, f) => r.pow.map(f);

// One table's rows: native JIT and interpreter, then each engine's
// compiled and interpreted module; `name(kind)` is equix-bench's name of
// a row ('solve/compiled'...), `figures(r)` a run's figures of the version.
function tableRows(name, figures, withPow) {
  const nsolve = native[name('solve', 'compiled')] / 1e6;
  const powCells = (r) => (withPow ? pows(r, (p) => `${(p.seconds / p.runs).toFixed(2)} s`) : []);
  const blank = withPow ? options.workers.map(() => '') : [];
  const rows = [
    ['native scalar JIT', ms(nsolve), us(native[name('verify', 'try-compile')] / 1e3), ...powCells(native), '1×'],
    ['native interpreter', ms(native[name('solve', 'interp')] / 1e6), '', ...blank,
      ratio(native[name('solve', 'interp')] / 1e6, nsolve)],
  ];
  for (const [where, r] of [['Node 20', node], [`Chromium ${browser.version}`, browser]]) {
    const f = figures(r);
    rows.push([`wasm JIT, ${where}`, ms(f.solveMs.compiled), us(f.verifyUs.tryCompile),
      ...powCells(r), ratio(f.solveMs.compiled, nsolve)]);
    rows.push([`wasm interpreter, ${where}`, ms(f.solveMs.interpreted), us(f.verifyUs.interpreted),
      ...blank, ratio(f.solveMs.interpreted, nsolve)]);
  }
  return rows;
}

function printTable(title, head, rows) {
  console.log(title);
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

if (args.json) {
  console.log(JSON.stringify({ cpu: cpus()[0]?.model, options, native, node, browser }, null, 2));
} else {
  console.log(`CPU: ${cpus()[0]?.model} (${cpus().length} threads); ${options.solves} challenges compiled, ${options.interpretedSolves} interpreted; PoW: ${options.powRuns} fixed searches, ${native.pow[0].attempts} nonces in all`);
  const powHead = options.workers.map((w) => `PoW solve, effort ${options.powEffort}, ${w} worker${w > 1 ? 's' : ''}`);
  printTable('Equi-X v1 (HashX):', ['', 'Equi-X solve', 'verify', ...powHead, 'solve vs native JIT'],
    tableRows((k, m) => `${k}/${m}`, (r) => r.v1, true));
  printTable('Equi-X v2 (HashWX):', ['', 'Equi-X v2 solve', 'verify', 'solve vs native JIT'],
    tableRows((k, m) => `${k}-v2/${m}`, (r) => r.v2, false));
  for (const v of ['v1', 'v2']) {
    console.log(`wasm JIT vs wasm interpreter, ${v} solve: Node ${ratio(node[v].solveMs.interpreted, node[v].solveMs.compiled)}, Chromium ${ratio(browser[v].solveMs.interpreted, browser[v].solveMs.compiled)}`);
  }
}

#!/usr/bin/env node
// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The package's test suite (js/test/*.test.js, the files node --test
// runs) in Debian's headless Chromium: serves the repository on loopback,
// opens index.html with the files to run, and prints the page's results
// as TAP with node --test's closing counts ("# pass N" and the rest), so
// that scripts/test.sh --wasm reads both suites the same way. Then the
// package under two Content-Security-Policies (csp.html), and a page
// that Vite builds from bundle/, one test each.
//
//   node test/browser/run.js [--files a.test.js,b.test.js]
//                            [--screenshot FILE] [--timeout MINUTES]
//   node test/browser/run.js --serve     (serves, prints the address, and
//                                         waits: open it in a browser)
//
// Exits 0 only when every test ran and none failed: a failure, an error
// thrown outside a test, a page that never finishes, or no tests at all
// is a non-zero status.

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';

import { addressOf, launchChromium, serveDirectory } from './chromium.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const jsDir = resolve(here, '..', '..');
const top = resolve(jsDir, '..');

const { values: args } = parseArgs({
  options: {
    files: { type: 'string' },
    screenshot: { type: 'string' },
    timeout: { type: 'string', default: '30' },
    serve: { type: 'boolean', default: false },
  },
});

const files = args.files !== undefined
  ? args.files.split(',').filter((f) => f !== '')
  : readdirSync(join(jsDir, 'test')).filter((f) => f.endsWith('.test.js')).sort();

// node:assert for the page. Node's assert is part of Node, not a file a
// browser can load; the npm package "assert" is its port (the one
// bundlers use for it), in CommonJS on top of the npm "util" port, so
// esbuild turns it into one ES module here. Both read a few fields of
// Node's `process` (NODE_DEBUG, deprecation switches), given below as a
// module-local stand-in so that nothing global changes for the tests.
async function assertModules() {
  const { build } = await import('esbuild');
  const bundle = async (contents) => {
    const out = await build({
      stdin: { contents, resolveDir: jsDir, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'error',
      banner: { js: 'const process = { env: {}, nextTick: (f, ...a) => queueMicrotask(() => f(...a)) };' },
    });
    return { type: 'text/javascript; charset=utf-8', body: out.outputFiles[0].text };
  };
  return new Map([
    ['/js/test/browser/assert.js', await bundle("import a from 'assert'; export default a;")],
    ['/js/test/browser/assert-strict.js', await bundle("import a from 'assert'; export default a.strict;")],
  ]);
}

// The package under two Content-Security-Policies (csp.html, served
// with each as its header): the policy a site needs, and one without
// 'wasm-unsafe-eval', where a browser refuses all WebAssembly and
// ready() must say so (jit.test.js covers the other refusal, an engine
// that runs the core but refuses run-time modules, in Node).
const REFERENCE = '2b2f54567dcbea98fdb5d5e5ce9a65983c4a4e35ab1464b1efb61e83b7074bb2'; // "This is a test\0", input 0
const POLICIES = [
  {
    path: '/js/test/browser/csp-wasm.html',
    name: "CSP script-src 'self' 'wasm-unsafe-eval': HashX compiled, bit-exact",
    policy: "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'",
    failure: (r) => (!r.ready ? `ready() rejected: ${r.error}`
      : !r.compiled ? `not compiled: ${r.status.refusal}`
        : r.hash !== REFERENCE || r.interpreted !== REFERENCE ? `hashes ${r.hash} / ${r.interpreted}, want ${REFERENCE}`
          : null),
  },
  {
    path: '/js/test/browser/csp-strict.html',
    name: "CSP script-src 'self' alone: ready() rejects with FAIL_WASM, naming 'wasm-unsafe-eval'",
    policy: "default-src 'self'; script-src 'self'",
    failure: (r) => (r.ready ? 'ready() resolved'
      : r.code !== 'FAIL_WASM' || !r.error.includes("'wasm-unsafe-eval'") ? `rejected with ${r.code}: ${r.error}`
        : null),
  },
];

function policyPages() {
  const body = readFileSync(join(here, 'csp.html'));
  return POLICIES.map((p) => [p.path, {
    type: 'text/html; charset=utf-8', body, headers: { 'content-security-policy': p.policy },
  }]);
}

async function checkPolicies(browser, server) {
  console.log('# csp.html');
  for (const p of POLICIES) {
    const started = performance.now();
    const page = await browser.newPage();
    let failure;
    try {
      await page.goto(addressOf(server, p.path));
      await page.waitForFunction(() => window.__equixCsp, null, { timeout: 60_000 });
      failure = p.failure(await page.evaluate(() => window.__equixCsp));
    } catch (e) {
      failure = e.message;
    } finally {
      await page.close();
    }
    printCheck('csp.html', p.name, failure, started);
  }
}

// The package as an application gets it through a bundler: Vite builds
// bundle/ (which imports 'equix' by name) into a scratch directory, and
// the page must load the core the bundler emitted, compile HashX, and
// solve in the workers it built, finding the one-worker proof.
async function checkBundle(browser) {
  const started = performance.now();
  const out = mkdtempSync(join(tmpdir(), 'equix-bundle-'));
  let failure = null;
  let server = null;
  try {
    const { build } = await import('vite');
    await build({
      root: join(here, 'bundle'), logLevel: 'error', configFile: false,
      build: { outDir: out, emptyOutDir: true },
    });
    server = await serveDirectory(out);
    const page = await browser.newPage();
    try {
      await page.goto(addressOf(server, '/index.html'));
      await page.waitForFunction(() => window.__equixBundle, null, { timeout: 120_000 });
      const r = await page.evaluate(() => window.__equixBundle);
      failure = r.error ?? (!r.compiled ? 'HashX not compiled'
        : r.hash !== REFERENCE ? `hash ${r.hash}, want ${REFERENCE}`
          : r.proof !== r.oneWorker ? `two workers found ${r.proof}, one worker ${r.oneWorker}`
            : r.verify !== 'OK' ? `pow.verify: ${r.verify}` : null);
    } finally {
      await page.close();
    }
  } catch (e) {
    failure = e.message;
  } finally {
    server?.close();
    rmSync(out, { recursive: true, force: true });
  }
  console.log('# bundle/ (Vite)');
  printCheck('bundle/', "built by Vite from import 'equix': core, compiled HashX, pow.solve in the bundled workers",
    failure, started);
}

// ---- TAP ------------------------------------------------------------------

let count = 0;
const totals = { tests: 0, suites: 0, pass: 0, fail: 0, skipped: 0, todo: 0 };

function yamlBlock(fields) {
  const lines = ['  ---'];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || value === '') continue;
    const text = String(value);
    if (text.includes('\n')) {
      lines.push(`  ${key}: |-`);
      for (const line of text.split('\n')) lines.push(`    ${line}`);
    } else {
      lines.push(`  ${key}: ${JSON.stringify(text)}`);
    }
  }
  lines.push('  ...');
  return lines.join('\n');
}

function printResult(r) {
  if (r.suite) {
    totals.suites++;
    if (r.status !== 'fail') return;
  }
  totals.tests++;
  const key = { pass: 'pass', fail: 'fail', skip: 'skipped', todo: 'todo' }[r.status];
  totals[key]++;
  const directive = r.status === 'skip' ? ` # SKIP${r.reason ? ` ${r.reason}` : ''}`
    : r.status === 'todo' ? ` # TODO${r.reason ? ` ${r.reason}` : ''}` : '';
  count++;
  console.log(`${r.status === 'fail' ? 'not ok' : 'ok'} ${count} - ${r.file}: ${r.name}${directive}`);
  for (const d of r.diagnostics ?? []) console.log(`# ${d}`);
  console.log(yamlBlock({
    duration_ms: r.duration?.toFixed(3),
    error: r.error?.message,
    code: r.error?.code,
    stack: r.error?.stack,
  }));
}

// A test this runner made itself (the CSP pages, the bundle): passed
// when `failure` is null, else failed with that message.
function printCheck(file, name, failure, started) {
  printResult({
    file, name, suite: false, status: failure === null ? 'pass' : 'fail',
    error: failure === null ? null : { message: failure },
    duration: started === undefined ? undefined : performance.now() - started, diagnostics: [],
  });
}

// A failure the page did not report as a test (an uncaught error, a
// crash, a timeout) still counts as one.
function printFailure(name, message) {
  printCheck('(page)', name, message);
}

function printTotals(started) {
  console.log(`1..${count}`);
  for (const key of ['tests', 'suites', 'pass', 'fail']) console.log(`# ${key} ${totals[key]}`);
  console.log('# cancelled 0');
  console.log(`# skipped ${totals.skipped}`);
  console.log(`# todo ${totals.todo}`);
  console.log(`# duration_ms ${(performance.now() - started).toFixed(3)}`);
}

// ---- Driving the page -------------------------------------------------------

async function run(server) {
  const started = performance.now();
  const browser = await launchChromium();
  console.log('TAP version 13');
  console.log(`# Chromium ${browser.version()}, ${files.length} files`);
  let finished = null;
  let signalDone;
  const done = new Promise((ok) => { signalDone = ok; });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => printFailure('uncaught error', e.stack || e.message));
    page.on('crash', () => { printFailure('page crashed', 'the renderer crashed'); signalDone(); });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') console.log(`# console.${m.type()}: ${m.text()}`);
    });
    await page.exposeFunction('__equixReport', (event) => {
      if (event.type === 'file') console.log(`# ${event.file}`);
      else printResult(event);
    });
    await page.exposeFunction('__equixFinished', (summary) => {
      finished = summary;
      signalDone();
    });
    const query = new URLSearchParams({ files: files.join(',') });
    await page.goto(addressOf(server, `/js/test/browser/index.html?${query}`));
    const minutes = Number(args.timeout);
    let timer;
    const expired = new Promise((ok) => { timer = setTimeout(ok, minutes * 60_000); });
    await Promise.race([done, expired]);
    clearTimeout(timer);
    if (finished === null) printFailure('suite did not finish', `no result after ${minutes} minutes`);
    if (args.screenshot) {
      await page.screenshot({ path: args.screenshot, fullPage: true });
      console.log(`# screenshot: ${args.screenshot}`);
    }
    await checkPolicies(browser, server);
    await checkBundle(browser);
  } finally {
    await browser.close();
  }
  printTotals(started);
  return finished !== null && totals.fail === 0 && totals.tests > 0 ? 0 : 1;
}

const server = await serveDirectory(top, new Map([...await assertModules(), ...policyPages()]));
if (args.serve) {
  const query = new URLSearchParams({ files: files.join(',') });
  console.log(`serving ${top}: open ${addressOf(server, `/js/test/browser/index.html?${query}`)} (Ctrl-C ends)`);
} else {
  let status = 1;
  try {
    status = await run(server);
  } finally {
    server.close();
  }
  process.exitCode = status;
}

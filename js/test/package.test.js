// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The package as npm packs it. `npm pack --dry-run --json` here must
// list exactly what a user's install needs (the core, the modules, the
// types, the README, the LICENSE, package.json) and nothing of the
// tests or the build's work tree; prepack.sh (which npm runs first, and
// which copies the top LICENSE here, an ignored file) must refuse, in one
// line on standard error, to pack without the core when told not to
// build it, and copy the LICENSE when the core is there; and the
// tarball, installed into an empty project, must work from a plain Node
// script and from a page in Chromium. All need Node (they run npm and
// sh); a browser skips them.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';

const inNode = new URL(import.meta.url).protocol === 'file:';
const NEEDS_NODE = 'needs Node (runs npm and sh)';

const js = new URL('../', import.meta.url);
const top = new URL('../../', import.meta.url);

// Runs `command` with `args` in `cwd`; resolves { status, stdout, stderr }.
async function run(command, args, { cwd, env }) {
  const { execFile } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  return new Promise((resolve) => {
    execFile(command, args, { cwd: fileURLToPath(cwd), env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ status: error === null ? 0 : error.code, stdout, stderr }));
  });
}

test('npm pack lists the core, the modules, the types, README.md and LICENSE, and nothing else', async (t) => {
  if (!inNode) {
    t.skip(NEEDS_NODE);
    return;
  }
  const { existsSync, readdirSync } = await import('node:fs');
  // Without the core, prepack.sh would build it (minutes) or, as here,
  // refuse: either way this test is not to pass on a tree that lacks it.
  assert.ok(existsSync(new URL('dist/equix.wasm', js)), 'js/dist/equix.wasm is missing: run js/build.sh');
  const r = await run('npm', ['pack', '--dry-run', '--json'], { cwd: js, env: { EQUIX_PREPACK_NO_BUILD: '1' } });
  assert.equal(r.status, 0, `npm pack --dry-run failed: ${r.stderr}`);
  const [pack] = JSON.parse(r.stdout);
  const listed = pack.files.map((f) => f.path).sort();
  for (const path of listed) {
    assert.ok(!/^(test|build|node_modules)\//.test(path), `the tarball has ${path}`);
  }
  // src/'s JavaScript, not its C (compiled into the core) nor its
  // README.md (the sources' map, for contributors).
  const src = readdirSync(new URL('src/', js)).filter((f) => f.endsWith('.js'));
  assert.ok(src.includes('index.js') && src.includes('errors.js') && src.includes('hex.js'), `src/: ${src}`);
  const want = ['LICENSE', 'README.md', 'package.json', 'index.d.ts', 'dist/equix.wasm',
    ...src.map((f) => `src/${f}`)].sort();
  assert.deepEqual(listed, want);
  const wasm = pack.files.find((f) => f.path === 'dist/equix.wasm');
  assert.ok(wasm.size > 1000, `dist/equix.wasm is ${wasm.size} bytes`);
});

// A scratch repository for prepack.sh: `top`/LICENSE (unless `license`
// is false) and `top`/js/prepack.sh, with `top`/js/dist/equix.wasm when
// `core` is given (its bytes).
async function scratch({ license = true, core = null }) {
  const { mkdtempSync, mkdirSync, copyFileSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const dir = mkdtempSync(join(tmpdir(), 'equix-prepack-'));
  mkdirSync(join(dir, 'js'));
  copyFileSync(new URL('prepack.sh', js), join(dir, 'js', 'prepack.sh'));
  if (license) copyFileSync(new URL('LICENSE', top), join(dir, 'LICENSE'));
  if (core !== null) {
    mkdirSync(join(dir, 'js', 'dist'));
    writeFileSync(join(dir, 'js', 'dist', 'equix.wasm'), core);
  }
  return { dir, js: pathToFileURL(join(dir, 'js/')) };
}

async function prepack(where, env) {
  return run('sh', ['prepack.sh'], { cwd: where.js, env });
}

function oneLine(stderr) {
  const lines = stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `standard error: ${JSON.stringify(stderr)}`);
  return lines[0];
}

test('prepack.sh refuses to pack without the core, in one line', async (t) => {
  if (!inNode) {
    t.skip(NEEDS_NODE);
    return;
  }
  const { existsSync, rmSync } = await import('node:fs');
  const noCore = await scratch({});
  const noLicense = await scratch({ license: false, core: new Uint8Array(8) });
  try {
    // Told not to build: refused, and build.sh (absent from the scratch
    // copy) never run.
    const r = await prepack(noCore, { EQUIX_PREPACK_NO_BUILD: '1' });
    assert.notEqual(r.status, 0);
    assert.equal(r.stdout, '');
    assert.match(oneLine(r.stderr), /^prepack\.sh: dist\/equix\.wasm is missing and EQUIX_PREPACK_NO_BUILD=1: run \.\/build\.sh first$/);
    assert.ok(!existsSync(new URL('LICENSE', noCore.js)), 'a refused pack wrote LICENSE');
    // No LICENSE to copy: refused too.
    const l = await prepack(noLicense, {});
    assert.notEqual(l.status, 0);
    assert.match(oneLine(l.stderr), /^prepack\.sh: no LICENSE at the repository's top/);
  } finally {
    rmSync(noCore.dir, { recursive: true, force: true });
    rmSync(noLicense.dir, { recursive: true, force: true });
  }
});

test('prepack.sh with the core in place copies the top LICENSE and nothing else', async (t) => {
  if (!inNode) {
    t.skip(NEEDS_NODE);
    return;
  }
  const { readFileSync, readdirSync, rmSync } = await import('node:fs');
  const core = readFileSync(new URL('dist/equix.wasm', js));
  const where = await scratch({ core });
  try {
    const r = await prepack(where, { EQUIX_PREPACK_NO_BUILD: '1' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(readFileSync(new URL('LICENSE', where.js)), readFileSync(new URL('LICENSE', top)));
    assert.deepEqual(readdirSync(where.js).sort(), ['LICENSE', 'dist', 'prepack.sh']);
    assert.deepEqual(readFileSync(new URL('dist/equix.wasm', where.js)), core, 'the core was changed');
  } finally {
    rmSync(where.dir, { recursive: true, force: true });
  }
});

// What a user of the tarball runs: in an empty project, `npm install`
// of the file npm pack makes, then a plain Node script and a page that
// import 'equix' from it. Each solves and verifies Equi-X v1 and v2 and
// hashes with HashWX; the answers must be those of the package's sources
// in this process.
const USE = `import { ready, equix, hashwx, toHex } from 'equix';
export async function use() {
  await ready();
  const challenge = new TextEncoder().encode('This is a test\\0');
  const v1 = equix.solve(challenge);
  const v2 = equix.solve(challenge, { v2: true });
  return {
    v1: v1.map(toHex), v2: v2.map(toHex),
    verified: [...v1.map((s) => equix.verify(challenge, s)), ...v2.map((s) => equix.verify(challenge, s, { v2: true }))],
    hashwx: hashwx(new Uint8Array(32)).hash(462n).toString(16),
  };
}
`;

async function expectedUse() {
  const { equix, hashwx, toHex } = await import('../src/index.js');
  const challenge = new TextEncoder().encode('This is a test\0');
  const v1 = equix.solve(challenge);
  const v2 = equix.solve(challenge, { v2: true });
  return {
    v1: v1.map(toHex), v2: v2.map(toHex), verified: Array(v1.length + v2.length).fill('OK'),
    hashwx: hashwx(new Uint8Array(32)).hash(462n).toString(16),
  };
}

// The tarball npm pack makes, installed into an empty project (made once
// for the two tests below, removed after them): { project, want }.
let installing = null;
function installTarball() {
  installing ??= (async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, existsSync, readdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { pathToFileURL } = await import('node:url');
    const { ready } = await import('../src/index.js');
    await ready();
    const want = await expectedUse();
    assert.ok(want.v1.length > 0 && want.v2.length > 0, 'the sample challenge has solutions in both versions');
    const dir = mkdtempSync(join(tmpdir(), 'equix-tarball-'));
    scratchDirs.push(dir);
    const packed = await run('npm', ['pack', '--pack-destination', dir, '--json'],
      { cwd: js, env: { EQUIX_PREPACK_NO_BUILD: '1' } });
    assert.equal(packed.status, 0, packed.stderr);
    const [{ filename }] = JSON.parse(packed.stdout);
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "scratch", "private": true, "type": "module" }\n');
    const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, filename)],
      { cwd: pathToFileURL(`${project}/`), env: {} });
    assert.equal(installed.status, 0, installed.stderr);
    assert.ok(existsSync(join(project, 'node_modules/equix/dist/equix.wasm')), 'the install has no core');
    assert.ok(readdirSync(join(project, 'node_modules/equix')).includes('LICENSE'), 'the install has no LICENSE');
    writeFileSync(join(project, 'use.mjs'), USE);
    return { project, want };
  })();
  return installing;
}

const scratchDirs = [];
after(async () => {
  if (scratchDirs.length === 0) return; // nothing made (a browser makes nothing)
  const { rmSync } = await import('node:fs');
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

test('the tarball installed into an empty project works from a plain Node script', async (t) => {
  if (!inNode) {
    t.skip(NEEDS_NODE);
    return;
  }
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { project, want } = await installTarball();
  writeFileSync(join(project, 'main.mjs'), "import { use } from './use.mjs';\nconsole.log(JSON.stringify(await use()));\n");
  const script = await run('node', ['main.mjs'], { cwd: pathToFileURL(`${project}/`), env: {} });
  assert.equal(script.status, 0, script.stderr);
  assert.deepEqual(JSON.parse(script.stdout), want);
});

test('the tarball installed into an empty project works from a page', async (t) => {
  if (!inNode) {
    t.skip(NEEDS_NODE);
    return;
  }
  const { existsSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { CHROMIUM, launchChromium, serveDirectory, addressOf } = await import('./browser/chromium.js');
  if (!existsSync(CHROMIUM)) {
    t.skip(`no Chromium at ${CHROMIUM} (Debian package chromium)`);
    return;
  }
  const { project, want } = await installTarball();
  // The project served as it is; an import map takes the bare 'equix' to
  // the installed package, as a bundler would.
  writeFileSync(join(project, 'index.html'), `<!doctype html><meta charset="utf-8">
<script type="importmap">{ "imports": { "equix": "./node_modules/equix/src/index.js" } }</script>
<script type="module">import { use } from './use.mjs';
use().then((r) => { window.result = r; }, (e) => { window.failure = String(e?.stack ?? e); });</script>\n`);
  const server = await serveDirectory(project);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(addressOf(server, '/index.html'));
    await page.waitForFunction(() => window.result || window.failure, null, { timeout: 60_000 });
    assert.equal(await page.evaluate(() => window.failure), undefined);
    assert.deepEqual(await page.evaluate(() => window.result), want);
  } finally {
    await browser.close();
    server.close();
  }
});

// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// What the browser suite (run.js) and the speed table (bench/table.js)
// share: the repository served over http on loopback, and Debian's
// Chromium started headless through playwright-core.
//
// http rather than file: pages: module workers, fetch() of the vectors
// and WebAssembly.instantiateStreaming (which wants application/wasm)
// all need an http origin.

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.c': 'text/plain; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * Serves the files under `root` on 127.0.0.1 at a free port, and the
 * bodies in `generated` (a Map from a URL path to { type, body,
 * headers? }) in place of files. Resolves to the listening server.
 */
export function serveDirectory(root, generated = new Map()) {
  const top = resolve(root);
  const server = createServer(async (req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const made = generated.get(path);
    if (made !== undefined) {
      res.writeHead(200, { 'content-type': made.type, 'cache-control': 'no-store', ...made.headers }).end(made.body);
      return;
    }
    const file = resolve(top, `.${path}`);
    if (file !== top && !file.startsWith(top + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok(server));
  });
}

/** The page address of `path` (from the root) on a serveDirectory server. */
export function addressOf(server, path) {
  return `http://127.0.0.1:${server.address().port}${path}`;
}

// Debian's Chromium, never a downloaded one. The flags: no sandbox (the
// suites run as root in CI, where Chromium's sandbox refuses to start),
// and none of the background connections (updates, sync, QUIC probes)
// that a closed network refuses, noisily, at every start.
export const CHROMIUM = process.env.EQUIX_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts headless Chromium; playwright-core is a devDependency. */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

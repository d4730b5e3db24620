// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The processes of the end-to-end tests (e2e.test.js), each on loopback
// at a free port with its files in a temporary directory: a real Redis,
// gate instances (node bin/equix-gate.js), an upstream site that counts
// its requests, Debian's nginx and Caddy running the configurations of
// gate/deploy/ with only their addresses changed (so the documented
// configurations are the tested ones).

import { spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, started, startRedis, stopper } from '../helpers.js';

export { startRedis };

const GATE = fileURLToPath(new URL('../../', import.meta.url));
const DEPLOY = new URL('../../deploy/', import.meta.url);

/** Why `command` cannot run here (its Debian package), or null. */
export function missing(command, args, debianPackage) {
  const probe = spawnSync(command, args, { encoding: 'utf8' });
  return probe.error ? `${command} is not installed (Debian package ${debianPackage})` : null;
}

function launch(command, args, options) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  let log = '';
  child.stdout.on('data', (c) => { log += c; });
  child.stderr.on('data', (c) => { log += c; });
  return { child, stop: stopper(child), log: () => log };
}

// Polls until `url` answers at all (nginx and Caddy print nothing when
// they are up).
async function answering(url, what, proc) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await fetch(url, { redirect: 'manual' });
      return;
    } catch {
      if (proc.child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} did not start: ${proc.log()}`);
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }
}

/** `node bin/equix-gate.js` with `env`; resolves once it listens. */
export async function startGate(env) {
  const port = await freePort();
  const p = launch(process.execPath, ['bin/equix-gate.js'], {
    cwd: GATE,
    env: { PATH: process.env.PATH, LISTEN: `127.0.0.1:${port}`, ...env },
  });
  await started(p.child, /equix-gate: listening on http:\/\/\S+/, 'equix-gate');
  return { url: `http://127.0.0.1:${port}`, port, pid: p.child.pid, ...p };
}

/** The site behind the proxies: answers "protected page" and counts. */
export async function startUpstream() {
  const requests = [];
  const server = createHttpServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>site</title><link rel="icon" href="data:,"><p id="site">protected page ${req.url.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    port,
    requests,
    stop: () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); }),
  };
}

// gate/deploy/FILE with the documented addresses replaced by the test's:
// the two gates (8484, 8485), the site (8080) and `more` besides.
async function deployed(file, { gates, site, more = [] }) {
  let text = await readFile(new URL(file, DEPLOY), 'utf8');
  const swaps = [['127.0.0.1:8484', `127.0.0.1:${gates[0]}`], ['127.0.0.1:8485', `127.0.0.1:${gates[1]}`],
    ['127.0.0.1:8080', `127.0.0.1:${site}`], ...more];
  for (const [from, to] of swaps) {
    if (!text.includes(from)) throw new Error(`gate/deploy/${file} no longer has ${from}`);
    text = text.replaceAll(from, to);
  }
  return text;
}

/**
 * Debian's nginx with gate/deploy/nginx.conf as its one site, in `dir`:
 * the main context the test needs around it (pid, logs and temporary
 * files in `dir`; as root, workers as root too, because `dir` is private
 * to root) and the file itself, listening on a free port.
 */
export async function startNginx(dir, { gates, site }) {
  const port = await freePort();
  const conf = await deployed('nginx.conf', { gates, site, more: [['listen 80;', `listen 127.0.0.1:${port};`]] });
  await writeFile(join(dir, 'site.conf'), conf);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${join(dir, t)};`).join('\n  ');
  await writeFile(join(dir, 'nginx.conf'), `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log ${join(dir, 'access.log')};
  ${temp}
  include ${join(dir, 'site.conf')};
}
`);
  const p = launch('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;']);
  const url = `http://127.0.0.1:${port}`;
  await answering(url, 'nginx', p);
  return { url, ...p, errors: () => readFile(join(dir, 'error.log'), 'utf8').catch(() => '') };
}

/**
 * Debian's Caddy with gate/deploy/Caddyfile, in `dir`: the site's name
 * becomes http://127.0.0.1:PORT, and globals come first that keep it to
 * itself (no admin endpoint, no certificates, its data in `dir`).
 */
export async function startCaddy(dir, { gates, site }) {
  const port = await freePort();
  const conf = await deployed('Caddyfile', { gates, site, more: [['example.org {', `http://127.0.0.1:${port} {`]] });
  await writeFile(join(dir, 'Caddyfile'), `{\n\tadmin off\n\tauto_https off\n\tstorage file_system ${join(dir, 'data')}\n}\n\n${conf}`);
  const p = launch('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
  });
  const url = `http://127.0.0.1:${port}`;
  await answering(url, 'caddy', p);
  return { url, ...p };
}

/** A process's resident memory in KiB (Linux: /proc/PID/status VmRSS). */
export async function residentKiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (m === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]);
}

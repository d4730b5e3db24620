#!/usr/bin/env node
// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The gate as a service of its own, for a reverse proxy's forward auth
// (nginx auth_request, Caddy forward_auth, Traefik forwardAuth): it
// answers P/auth for every request the proxy gates, and serves the page,
// the puzzles and the proofs' verification under P (/.equix-gate). Its
// settings come from the environment (src/config.js lists them); a bad
// one is one line on stderr and exit status 2. SIGTERM and SIGINT close
// it: it stops listening, ends its connections and closes its Redis.

import { createServer } from 'node:http';

import { SettingError, configFrom } from '../src/config.js';
import { createGate } from '../src/gate.js';

function oneLine(text) {
  return String(text).replace(/[\x00-\x1f\x7f]+/g, ' ').slice(0, 300);
}

async function main() {
  let config;
  try {
    config = configFrom(process.env);
  } catch (e) {
    if (!(e instanceof SettingError)) throw e;
    console.error(`equix-gate: ${e.message}`);
    process.exit(2);
  }
  const gate = await createGate(config.gate);
  const server = createServer((req, res) => {
    gate.handle(req, res).then((handled) => {
      if (handled) return;
      res.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ ok: false, code: 'not_found', error: 'the gate answers under its prefix only' }));
    });
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(config.port, config.host, ok);
  });
  const { address, port } = server.address();
  const host = address.includes(':') ? `[${address}]` : address;
  const { effort, v2, redisUrl } = config.gate;
  console.log(`equix-gate: listening on http://${host}:${port} (site ${config.gate.site}, Equi-X ${v2 ? 'v2' : 'v1'}, `
    + `effort ${effort.min} to ${effort.max}, ${redisUrl ? 'Redis' : 'memory'} store)`);
  const stop = async () => {
    const closed = new Promise((ok) => server.close(ok));
    server.closeAllConnections();
    await closed;
    await gate.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((e) => {
  console.error(`equix-gate: ${oneLine(e?.message ?? e)}`);
  process.exit(1);
});

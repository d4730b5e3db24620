// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The proxies' pages in doc/gate/ show their configurations in full;
// the files themselves are gate/deploy/'s, which e2e.test.js runs (nginx,
// Caddy). A page that drifted from its file would document something
// untested: each page's block must be its file, byte for byte.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const DOC = new URL('../../doc/gate/', import.meta.url);
const DEPLOY = new URL('../deploy/', import.meta.url);

for (const [page, file] of [['nginx.md', 'nginx.conf'], ['caddy.md', 'Caddyfile'], ['traefik.md', 'traefik.yml']]) {
  test(`doc/gate/${page} shows gate/deploy/${file} as it is`, async () => {
    const text = await readFile(new URL(page, DOC), 'utf8');
    const m = new RegExp(`\`gate/deploy/${file.replace('.', '\\.')}\`:\\n\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\`\\n`).exec(text);
    assert.ok(m, `doc/gate/${page} has no block after \`gate/deploy/${file}\`:`);
    assert.equal(m[1], await readFile(new URL(file, DEPLOY), 'utf8'));
  });
}

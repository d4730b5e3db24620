// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The rows of doc/bad-input.md that a JavaScript suite walks: the
// package's (ids starting "js-", js/test/bad_input.test.js) and the
// gate's replay store's ("gate-", gate/test/store_memory.test.js). One reader,
// so that both read the table by the same rule (doc/bad-input.md, "How
// the tests read the tables"). A plain function of the text: it serves
// Node and browsers alike.

// The first code span's text in `cell`, or null.
export function firstCode(cell) {
  const m = /`([^`]*)`/.exec(cell);
  return m === null ? null : m[1];
}

// "| `PREFIXid` | call | bad input | outcome |": { id, bad, want, line }
// for each row whose id starts with `prefix`.
export function docRows(text, prefix) {
  const rows = [];
  text.split('\n').forEach((line, i) => {
    if (!line.startsWith('| `' + prefix)) return;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 4 || line.includes('\\|')) {
      throw new Error(`doc/bad-input.md:${i + 1}: a ${prefix} row needs four cells and no \\|`);
    }
    rows.push({ id: firstCode(cells[0]), bad: cells[2], want: firstCode(cells[3]), line: i + 1 });
  });
  return rows;
}

// Registers the walk of `rows` with `test` (node:test's, or the browser
// harness's) and `assert`: one test that every row has its case in
// `cases` and every case one row, then one test a row, comparing
// `outcome(cases[id], t)` with the row's first code span.
export function walkRows({ test, assert, rows, cases, prefix, outcome }) {
  test(`doc/bad-input.md: every ${prefix} row has a case here and every case one row`, () => {
    assert.ok(rows.length > 0, `no ${prefix} rows in doc/bad-input.md`);
    for (const r of rows) {
      assert.ok(r.id !== null && r.want !== null, `doc/bad-input.md:${r.line}: no id or outcome`);
      assert.ok(Object.hasOwn(cases, r.id), `doc/bad-input.md:${r.line}: row ${r.id} has no case`);
    }
    for (const id of Object.keys(cases)) {
      const n = rows.filter((r) => r.id === id).length;
      assert.equal(n, 1, `case ${id} has ${n} rows in doc/bad-input.md, want 1`);
    }
  });
  for (const r of rows) {
    test(`${r.id}: ${r.bad}`, async (t) => {
      assert.ok(Object.hasOwn(cases, r.id), `no case for doc/bad-input.md:${r.line}`);
      assert.equal(await outcome(cases[r.id], t), r.want, `doc/bad-input.md:${r.line}`);
    });
  }
}

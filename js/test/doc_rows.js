// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The rows of doc/bad-input.md that a JavaScript suite walks: the
// package's (ids starting "js-", js/test/bad_input.test.js) and the web
// demo's ("demo-", examples/web/test/store_memory.test.js). One reader,
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

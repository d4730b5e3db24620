// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// A module made to look like the core, for the tests of ready()'s check
// of the core's ABI (core_abi.test.js, bad_input.test.js): a small
// WebAssembly binary written here, byte by byte.

function uleb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}
const vec = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, body) => [id, ...uleb(body.length), ...body];
const name = (s) => vec([...new TextEncoder().encode(s)].map((b) => [b]));

// A module exporting a memory, _initialize and each of `functions`
// ({ name: parameters }), every function taking i32s and returning 0.
export function lookalike(functions) {
  const all = { _initialize: 0, ...functions };
  const names = Object.keys(all);
  const arities = [...new Set(Object.values(all))];
  const types = arities.map((n) => [0x60, ...vec(Array(n).fill([0x7f])), ...vec([[0x7f]])]);
  const body = [0x00, 0x41, 0x00, 0x0b]; // no locals; i32.const 0; end
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)),
    ...section(3, vec(names.map((n) => uleb(arities.indexOf(all[n]))))),
    ...section(5, vec([[0x00, 0x01]])),
    ...section(7, vec([[...name('memory'), 0x02, 0x00],
      ...names.map((n, i) => [...name(n), 0x00, ...uleb(i)])])),
    ...section(10, vec(names.map(() => [...uleb(body.length), ...body]))),
  ]);
}


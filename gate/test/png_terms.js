// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// A PNG with the project's copyright and SPDX lines in tEXt chunks right
// after its header, so that a screenshot committed to doc/images carries
// its terms as every other file does (tests/licence.sh reads them there).
//
//   node test/png_terms.js FILE...    adds them to files in place

import { readFileSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const TERMS = [
  ['Copyright', 'Copyright (c) 2026 The equix authors'],
  ['License', 'SPDX-License-Identifier: BSD-3-Clause'],
];

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** `png` (a Buffer) with the terms' tEXt chunks after IHDR, unless it
 * has them already. */
export function withTerms(png) {
  if (png.includes(Buffer.from(TERMS[0][1], 'latin1'))) return png;
  const ihdrEnd = 8 + 8 + png.readUInt32BE(8) + 4; // signature, IHDR
  const texts = TERMS.map(([k, v]) => chunk('tEXt', Buffer.from(`${k}\0${v}`, 'latin1')));
  return Buffer.concat([png.subarray(0, ihdrEnd), ...texts, png.subarray(ihdrEnd)]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of process.argv.slice(2)) writeFileSync(file, withTerms(readFileSync(file)));
}

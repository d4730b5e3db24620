// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Bytes as hex digits and back. Ids, seeds, nonces and solutions travel
// as text (JSON, URLs, logs); these check that text as the rest of the
// package checks bytes. Plain JavaScript: they need no core, and work
// before ready().

import { bytes, limits } from './core.js';
import { badArgument, failure } from './errors.js';

const DIGITS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const NOT_HEX = /[^0-9a-fA-F]/;

/**
 * The bytes of `value` (what every call takes as bytes, at most
 * limits.inputBytes) as lowercase hex digits, two a byte.
 */
export function toHex(value) {
  const b = bytes(value, "toHex()'s bytes");
  let text = '';
  for (let i = 0; i < b.length; i++) text += DIGITS[b[i]];
  return text;
}

/**
 * The bytes that the hex digits of `text` (either case, two a byte,
 * nothing else: no prefix, no spaces) spell, in a new Uint8Array.
 * FAIL_ARGUMENT for anything else: a TypeError for what is not a string,
 * a SyntaxError for an odd number of digits or a character that is no
 * digit (the kinds the engine's own Uint8Array.fromHex throws);
 * FAIL_TOO_LARGE (a RangeError) for the digits of more than
 * limits.inputBytes bytes, before they are read.
 */
export function fromHex(text) {
  if (typeof text !== 'string') throw badArgument('fromHex() takes a string');
  if (text.length > 2 * limits.inputBytes) {
    throw failure(`equix: a hex string of ${text.length} characters is more than limits.inputBytes (${limits.inputBytes}) bytes`,
      'FAIL_TOO_LARGE', RangeError);
  }
  if (text.length % 2 !== 0) {
    throw badArgument(`a hex string has two digits a byte, not ${text.length} characters`, SyntaxError);
  }
  const bad = text.search(NOT_HEX);
  if (bad !== -1) {
    throw badArgument(`${JSON.stringify(text[bad])} at ${bad} is not a hex digit`, SyntaxError);
  }
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

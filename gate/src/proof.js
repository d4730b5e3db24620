// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// A proof of work as a site receives it, and what the site answers: the
// rules the gate's /verify (gate.js) and the demo's /submit
// (examples/web/server.js) share, so that a proof is read, checked and
// claimed one way. The answers are Refusals: an HTTP status, a stable
// code the page (or a client program) acts on, and a sentence for people.

import { pow } from 'equix';

/** A request refused: `status`, `code`, the message, extra `headers`. */
export class Refusal extends Error {
  constructor(status, code, message, headers = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** The file types the gate and the demo serve. */
export const TYPES = Object.freeze({
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  wasm: 'application/wasm',
});

// A proof is about 150 bytes of JSON; a form with one, a few KiB.
export const MAX_BODY = 16 * 1024;
const HEX16 = /^[0-9a-f]{32}$/;
const HEX4 = /^[0-9a-f]{8}$/;

function tooLarge(max) {
  return new Refusal(413, 'too_large', `the body is over ${max} bytes`);
}

/** The body of `req` as text, at most `max` bytes (else a 413 Refusal,
 * before reading when Content-Length says so). */
export function readBody(req, max = MAX_BODY) {
  if (req.readableEnded) {
    // A body parser (Express's, say) ran first: there is nothing left to
    // read, and this does not guess at its result.
    return Promise.reject(new Error('the request body was read before the gate: mount the gate before body parsers'));
  }
  if (Number(req.headers['content-length']) > max) return Promise.reject(tooLarge(max));
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > max) {
        reject(tooLarge(max));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** `text` (a request body) parsed as JSON, or a 400 Refusal. */
export function jsonOf(text) {
  try {
    return JSON.parse(text);
  } catch {
    throw new Refusal(400, 'bad_request', 'the body is not JSON');
  }
}

function hexField(value, pattern, name) {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new Refusal(400, 'bad_request', `proof.${name} must be ${pattern === HEX16 ? 32 : 8} lowercase hex digits`);
  }
  return Buffer.from(value, 'hex');
}

/** The proof in `proof` (a parsed JSON object: nonce, seedHead and
 * solution in lowercase hex, effort an integer) as bytes, or a 400
 * Refusal naming the field. */
export function proofFields(proof) {
  if (typeof proof !== 'object' || proof === null) throw new Refusal(400, 'bad_request', 'the body has no proof object');
  const { effort } = proof;
  if (!Number.isInteger(effort) || effort < 0 || effort > 2 ** 32 - 1) {
    throw new Refusal(400, 'bad_request', 'proof.effort must be an integer from 0 to 2^32 - 1');
  }
  return {
    nonce: hexField(proof.nonce, HEX16, 'nonce'),
    seedHead: hexField(proof.seedHead, HEX4, 'seedHead'),
    solution: hexField(proof.solution, HEX16, 'solution'),
    effort,
  };
}

// A seed that is not (or no longer) accepted: expired, never handed out,
// or one whose record the replay store lost. A server cannot tell these
// apart, and the client does the same for each: it fetches a new puzzle.
function unknownSeed() {
  return new Refusal(403, 'unknown_seed', 'the puzzle has expired or the server no longer knows it: fetch a new one');
}

/**
 * Checks `proof` (proofFields') for a site and claims it, cheapest first:
 * its effort (`site.accepts(effort)`, else 403 effort_too_low saying
 * `site.effort()`), the store read for the live seeds (`site.seeds`), the
 * Equi-X check (pow.verify, v2 when `site.v2`), and last the claim of the
 * nonce (a store write, `site.store`), so only a valid proof costs a
 * store entry. `site.verified(result)`, when given, hears every result of
 * pow.verify. Resolves, or throws a Refusal: never an acceptance when the
 * store fails (its error passes through).
 */
export async function checkProof(site, proof) {
  if (!site.accepts(proof.effort)) {
    throw new Refusal(403, 'effort_too_low', `the effort is ${proof.effort}; this site asks for ${site.effort()}`);
  }
  const found = await site.seeds.find(proof.seedHead);
  if (found === null) throw unknownSeed();
  const result = pow.verify({ ...proof, id: site.id, seed: found.seed, v2: site.v2 === true });
  site.verified?.(result);
  if (result !== 'OK') throw new Refusal(403, 'invalid_proof', `the proof does not check: ${result}`);
  const claimed = await site.store.claim(found.name, found.salt, proof.nonce.toString('hex'));
  if (claimed === 'replayed') throw new Refusal(409, 'replayed', 'this proof has been used already');
  // The record went between find() and claim(): the seed is dead.
  if (claimed !== 'claimed') throw unknownSeed();
}

/** `text` as one line of at most `max` characters (and '...'): what a
 * request puts in a log stays short, whatever it sent. */
export function oneLine(text, max) {
  const line = String(text).replace(/[\x00-\x1f\x7f]+/g, ' ');
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

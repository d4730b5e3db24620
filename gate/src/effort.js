// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// The effort the gate asks for, adapted to how hard it is working. The
// owner says how many proof verifications per second this process can
// afford (`capacity`); the controller watches the rate of verifications
// over fixed periods and, at the end of each, moves the effort:
//
//   rate >= capacity / 2 (HIGH)   up:   effort * min(4, rate / TARGET),
//                                       at least effort + 1
//   rate <  capacity / 8 (LOW)    down: effort * 2 / 3 (rounded down)
//   otherwise                     unchanged
//
// where TARGET = capacity / 4, always within [min, max]. Why this rule:
//
// - A flood comes from some fixed amount of computing power, so it sends
//   proofs at a rate inversely proportional to the effort. Multiplying the
//   effort by rate / TARGET brings such a flood back to TARGET in one
//   step: the increase is proportional to the evidence, not a fixed step
//   (Tor's service raises its suggested effort to the mean effort paid, a
//   figure this gate has no queue to measure; see doc/defence.md, 2.1).
//   The factor is capped at 4 a period so that one short burst cannot
//   send every visitor to the maximum at once.
// - The decrease is Tor's multiplicative 2/3 (update_suggested_effort,
//   src/pow/controller.c): quick enough that an idle site is back at the
//   minimum within a few minutes, slow enough that an attacker who pauses
//   does not get cheap proofs back in the next period.
// - Between LOW and HIGH nothing moves: without that band the effort would
//   oscillate around any single threshold, and a site under steady load
//   settles inside it, near TARGET, with room for bursts up to capacity.
//
// A period ends on the clock, never early, so the effort changes at most
// once a period; accepts() takes the effort of the period before too, so
// that a visitor who fetched a puzzle just before a change is not turned
// away (as Tor keeps the previous seed). Periods that passed without any
// call count as idle ones. The rate counts the verifications the gate
// spent work on, valid or not: call record() for each proof that reached
// Equi-X's check, that is each pow.verify result other than
// 'FAIL_SEED_HEAD' and 'FAIL_EFFORT'. Those two cost a comparison and one
// hash, about what parsing the request costs, and junk that fails them
// costs its sender nothing: counting it would let anyone raise the effort
// for every visitor for free. A proof that passes the effort check cost
// its sender about `effort` hashes, valid or not, so the effort does
// price those. Each instance of a site controls its own effort, for its
// own CPU; a proof made for one instance's effort may be refused by
// another's higher one (the visitor fetches a new puzzle).

const MAX_EFFORT = 2 ** 32 - 1;
// Idle periods after the 64th change nothing: (2/3)^64 * 2^32 < 1.
const MAX_CATCH_UP = 64;

const isEffort = (e) => Number.isInteger(e) && e >= 0 && e <= MAX_EFFORT;

export class EffortController {
  #min;
  #max;
  #capacity;
  #periodMs;
  #now;
  #start;
  #count = 0;
  #effort;
  #previous;

  constructor({ min, max, capacity, period = 10, now = Date.now } = {}) {
    if (!isEffort(min) || !isEffort(max) || min > max) {
      throw new RangeError(`effort: min and max must be integers with 0 <= min <= max <= ${MAX_EFFORT}`);
    }
    if (typeof capacity !== 'number' || !(capacity > 0) || !Number.isFinite(capacity)) {
      throw new RangeError('effort: the capacity must be a positive number of verifications per second');
    }
    if (typeof period !== 'number' || !(period > 0) || !Number.isFinite(period)) {
      throw new RangeError('effort: the period must be a positive number of seconds');
    }
    this.#min = min;
    this.#max = max;
    this.#capacity = capacity;
    this.#periodMs = period * 1000;
    this.#now = now;
    this.#start = now();
    this.#effort = min;
    this.#previous = min;
  }

  /** One verification done (valid or not). */
  record() {
    this.#roll();
    this.#count += 1;
  }

  /** The effort handed out now. */
  current() {
    this.#roll();
    return this.#effort;
  }

  /** Whether a proof of `effort` is enough: at least what was handed out
   * in this period or in the one before. False for anything that is not
   * an effort (an integer from 0 to 2^32 - 1). */
  accepts(effort) {
    this.#roll();
    return isEffort(effort) && effort >= Math.min(this.#effort, this.#previous);
  }

  // Ends the periods that are over: the first with its own rate, the rest
  // (no call came in them) as idle.
  #roll() {
    const elapsed = Math.floor((this.#now() - this.#start) / this.#periodMs);
    if (!(elapsed >= 1)) return;
    let previous = this.#effort;
    let effort = this.#next(this.#effort, this.#count / (this.#periodMs / 1000));
    for (let i = 1; i < Math.min(elapsed, MAX_CATCH_UP); i += 1) {
      previous = effort;
      effort = this.#next(effort, 0);
    }
    this.#previous = previous;
    this.#effort = effort;
    this.#start += elapsed * this.#periodMs;
    this.#count = 0;
  }

  // The rule above: the effort after a period with `rate` verifications
  // per second.
  #next(effort, rate) {
    let next = effort;
    if (rate >= this.#capacity / 2) {
      const factor = Math.min(4, rate / (this.#capacity / 4));
      next = Math.max(effort + 1, Math.ceil(effort * factor));
    } else if (rate < this.#capacity / 8) {
      next = Math.floor((effort * 2) / 3);
    }
    return Math.min(this.#max, Math.max(this.#min, next));
  }
}

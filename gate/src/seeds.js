// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// Seeds: one per lifetime-long epoch, HMAC-SHA-256 with the secret of
// the epoch and the salt of the epoch's record in the replay store
// (stores.js). The record is made when the seed is first handed out, and
// the seed lives only as long as it: every process sharing the store and
// the secret hands out and accepts the same seeds, a client cannot
// predict the next one, and a store that lost a record (and with it the
// claims of its proofs) has lost the seed too. A proof is accepted for
// the current seed and the one before it, as Tor keeps the previous
// seed, so that a client who fetched a puzzle just before a change is
// not turned away. (First written for the web demo, which imports it.)

import { createHmac } from 'node:crypto';

export class Seeds {
  /** `secret` the HMAC key (a Buffer), `lifetime` an epoch in seconds,
   * `store` a replay store, `siteId` the 32-byte service ID. `label`
   * starts the HMAC's message, so that one secret used by two programs
   * (the gate, the demo) gives each its own seeds; `now` returns
   * milliseconds (tests pass a clock of their own). */
  constructor(secret, lifetime, store, siteId, { label = 'equix-gate', now = Date.now } = {}) {
    this.secret = secret;
    this.lifetime = lifetime;
    this.store = store;
    // Records are per site and lifetime: sites sharing a Redis, or a site
    // whose lifetime changed, do not read each other's epochs.
    this.prefix = `${siteId.subarray(0, 8).toString('hex')}:${lifetime}:`;
    this.label = label;
    this.now = now;
  }

  epoch() {
    return Math.floor(this.now() / 1000 / this.lifetime);
  }

  seedOf(epoch, salt) {
    return createHmac('sha256', this.secret).update(`${this.label} seed ${epoch} ${salt}`).digest();
  }

  /** The seed handed out now: { seed, expiration } (when it stops being
   * handed out, seconds since 1970). Makes its record if there is none,
   * kept for as long as the seed is accepted. */
  async current() {
    const epoch = this.epoch();
    const acceptedFor = (epoch + 2) * this.lifetime - this.now() / 1000;
    const salt = await this.store.issue(this.prefix + epoch, acceptedFor);
    return { seed: this.seedOf(epoch, salt), expiration: (epoch + 1) * this.lifetime };
  }

  /** The accepted seed whose first 4 bytes are `head`, as { seed, name,
   * salt } for claiming its proofs; null when none is. */
  async find(head) {
    const current = this.epoch();
    const epochs = [current, current - 1];
    const salts = await this.store.salts(epochs.map((epoch) => this.prefix + epoch));
    for (const [i, epoch] of epochs.entries()) {
      if (salts[i] === null) continue;
      const seed = this.seedOf(epoch, salts[i]);
      if (seed.subarray(0, 4).equals(head)) return { seed, name: this.prefix + epoch, salt: salts[i] };
    }
    return null;
  }
}

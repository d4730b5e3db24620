/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file equix_pow_defence.h
 * @brief Tor's defence of an onion service on top of the PoW v1 checks:
 * the request queue and the suggested-effort controller.
 *
 * equix_pow.h includes this header, so a client of equix_pow.h has these
 * declarations as before; it may also be included on its own (it includes
 * equix_pow.h for the result codes). The functions are libequix's, in the
 * version node LIBEQUIX_1.2 (doc/abi.md). As everywhere in equix_pow.h, a
 * NULL where an object is required gives EQUIX_POW_FAIL_ARGUMENT (or NULL
 * or 0 for the functions that return no result code), never a crash.
 */
#ifndef EQUIX_POW_DEFENCE_H
#define EQUIX_POW_DEFENCE_H

#include <stddef.h>
#include <stdint.h>

#include <equix_pow.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The service's defence: request queue and effort controller ------ */
/** @name The service's defence (request queue, suggested-effort controller)
 *
 * What turns per-proof checks into a defence, with Tor's rules
 * (doc/defence.md gives each rule, where Tor has it, and the few
 * deliberate differences): a priority queue of introduction requests that
 * serves the highest effort first under a launch-rate limit, and a
 * controller that raises or lowers the suggested effort once per update
 * period from what the queue saw. Neither reads a clock: every call takes
 * the caller's time, in milliseconds of any monotonic clock, so an event
 * loop and a simulation drive them the same way. Times must not go
 * backwards between calls on one object. Neither is thread-safe: one
 * thread (the event loop's) owns each object.
 * @{ */

/** The queue's levels without a rate limit (Tor's defaults): trimming
 * starts when the queue reaches the high level; the low level separates a
 * "queue" from a few waiting requests. */
#define EQUIX_POW_QUEUE_LOW_LEVEL 16
#define EQUIX_POW_QUEUE_HIGH_LEVEL 16384 /**< see EQUIX_POW_QUEUE_LOW_LEVEL */
/** With a rate limit, the low level is rate/4, but at least this (and at
 * most EQUIX_POW_QUEUE_MAX_HIGH_LEVEL / 4). */
#define EQUIX_POW_QUEUE_MIN_LOW_LEVEL 8
/** The most requests a queue holds, whatever its rate and burst: the high
 * level is at most this (Tor has no such cap), so that a queue's memory
 * and the work of the one addition that trims it stay bounded. */
#define EQUIX_POW_QUEUE_MAX_HIGH_LEVEL 65536
/** The most memory a queue's array of requests takes:
 * EQUIX_POW_QUEUE_MAX_HIGH_LEVEL entries of at most 32 bytes, 2 MiB (the
 * payloads are the caller's). */
#define EQUIX_POW_QUEUE_MAX_BYTES ((size_t)2 << 20)
/** Tor's rendezvous timeout (MAX_REND_TIMEOUT, 30 s), in milliseconds:
 * the high level with a rate limit holds two timeouts' worth of launches. */
#define EQUIX_POW_REND_TIMEOUT_MS 30000
/** A queued request older than this (half the rendezvous timeout) is
 * discarded, not served: its client would give up before it completes. */
#define EQUIX_POW_QUEUE_MAX_AGE_MS 15000
/** Launches in flight above which a request below the suggested effort
 * waits (Tor's MAX_CHEAP_REND_CIRCUITS_IN_PROGRESS). */
#define EQUIX_POW_QUEUE_MAX_IN_FLIGHT 16
/** How long a caller told to wait should wait before asking again. */
#define EQUIX_POW_QUEUE_RETRY_MS 100
/** The controller's update period (Tor's HS_UPDATE_PERIOD, 300 s). */
#define EQUIX_POW_UPDATE_PERIOD_MS 300000
/** The descriptor is republished when the suggested effort moves more than
 * this many percent away from the published one, either way. */
#define EQUIX_POW_REPUBLISH_PERCENT 15
/** A seed lives between these two times (Tor's
 * HS_SERVICE_POW_SEED_ROTATE_TIME_MIN and _MAX: 105 and 120 minutes). */
#define EQUIX_POW_ROTATE_MIN_MS ((uint64_t)6300000)
#define EQUIX_POW_ROTATE_MAX_MS ((uint64_t)7200000) /**< see above */

/** A service's queue of introduction requests waiting to be served. */
typedef struct equix_pow_queue equix_pow_queue;

/** Why the queue gives a request back without serving it. */
typedef enum equix_pow_discard_reason {
    EQUIX_POW_DISCARD_TRIMMED = 1, /**< cut when the queue reached its high
                                        level */
    EQUIX_POW_DISCARD_EXPIRED,     /**< older than the maximum age */
    EQUIX_POW_DISCARD_FREED,       /**< still queued at
                                        equix_pow_queue_free() */
} equix_pow_discard_reason;

/**
 * Receives each request the queue drops, so that the caller can free what
 * `payload` points to. Called from inside equix_pow_queue_add(),
 * equix_pow_queue_pop() and equix_pow_queue_free(), once for each payload.
 * It must not call the queue's functions: while it runs, every call of
 * them on this queue is refused and changes nothing, returning
 * EQUIX_POW_FAIL_REENTERED (equix_pow_queue_free() does nothing, the queue
 * stays whole), and so is equix_pow_controller_tick() of a controller
 * driving this queue. A payload to queue again must wait until the call
 * that dropped it has returned. Other queues may be called.
 *
 * It must return. One that does not (it leaves by longjmp(), or a C++
 * exception, or ends its thread) leaves the queue whole but refusing:
 * the payload it was given is the caller's, every other one is still
 * queued, and since the queue cannot tell such a callback from one that
 * is still running, every call stays refused as above (the free does
 * nothing) until equix_pow_queue_recover().
 *
 * @param user    the pointer given at equix_pow_queue_alloc().
 * @param payload the request's payload, as given to equix_pow_queue_add().
 * @param effort  the request's effort.
 * @param reason  why it is dropped.
 */
typedef void equix_pow_discard_fn(void *user, void *payload, uint32_t effort,
                                  equix_pow_discard_reason reason);

/**
 * A queue. With `rate` > 0 and `burst` >= `rate`, launches are limited by
 * a token bucket of `rate` tokens per second holding at most `burst`
 * (full at `now_ms`; refilled continuously, in thousandths of a token,
 * where Tor adds whole tokens once a second), the low level is max(EQUIX_POW_QUEUE_MIN_LOW_LEVEL,
 * rate / 4) and the high level burst + rate * 60 (two rendezvous
 * timeouts), each capped (at EQUIX_POW_QUEUE_MAX_HIGH_LEVEL / 4 and
 * EQUIX_POW_QUEUE_MAX_HIGH_LEVEL, where Tor has no cap: a rate above
 * about 1050 a second with Tor's default burst). Otherwise there is no
 * limit and the levels are EQUIX_POW_QUEUE_LOW_LEVEL and
 * EQUIX_POW_QUEUE_HIGH_LEVEL (Tor's HiddenServicePoWQueueRate and
 * HiddenServicePoWQueueBurst, which default to 250 and 2500). The queue
 * never holds more than the high level's count of requests, and its
 * array never takes more than EQUIX_POW_QUEUE_MAX_BYTES.
 *
 * @param rate     launches per second, or 0.
 * @param burst    the bucket's size.
 * @param now_ms   the caller's time.
 * @param discard  called for each dropped request, or NULL.
 * @param user     passed to `discard`.
 * @return the queue, or NULL when out of memory.
 */
EQUIX_POW_API equix_pow_queue *equix_pow_queue_alloc(
    uint32_t rate, uint32_t burst, uint64_t now_ms,
    equix_pow_discard_fn *discard, void *user);

/**
 * Frees the queue, handing every request still in it to the discard
 * callback (EQUIX_POW_DISCARD_FREED). Does nothing when `queue` is NULL,
 * nor when called from the queue's own discard callback, nor after that
 * callback did not return until equix_pow_queue_recover() (the queue is
 * not freed; see equix_pow_discard_fn).
 *
 * @param queue the queue, or NULL.
 */
EQUIX_POW_API void equix_pow_queue_free(equix_pow_queue *queue);

/**
 * Takes calls again after the queue's discard callback did not return
 * (see equix_pow_discard_fn). The call it left stops there: the payload
 * the callback was given is the caller's (counted as discarded), every
 * payload not handed back yet is still queued (a trim keeps those it did
 * not reach, and the queue stays below its high level), and
 * equix_pow_queue_free() hands them back. Call it once the callback has
 * been left, never from inside a callback that is still running: the
 * queue cannot tell the two apart, and would stop refusing that
 * callback's calls. When no callback was left, nothing changes.
 *
 * @param queue the queue.
 * @return EQUIX_POW_OK, or EQUIX_POW_FAIL_ARGUMENT when `queue` is NULL.
 */
EQUIX_POW_API equix_pow_result equix_pow_queue_recover(equix_pow_queue *queue);

/**
 * Queues a request whose proof was verified (an effort of 0 for a request
 * without one) and adds its effort to the period's total. When the queue
 * then holds its high level, it is trimmed to half of it: the best
 * requests (in serving order) are kept, skipping any older than the
 * maximum age, and the others are discarded (EQUIX_POW_DISCARD_TRIMMED or
 * EXPIRED), the highest discarded effort kept for the controller. The new
 * request itself may be among them. At most log2(high) comparisons; the
 * addition that trims also sorts the queue in place, at most
 * 2 high log2(high) comparisons more (about two million at
 * EQUIX_POW_QUEUE_MAX_HIGH_LEVEL) and high / 2 callbacks, and it comes
 * once per high / 2 additions at most: at most 4 log2(high) more per
 * addition amortized.
 *
 * @param queue   the queue.
 * @param effort  the request's effort.
 * @param payload the caller's data (NULL allowed): owned by the queue
 *                until it comes back from equix_pow_queue_pop() or the
 *                discard callback.
 * @param now_ms  the caller's time.
 * @return EQUIX_POW_OK; EQUIX_POW_FAIL_NO_MEMORY or, from the queue's
 *         discard callback, EQUIX_POW_FAIL_REENTERED (either way nothing
 *         queued, the payload stays the caller's); or
 *         EQUIX_POW_FAIL_ARGUMENT.
 */
EQUIX_POW_API equix_pow_result equix_pow_queue_add(equix_pow_queue *queue,
                                                  uint32_t effort,
                                                  void *payload,
                                                  uint64_t now_ms);

/** What equix_pow_queue_pop() did. */
typedef enum equix_pow_pop_status {
    EQUIX_POW_POP_SERVED = 1,     /**< a request to launch now */
    EQUIX_POW_POP_EMPTY,          /**< nothing left to serve */
    EQUIX_POW_POP_WAIT_IN_FLIGHT, /**< the best request is below the
                                       suggested effort and too many
                                       launches are in flight */
    EQUIX_POW_POP_WAIT_RATE,      /**< the token bucket is empty */
} equix_pow_pop_status;

/** A request taken from the queue. */
typedef struct equix_pow_popped {
    equix_pow_pop_status status; /**< what happened */
    void *payload;         /**< SERVED: the request's payload, the
                                caller's again */
    uint32_t effort;       /**< SERVED: its effort */
    uint64_t enqueued_ms;  /**< SERVED: when it was queued */
    uint64_t retry_at_ms;  /**< WAIT_*: when to call again */
} equix_pow_popped;

/**
 * Serves at most one request, in order of effort, highest first, and
 * among equal efforts the earliest queued. As Tor does, in this order:
 * when the best request's effort is below the suggested effort and
 * `in_flight` is at least the in-flight limit, nothing is taken
 * (WAIT_IN_FLIGHT); when the bucket has no token, nothing is taken
 * (WAIT_RATE); otherwise a token is spent and the best request taken;
 * one older than the maximum age is discarded (EXPIRED, the token still
 * spent, as in Tor) and the next considered. A served request counts as
 * handled; when the queue still holds at least its low level after a
 * call that did not wait, the period "had a queue".
 *
 * @param queue     the queue.
 * @param now_ms    the caller's time.
 * @param in_flight the caller's launches not yet completed.
 * @param out       receives the outcome.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_ARGUMENT, or, from the queue's
 *         discard callback, EQUIX_POW_FAIL_REENTERED (nothing taken, `out`
 *         not written).
 */
EQUIX_POW_API equix_pow_result equix_pow_queue_pop(equix_pow_queue *queue,
                                                  uint64_t now_ms,
                                                  uint32_t in_flight,
                                                  equix_pow_popped *out);

/**
 * Sets the suggested effort that the in-flight rule compares with (the
 * controller does it on each update; 0 at first).
 *
 * @param queue            the queue.
 * @param suggested_effort the suggested effort.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_ARGUMENT, or, from the queue's
 *         discard callback, EQUIX_POW_FAIL_REENTERED (unchanged).
 */
EQUIX_POW_API equix_pow_result equix_pow_queue_set_suggested_effort(
    equix_pow_queue *queue, uint32_t suggested_effort);

/**
 * Replaces the limits Tor fixes (EQUIX_POW_QUEUE_MAX_IN_FLIGHT,
 * EQUIX_POW_QUEUE_MAX_AGE_MS, EQUIX_POW_QUEUE_RETRY_MS), for a caller
 * that models another service; 0 keeps a limit's current value.
 *
 * @param queue         the queue.
 * @param max_in_flight the in-flight limit, or 0.
 * @param max_age_ms    the maximum age, or 0.
 * @param retry_ms      the wait after WAIT_*, or 0.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_ARGUMENT, or, from the queue's
 *         discard callback, EQUIX_POW_FAIL_REENTERED (unchanged).
 */
EQUIX_POW_API equix_pow_result equix_pow_queue_set_limits(
    equix_pow_queue *queue, uint32_t max_in_flight, uint64_t max_age_ms,
    uint64_t retry_ms);

/** A queue's figures: its state now and its counts since it was made. */
typedef struct equix_pow_queue_stats {
    uint32_t length;           /**< requests queued */
    uint32_t top_effort;       /**< the best one's effort (0 if empty) */
    uint32_t low_level;        /**< the low level */
    uint32_t high_level;       /**< the high level */
    uint32_t suggested_effort; /**< as last set */
    uint64_t added;            /**< requests queued */
    uint64_t served;           /**< requests served */
    uint64_t trimmed;          /**< discarded by trimming (not expired) */
    uint64_t expired;          /**< discarded as too old */
} equix_pow_queue_stats;

/**
 * Reads the queue's figures.
 *
 * @param queue the queue.
 * @param stats receives them.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_ARGUMENT, or, from the queue's
 *         discard callback, EQUIX_POW_FAIL_REENTERED (`stats` not
 *         written: the figures are mid-change there).
 */
EQUIX_POW_API equix_pow_result equix_pow_queue_stats_get(
    const equix_pow_queue *queue, equix_pow_queue_stats *stats);

/** One update period's statistics, what equix_pow_effort_update()
 * decides from. */
typedef struct equix_pow_period {
    uint64_t total_effort;       /**< sum of the efforts of the valid
                                      requests received */
    uint32_t handled;            /**< requests served (launched) in the
                                      period */
    uint32_t max_trimmed_effort; /**< highest effort discarded by
                                      trimming, 0 if none */
    int had_queue;               /**< a call of equix_pow_queue_pop() that
                                      did not wait left at least the low
                                      level queued */
    uint32_t queue_length;       /**< now */
    uint32_t top_effort;         /**< effort at the top of the queue, when
                                      queue_length > 0 */
    uint32_t low_level;          /**< the queue's low level */
} equix_pow_period;

/**
 * The period's statistics so far, as the queue counted them (with the
 * queue's length, top and low level now). With `reset`, the counters
 * start a new period.
 *
 * @param queue  the queue.
 * @param period receives the statistics.
 * @param reset  nonzero to start a new period.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_ARGUMENT, or, from the queue's
 *         discard callback, EQUIX_POW_FAIL_REENTERED (`period` not
 *         written, nothing reset).
 */
EQUIX_POW_API equix_pow_result equix_pow_queue_period(
    equix_pow_queue *queue, equix_pow_period *period, int reset);

/**
 * Tor's suggested-effort rule (additive increase, multiplicative
 * decrease), as a pure function. INCREASE when the highest trimmed effort
 * is above `suggested`; otherwise, when the period had a queue, INCREASE
 * if the queue is not empty and its top effort is at least `suggested`
 * (else no change); otherwise, when the queue is below the low level,
 * DECREASE. INCREASE gives max(suggested + 1, total_effort / handled),
 * DECREASE 2 * suggested / 3 (integer division). Unlike Tor: with nothing
 * handled, INCREASE gives suggested + 1 (Tor divides by zero); a quotient
 * above UINT32_MAX gives UINT32_MAX (Tor truncates it to 32 bits); the
 * decrease is exact for every value (Tor's 32-bit 2 * suggested wraps
 * above 2^31). UINT32_MAX never increases.
 *
 * @param suggested the suggested effort of the period that ends.
 * @param period    its statistics.
 * @return the new suggested effort; `suggested` when `period` is NULL.
 */
EQUIX_POW_API uint32_t equix_pow_effort_update(
    uint32_t suggested, const equix_pow_period *period);

/**
 * Whether a descriptor that published `published` must be republished for
 * the suggested effort `suggested`: when it differs by more than
 * EQUIX_POW_REPUBLISH_PERCENT percent either way (exact integer
 * arithmetic; Tor compares in floating point, which also finds some
 * changes of exactly 15% above, see doc/defence.md).
 *
 * @param published the effort in the published descriptor.
 * @param suggested the suggested effort now.
 * @return 1 to republish, else 0.
 */
EQUIX_POW_API int equix_pow_effort_needs_republish(uint32_t published,
                                                   uint32_t suggested);

/** A service's suggested-effort controller and seed-rotation schedule. */
typedef struct equix_pow_controller equix_pow_controller;

/**
 * A uniform random number in [0, upper): the controller's source for the
 * seed's lifetime. NULL at equix_pow_controller_alloc() uses libsodium's
 * randombytes_uniform(); a simulation passes a seeded generator. A value
 * of `upper` or more is taken modulo `upper`.
 */
typedef uint32_t equix_pow_uniform_fn(void *user, uint32_t upper);

/** What equix_pow_controller_tick() found due. */
typedef enum equix_pow_tick_event {
    EQUIX_POW_TICK_UPDATED = 1,   /**< the period ended; the suggested
                                       effort was recomputed */
    EQUIX_POW_TICK_REPUBLISH = 2, /**< publish a new descriptor with
                                       equix_pow_tick::published_effort */
    EQUIX_POW_TICK_ROTATE = 4,    /**< make a new seed now
                                       (equix_pow_service_rotate()) that
                                       expires at equix_pow_tick::
                                       expiration_ms */
} equix_pow_tick_event;

/** The outcome of a tick. */
typedef struct equix_pow_tick {
    unsigned events;           /**< equix_pow_tick_event flags, or 0 */
    uint32_t suggested_effort; /**< the controller's effort now */
    uint32_t published_effort; /**< what the descriptor should carry */
    uint64_t expiration_ms;    /**< when the current seed expires */
    uint64_t next_tick_ms;     /**< when the next event is due;
                                    UINT64_MAX: none before the clock's
                                    end (never) */
} equix_pow_tick;

/**
 * A controller driving `queue` (which must outlive it): suggested and
 * published effort 0, the first update one period after `now_ms`, and a
 * seed expiring at a uniformly random time between EQUIX_POW_ROTATE_MIN_MS
 * and EQUIX_POW_ROTATE_MAX_MS after it, as Tor's service does.
 *
 * @param queue     the queue it reads and sets.
 * @param now_ms    the caller's time.
 * @param period_ms the update period, or 0 for EQUIX_POW_UPDATE_PERIOD_MS.
 * @param uniform   the random source, or NULL.
 * @param user      passed to `uniform`.
 * @return the controller; NULL when out of memory or `queue` is NULL.
 */
EQUIX_POW_API equix_pow_controller *equix_pow_controller_alloc(
    equix_pow_queue *queue, uint64_t now_ms, uint64_t period_ms,
    equix_pow_uniform_fn *uniform, void *user);

/**
 * Frees the controller (not its queue). Does nothing when NULL.
 *
 * @param controller the controller, or NULL.
 */
EQUIX_POW_API void equix_pow_controller_free(
    equix_pow_controller *controller);

/**
 * Does what is due at `now_ms`, in Tor's order: the seed's rotation (a new
 * expiration, and the descriptor to republish), then the period's update
 * (equix_pow_effort_update() on the queue's statistics, which then start
 * a new period; the queue gets the new suggested effort; the next update
 * is a period after `now_ms`), then the republishing check
 * (equix_pow_effort_needs_republish() against the published effort). A
 * republished descriptor, a rotation's included, carries the effort after
 * this tick's update, as Tor's does. Call it at `next_tick_ms` or more
 * often; calls before it do nothing but fill in `tick`. A deadline past
 * the clock's end saturates to UINT64_MAX, which is never due: after a
 * tick, `next_tick_ms` is after `now_ms`, or UINT64_MAX with nothing due
 * (a tick at UINT64_MAX runs what was due before it once, then nothing),
 * so a caller that ticks at each `next_tick_ms` cannot spin.
 *
 * @param controller the controller.
 * @param now_ms     the caller's time.
 * @param tick       receives what happened and the state now.
 * @return EQUIX_POW_OK, EQUIX_POW_FAIL_ARGUMENT, or, from the discard
 *         callback of the controller's queue, EQUIX_POW_FAIL_REENTERED
 *         (nothing done, `tick` not written).
 */
EQUIX_POW_API equix_pow_result equix_pow_controller_tick(
    equix_pow_controller *controller, uint64_t now_ms, equix_pow_tick *tick);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* EQUIX_POW_DEFENCE_H */

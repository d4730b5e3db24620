/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * queue.c - the service's queue of introduction requests (equix_pow.h,
 * "The service's defence"; doc/defence.md section 1 gives each rule and
 * where Tor has it).
 *
 * A binary max-heap in one array, ordered by effort and then by an
 * insertion number, so that the order is total: two requests never
 * compare equal, and the serving order does not depend on how the heap
 * happens to be laid out. The array grows by doubling up to the high level
 * and never beyond it, since a queue that reaches the high level is
 * trimmed at once; the high level is at most EQUIX_POW_QUEUE_MAX_HIGH_LEVEL
 * (65536), so the array is at most EQUIX_POW_QUEUE_MAX_BYTES (2 MiB).
 *
 * A trim sorts the array in place (the heap is already built: heapsort's
 * second half, then a reversal) and keeps a prefix of it: a sorted array
 * is a valid heap, so nothing needs rebuilding. It hands back at least
 * half the queue in that one call, so its work cannot be spread thinner
 * than that; the cap bounds it. An addition costs at most log2(high)
 * comparisons, and the one that trims, at most 2 high log2(high) more
 * (about two million at the cap) and high / 2 callbacks. At least high / 2
 * additions separate two trims: the trims' share is at most 4 log2(high)
 * comparisons per addition (64 at the cap).
 *
 * The discard callback may not call the queue: while it runs, every call
 * of this queue's API is refused (EQUIX_POW_FAIL_REENTERED, and the free
 * does nothing), so a trim, a pop or a free that hands payloads back never
 * meets an array changed under it, and each payload comes back once.
 * A callback that never returns (it left by longjmp) leaves the mark set,
 * and the queue cannot tell that from one still running: it refuses calls
 * until equix_pow_queue_recover(). So each payload leaves the queue, and
 * is counted, before its callback, and the state of a trim's walk lives
 * in the queue, not in locals: wherever a callback is left, the queue
 * knows which payloads it still holds, and the recovery keeps them.
 *
 * The launch-rate bucket counts milli-tokens: `rate` tokens a second are
 * `rate` milli-tokens a millisecond, so refilling is exact in integers at
 * any elapsed time, where Tor's bucket refills whole tokens once a second
 * (an integer clock in seconds).
 */
#include <config.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "equix_pow.h"
#include "saturate.h"

/* A token in milli-tokens. */
#define TOKEN 1000u

typedef struct queue_entry {
	uint32_t effort;
	uint64_t sequence; /* insertion number: the final tie-break */
	uint64_t enqueued_ms;
	void *payload;
} queue_entry;

/* The header's promise: a full array within the byte cap. */
_Static_assert(sizeof(queue_entry) * EQUIX_POW_QUEUE_MAX_HIGH_LEVEL <=
		       EQUIX_POW_QUEUE_MAX_BYTES,
	       "a queue at its largest high level passes its memory cap");

/* A trim's walk over the sorted array (see trim()): [0, kept) stays,
 * [kept, next) has gone (handed back, or moved into [0, kept)), and
 * [next, end) is not walked yet. */
typedef struct trim_walk {
	size_t kept, next, end;
	bool active; /* a trim is walking */
} trim_walk;

/* The counters equix_pow_queue_period() reports and resets. */
typedef struct period_counts {
	uint64_t total_effort;
	uint32_t handled;
	uint32_t max_trimmed_effort;
	int had_queue;
} period_counts;

struct equix_pow_queue {
	queue_entry *heap;
	size_t length, capacity;
	uint32_t low_level, high_level;
	uint32_t suggested_effort;
	uint32_t max_in_flight;
	uint64_t max_age_ms, retry_ms;
	bool limited; /* a token bucket limits launches */
	uint64_t rate;         /* milli-tokens per millisecond */
	uint64_t bucket_max;   /* milli-tokens */
	uint64_t bucket;       /* milli-tokens */
	uint64_t refilled_ms;  /* the bucket's last refill */
	uint64_t next_sequence;
	period_counts period;
	uint64_t added, served, trimmed, expired;
	equix_pow_discard_fn *discard;
	void *user;
	bool in_callback; /* the discard callback runs: calls are refused */
	trim_walk walk;
};

/* ---- Small arithmetic ------------------------------------------------- */

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* ---- The order -------------------------------------------------------- */

/* Whether `a` is served before `b`: higher effort first, then the
 * earlier queued. Insertion numbers follow the order of queueing and
 * never repeat, so this is Tor's order (effort, then enqueued time) made
 * total: Tor's time has one-second resolution and leaves ties. */
static bool before(const queue_entry *a, const queue_entry *b)
{
	if (a->effort != b->effort)
		return a->effort > b->effort;
	return a->sequence < b->sequence;
}

static void swap_entries(queue_entry *a, queue_entry *b)
{
	queue_entry t = *a;

	*a = *b;
	*b = t;
}

static void sift_up(queue_entry *heap, size_t i)
{
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!before(&heap[i], &heap[parent]))
			return;
		swap_entries(&heap[i], &heap[parent]);
		i = parent;
	}
}

static void sift_down(queue_entry *heap, size_t length, size_t i)
{
	for (;;) {
		size_t best = i, left = 2 * i + 1, right = left + 1;

		if (left < length && before(&heap[left], &heap[best]))
			best = left;
		if (right < length && before(&heap[right], &heap[best]))
			best = right;
		if (best == i)
			return;
		swap_entries(&heap[i], &heap[best]);
		i = best;
	}
}

/* Sorts a heap into serving order in place: the best entry, taken off the
 * top, goes to the end, n - 1 times (at most 2 log2(n) comparisons each),
 * and the array, then worst first, is reversed. No memory: qsort may
 * allocate a copy of the array. */
static void sort_heap(queue_entry *heap, size_t length)
{
	for (size_t end = length; end > 1; end--) {
		swap_entries(&heap[0], &heap[end - 1]);
		sift_down(heap, end - 1, 0);
	}
	for (size_t i = 0; i < length / 2; i++)
		swap_entries(&heap[i], &heap[length - 1 - i]);
}

/* Removes and returns the best entry; the queue must not be empty. */
static queue_entry take_top(equix_pow_queue *q)
{
	queue_entry top = q->heap[0];

	q->heap[0] = q->heap[--q->length];
	sift_down(q->heap, q->length, 0);
	return top;
}

/* ---- Levels and the bucket ------------------------------------------- */

/* Tor's rule (initialize_pow_defenses): a limit only with a rate and a
 * burst of at least one second's worth. The high level holds the burst
 * plus two rendezvous timeouts of launches, in 64 bits so that no rate
 * wraps it. Unlike Tor, it is capped (the queue's memory and a trim's
 * work), and the low level with it, at a quarter of the cap: below the
 * half that a trim leaves, as Tor's low level always is. */
static void set_levels(equix_pow_queue *q, uint32_t rate, uint32_t burst)
{
	uint64_t high;

	q->limited = rate > 0 && burst >= rate;
	if (!q->limited) {
		q->low_level = EQUIX_POW_QUEUE_LOW_LEVEL;
		q->high_level = EQUIX_POW_QUEUE_HIGH_LEVEL;
		return;
	}
	q->low_level = rate / 4 > EQUIX_POW_QUEUE_MIN_LOW_LEVEL
			       ? rate / 4
			       : EQUIX_POW_QUEUE_MIN_LOW_LEVEL;
	if (q->low_level > EQUIX_POW_QUEUE_MAX_HIGH_LEVEL / 4)
		q->low_level = EQUIX_POW_QUEUE_MAX_HIGH_LEVEL / 4;
	high = (uint64_t)burst +
	       (uint64_t)rate * (EQUIX_POW_REND_TIMEOUT_MS / 1000) * 2;
	q->high_level =
		(uint32_t)min_u64(high, EQUIX_POW_QUEUE_MAX_HIGH_LEVEL);
	q->rate = rate;
	q->bucket_max = (uint64_t)burst * TOKEN;
}

/* Adds what accrued since the last refill. Time that goes backwards adds
 * nothing and does not move the refill time back. */
static void refill(equix_pow_queue *q, uint64_t now_ms)
{
	uint64_t elapsed, room;

	if (!q->limited || now_ms <= q->refilled_ms)
		return;
	elapsed = now_ms - q->refilled_ms;
	room = q->bucket_max - q->bucket;
	/* elapsed * rate may not fit in 64 bits: past room / rate
	 * milliseconds the bucket is full in any case. */
	if (elapsed > room / q->rate)
		q->bucket = q->bucket_max;
	else
		q->bucket += elapsed * q->rate;
	q->refilled_ms = now_ms;
}

/* ---- Allocation ------------------------------------------------------- */

equix_pow_queue *equix_pow_queue_alloc(uint32_t rate, uint32_t burst,
				       uint64_t now_ms,
				       equix_pow_discard_fn *discard,
				       void *user)
{
	equix_pow_queue *q = calloc(1, sizeof *q);

	if (q == NULL)
		return NULL;
	set_levels(q, rate, burst);
	q->bucket = q->bucket_max;
	q->refilled_ms = now_ms;
	q->max_in_flight = EQUIX_POW_QUEUE_MAX_IN_FLIGHT;
	q->max_age_ms = EQUIX_POW_QUEUE_MAX_AGE_MS;
	q->retry_ms = EQUIX_POW_QUEUE_RETRY_MS;
	q->discard = discard;
	q->user = user;
	return q;
}

/* Hands one request, already out of the queue, back to the caller,
 * counted by why. The callback cannot re-enter (see reentered()), so it
 * cannot nest either: one flag is enough. A callback that never returns
 * leaves it set (see equix_pow_queue_recover()). */
static void drop(equix_pow_queue *q, const queue_entry *e,
		 equix_pow_discard_reason reason)
{
	if (reason == EQUIX_POW_DISCARD_TRIMMED)
		q->trimmed++;
	else if (reason == EQUIX_POW_DISCARD_EXPIRED)
		q->expired++;
	if (q->discard == NULL)
		return;
	q->in_callback = true;
	q->discard(q->user, e->payload, e->effort, reason);
	q->in_callback = false;
}

/* Whether a call comes from the queue's own discard callback: it is
 * refused before it changes or reads anything. */
static bool reentered(const equix_pow_queue *q)
{
	return q->in_callback;
}

/* Hands the requests back from the end of the array, so that the rest
 * stays a heap: a callback that does not return leaves them queued. */
void equix_pow_queue_free(equix_pow_queue *queue)
{
	if (queue == NULL || reentered(queue))
		return;
	while (queue->length > 0) {
		queue_entry e = queue->heap[--queue->length];

		drop(queue, &e, EQUIX_POW_DISCARD_FREED);
	}
	free(queue->heap);
	free(queue);
}

/* Ends a trim's walk where it stands: what it kept, then what it has not
 * walked. Both are in serving order and the second comes after the first,
 * so the array stays sorted, a heap. */
static void end_walk(equix_pow_queue *q)
{
	trim_walk *w = &q->walk;

	memmove(&q->heap[w->kept], &q->heap[w->next],
		(w->end - w->next) * sizeof(queue_entry));
	q->length = w->kept + (w->end - w->next);
	w->active = false;
}

equix_pow_result equix_pow_queue_recover(equix_pow_queue *queue)
{
	if (queue == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (!queue->in_callback)
		return EQUIX_POW_OK;
	if (queue->walk.active)
		end_walk(queue);
	queue->in_callback = false;
	return EQUIX_POW_OK;
}

/* ---- Adding and trimming ---------------------------------------------- */

/* Room for one more entry: doubling, but never past the high level (a
 * queue that reaches it is trimmed before the next addition). */
static bool make_room(equix_pow_queue *q)
{
	size_t cap;
	void *grown;

	if (q->length < q->capacity)
		return true;
	cap = q->capacity ? q->capacity * 2 : 16;
	if (cap > q->high_level)
		cap = q->high_level;
	if (cap <= q->length || cap > SIZE_MAX / sizeof(queue_entry))
		return false;
	grown = realloc(q->heap, cap * sizeof(queue_entry));
	if (grown == NULL)
		return false;
	q->heap = grown;
	q->capacity = cap;
	return true;
}

static bool too_old(const equix_pow_queue *q, const queue_entry *e,
		    uint64_t now_ms)
{
	return now_ms > e->enqueued_ms && now_ms - e->enqueued_ms > q->max_age_ms;
}

static void note_trimmed_effort(equix_pow_queue *q, uint32_t effort)
{
	if (effort > q->period.max_trimmed_effort)
		q->period.max_trimmed_effort = effort;
}

/* Tor's trim (trim_rend_pqueue): the best high/2 requests that are not too
 * old stay, in order; every other one goes, handed back in serving order.
 * Tor also counts the too-old ones it meets while keeping in the highest
 * trimmed effort, and so does this. The sorted prefix that stays is a
 * valid heap as it is. The walk is the queue's (q->walk), not the loop's:
 * a callback that is left leaves it for equix_pow_queue_recover() to end.
 * It is read again after each callback, so that even a recovery from
 * inside a callback still running (outside the contract) ends the walk
 * without losing a payload. */
static void trim(equix_pow_queue *q, uint64_t now_ms)
{
	size_t keep = q->high_level / 2;
	trim_walk *w = &q->walk;

	sort_heap(q->heap, q->length);
	*w = (trim_walk){0, 0, q->length, true};
	while (w->active && w->next < w->end) {
		queue_entry e = q->heap[w->next++];

		if (w->kept < keep && !too_old(q, &e, now_ms)) {
			q->heap[w->kept++] = e;
			continue;
		}
		note_trimmed_effort(q, e.effort);
		drop(q, &e,
		     w->kept < keep ? EQUIX_POW_DISCARD_EXPIRED
				    : EQUIX_POW_DISCARD_TRIMMED);
	}
	if (w->active)
		end_walk(q);
}

equix_pow_result equix_pow_queue_add(equix_pow_queue *queue, uint32_t effort,
				     void *payload, uint64_t now_ms)
{
	queue_entry *e;

	if (queue == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (reentered(queue))
		return EQUIX_POW_FAIL_REENTERED;
	if (!make_room(queue))
		return EQUIX_POW_FAIL_NO_MEMORY;
	e = &queue->heap[queue->length];
	e->effort = effort;
	e->sequence = queue->next_sequence++;
	e->enqueued_ms = now_ms;
	e->payload = payload;
	sift_up(queue->heap, queue->length++);
	queue->added++;
	/* Tor adds the effort of every request it queued, trimmed or not. */
	queue->period.total_effort =
		pow_add_saturated(queue->period.total_effort, effort);
	if (queue->length >= queue->high_level)
		trim(queue, now_ms);
	return EQUIX_POW_OK;
}

/* ---- Serving ---------------------------------------------------------- */

/* Whether the in-flight rule holds the best request back (Tor: too many
 * rendezvous circuits in progress and the top is not "worthwhile"). */
static bool held_by_in_flight(const equix_pow_queue *q, uint32_t in_flight)
{
	return in_flight >= q->max_in_flight &&
	       q->heap[0].effort < q->suggested_effort;
}

/* Spends a token if there is one (always, without a limit). */
static bool spend_token(equix_pow_queue *q, uint64_t now_ms)
{
	if (!q->limited)
		return true;
	refill(q, now_ms);
	if (q->bucket < TOKEN)
		return false;
	q->bucket -= TOKEN;
	return true;
}

static void wait_until_retry(const equix_pow_queue *q, uint64_t now_ms,
			     equix_pow_pop_status status,
			     equix_pow_popped *out)
{
	out->status = status;
	out->retry_at_ms = pow_add_saturated(now_ms, q->retry_ms);
}

static void serve(equix_pow_queue *q, const queue_entry *e,
		  equix_pow_popped *out)
{
	out->status = EQUIX_POW_POP_SERVED;
	out->payload = e->payload;
	out->effort = e->effort;
	out->enqueued_ms = e->enqueued_ms;
	q->served++;
	if (q->period.handled < UINT32_MAX)
		q->period.handled++;
}

/* Tor's loop (handle_rend_pqueue_cb), one launch per call: each pass
 * checks the in-flight rule, then the bucket, then takes the best request,
 * which is served unless it is too old. A call that waits returns at once,
 * without looking at the low level, as Tor's does. */
equix_pow_result equix_pow_queue_pop(equix_pow_queue *queue, uint64_t now_ms,
				     uint32_t in_flight, equix_pow_popped *out)
{
	if (queue == NULL || out == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (reentered(queue))
		return EQUIX_POW_FAIL_REENTERED;
	memset(out, 0, sizeof *out);
	out->status = EQUIX_POW_POP_EMPTY;
	while (queue->length > 0) {
		queue_entry e;

		if (held_by_in_flight(queue, in_flight)) {
			wait_until_retry(queue, now_ms,
					 EQUIX_POW_POP_WAIT_IN_FLIGHT, out);
			return EQUIX_POW_OK;
		}
		if (!spend_token(queue, now_ms)) {
			wait_until_retry(queue, now_ms, EQUIX_POW_POP_WAIT_RATE,
					 out);
			return EQUIX_POW_OK;
		}
		e = take_top(queue);
		if (too_old(queue, &e, now_ms)) {
			drop(queue, &e, EQUIX_POW_DISCARD_EXPIRED);
			continue;
		}
		serve(queue, &e, out);
		break;
	}
	if (queue->length > 0 && queue->length >= queue->low_level)
		queue->period.had_queue = 1;
	return EQUIX_POW_OK;
}

/* ---- Settings and figures --------------------------------------------- */

equix_pow_result equix_pow_queue_set_suggested_effort(equix_pow_queue *queue,
						      uint32_t suggested_effort)
{
	if (queue == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (reentered(queue))
		return EQUIX_POW_FAIL_REENTERED;
	queue->suggested_effort = suggested_effort;
	return EQUIX_POW_OK;
}

equix_pow_result equix_pow_queue_set_limits(equix_pow_queue *queue,
					    uint32_t max_in_flight,
					    uint64_t max_age_ms,
					    uint64_t retry_ms)
{
	if (queue == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (reentered(queue))
		return EQUIX_POW_FAIL_REENTERED;
	if (max_in_flight != 0)
		queue->max_in_flight = max_in_flight;
	if (max_age_ms != 0)
		queue->max_age_ms = max_age_ms;
	if (retry_ms != 0)
		queue->retry_ms = retry_ms;
	return EQUIX_POW_OK;
}

static uint32_t top_effort(const equix_pow_queue *q)
{
	return q->length > 0 ? q->heap[0].effort : 0;
}

equix_pow_result equix_pow_queue_stats_get(const equix_pow_queue *queue,
					   equix_pow_queue_stats *stats)
{
	if (queue == NULL || stats == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (reentered(queue))
		return EQUIX_POW_FAIL_REENTERED;
	memset(stats, 0, sizeof *stats);
	stats->length = (uint32_t)queue->length;
	stats->top_effort = top_effort(queue);
	stats->low_level = queue->low_level;
	stats->high_level = queue->high_level;
	stats->suggested_effort = queue->suggested_effort;
	stats->added = queue->added;
	stats->served = queue->served;
	stats->trimmed = queue->trimmed;
	stats->expired = queue->expired;
	return EQUIX_POW_OK;
}

equix_pow_result equix_pow_queue_period(equix_pow_queue *queue,
					equix_pow_period *period, int reset)
{
	if (queue == NULL || period == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (reentered(queue))
		return EQUIX_POW_FAIL_REENTERED;
	memset(period, 0, sizeof *period);
	period->total_effort = queue->period.total_effort;
	period->handled = queue->period.handled;
	period->max_trimmed_effort = queue->period.max_trimmed_effort;
	period->had_queue = queue->period.had_queue;
	period->queue_length = (uint32_t)queue->length;
	period->top_effort = top_effort(queue);
	period->low_level = queue->low_level;
	if (reset)
		memset(&queue->period, 0, sizeof queue->period);
	return EQUIX_POW_OK;
}

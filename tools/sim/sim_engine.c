/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_engine.c - the event loop of "pow simulate" (sim.h): clients and
 * attackers make requests, one verification thread checks their proofs,
 * libequix's queue serves them and its controller sets the suggested
 * effort, which clients see after the publication delay.
 *
 * Time is in nanoseconds of simulated time (the library's calls get
 * milliseconds), so that a verification cost of some microseconds is
 * exact. Events at the same time run in the order they were scheduled,
 * so that a seed gives one sequence of events. To keep the heap small,
 * each source schedules only its next event: one arrival per stream, one
 * event per busy core, per solving or waiting client, per launch in
 * flight. Clients and requests live in pools that grow by doubling, so
 * no event allocates.
 *
 * Each field of a scenario is bounded, but not their combinations: four
 * attackers at 10^7 requests per second, each proof costing a second of
 * verification, would fill the machine's memory within a minute. So the
 * events, clients and requests alive at once are counted with the rows of
 * the time series (one per simulated second and per update period, kept
 * to the end), and the run stops at the budget (--max-live) with one
 * line. Everything else the engine holds is bounded by them (the
 * verification line, the library's queue) or fixed in size (the
 * one-second window of launches, the histograms).
 *
 * Memory is not the only thing such a scenario can take: a flood of 10^7
 * requests a second whose launches take a millisecond holds few events
 * at once, but 900,000 simulated seconds of it are 1.8 * 10^13 events,
 * about a month of CPU. So the events processed have a budget too
 * (--max-events), checked before each one, and the run stops there with
 * one line, as at --max-live.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <equix_pow.h>

#include "args.h"
#include "sim.h"
#include "seeded_rng.h"

#define NS_PER_MS UINT64_C(1000000)
#define NS_PER_S UINT64_C(1000000000)
#define NONE UINT32_MAX

enum ev_kind {
	EV_CLIENT_ARRIVAL, /* a new legitimate client */
	EV_CLIENT_SEND,    /* a client's proof is solved: it sends */
	EV_CLIENT_TIMEOUT, /* a client's attempt timed out */
	EV_ATTACK_START,   /* an attacker's next request may start */
	EV_ATTACK_PROOF,   /* an attacker's core solved a proof */
	EV_VERIFY_DONE,    /* the verification thread finished one */
	EV_LAUNCH_DONE,    /* a launch in flight completes */
	EV_POP_RETRY,      /* the queue said to ask again now */
	EV_TICK,           /* the controller is due */
	EV_VISIBLE,        /* clients now see a republished effort */
	EV_SAMPLE,         /* a second of the time series ends */
};

typedef struct event {
	uint64_t t, seq;
	uint64_t arg; /* an attempt's serial, an effort, a time */
	uint32_t kind, index;
} event;

typedef struct client {
	uint64_t first_ns; /* the first attempt's start */
	uint64_t serial;   /* the current attempt; 0: the slot is free */
	uint32_t effort;   /* its effort */
	uint32_t next_free;
} client;

typedef struct request {
	uint64_t sent_ns;
	uint64_t serial; /* the client's attempt that sent it */
	uint32_t client; /* NONE for an attacker's */
	uint32_t effort;
	uint32_t cls;
	uint32_t next_free;
} request;

typedef struct attacker_state {
	const sim_attacker *p;
	uint32_t free_cores;
	bool blocked; /* a start waits for a core */
	uint64_t start_ns, on_ns, off_ns;
} attacker_state;

/* The requests waiting for the verification thread, in arrival order. */
typedef struct ring {
	uint64_t *v;
	size_t head, n, cap;
} ring;

typedef struct sim {
	const sim_scenario *s;
	sim_result *r;
	seeded_rng rng;
	event *heap;
	size_t heap_n, heap_cap;
	uint64_t seq, serial, now, end;
	equix_pow_queue *queue;
	equix_pow_controller *ctl;
	uint32_t in_flight, suggested, published, seen;
	uint64_t verify_ns, rend_ns, retry_at;
	bool verifying;
	ring verify_fifo;
	/* Launches per millisecond of the last second: slot ms % 1000 holds
	 * those at ms, for the 1000 ms up to window_ms; window_n is their
	 * sum. */
	uint32_t window[1000];
	uint64_t window_ms, window_n;
	client *clients;
	size_t clients_cap;
	uint32_t clients_free;
	request *reqs;
	size_t reqs_cap;
	uint32_t reqs_free;
	/* Clients and requests taken from the pools; with the events in the
	 * heap, at most max_live (over_budget when one more was wanted). */
	size_t live, max_live;
	bool over_budget;
	/* Events processed (r->events): at most max_events (over_events
	 * when one more was due). */
	uint64_t max_events;
	bool over_events;
	size_t n_attackers;
	attacker_state att[SIM_MAX_ATTACKERS];
	sim_row sec, period; /* the rows being counted */
	uint32_t period_attacks;
	bool oom;
} sim;

/* ---- Small parts ----------------------------------------------------- */

static uint64_t ns_of(double seconds)
{
	return (uint64_t)llround(seconds * (double)NS_PER_S);
}

static uint64_t now_ms(const sim *m)
{
	return m->now / NS_PER_MS;
}

static void broken(sim *m, const char *what)
{
	if (m->r->invariant[0] == '\0')
		snprintf(m->r->invariant, sizeof m->r->invariant,
			 "at %.3f s: %s", (double)m->now / 1e9, what);
}

/* Room for `want` items of `elem` bytes in *p, which has *cap: the
 * capacity doubles, up to `max` items; false when that is not enough (the
 * size in bytes never wraps) or realloc fails. */
static bool grow(void **p, size_t elem, size_t *cap, size_t want, size_t max)
{
	size_t c = *cap ? *cap : 64;
	void *q;

	if (max > SIZE_MAX / elem)
		max = SIZE_MAX / elem;
	if (want > max)
		return false;
	if (c > max)
		c = max;
	while (c < want)
		c = c > max / 2 ? max : c * 2;
	if (c == *cap)
		return true;
	q = realloc(*p, c * elem);
	if (q == NULL)
		return false;
	*p = q;
	*cap = c;
	return true;
}

/* Whether one more event, client, request or row fits in the budget;
 * when not, the run stops (over_budget). */
static bool room(sim *m)
{
	if (m->heap_n + m->live + m->r->seconds.n + m->r->periods.n <
	    m->max_live)
		return true;
	m->over_budget = true;
	return false;
}

/* ---- The event heap, ordered by (time, scheduling order) ------------- */

static bool before(const event *a, const event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void schedule(sim *m, uint64_t t, uint32_t kind, uint32_t index,
		     uint64_t arg)
{
	event e = {t, m->seq++, arg, kind, index};
	size_t i = m->heap_n;

	if (!room(m))
		return;
	if (i == m->heap_cap &&
	    !grow((void **)&m->heap, sizeof *m->heap, &m->heap_cap, i + 1,
		  SIZE_MAX)) {
		m->oom = true;
		return;
	}
	m->heap_n++;
	while (i > 0 && before(&e, &m->heap[(i - 1) / 2])) {
		m->heap[i] = m->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->heap[i] = e;
}

static event next_event(sim *m)
{
	event top = m->heap[0], last = m->heap[--m->heap_n];
	size_t i = 0, n = m->heap_n;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(&m->heap[c + 1], &m->heap[c]))
			c++;
		if (!before(&m->heap[c], &last))
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	if (n > 0)
		m->heap[i] = last;
	return top;
}

/* ---- Rings ----------------------------------------------------------- */

static bool ring_push(ring *q, uint64_t v)
{
	if (q->n == q->cap) {
		size_t old = q->cap;
		/* Doubling must stay possible (see below). */
		if (old > SIZE_MAX / 2 / sizeof *q->v ||
		    !grow((void **)&q->v, sizeof *q->v, &q->cap, q->n + 1,
			  SIZE_MAX))
			return false;
		/* The ring was full: the part before head wrapped, and
		 * moves after the old end (the new size is at least
		 * double). */
		for (size_t i = 0; i < q->head; i++)
			q->v[old + i] = q->v[i];
	}
	q->v[(q->head + q->n) % q->cap] = v;
	q->n++;
	return true;
}

static uint64_t ring_front(const ring *q)
{
	return q->v[q->head];
}

static void ring_drop(ring *q)
{
	q->head = (q->head + 1) % q->cap;
	q->n--;
}

/* ---- Pools of clients and requests ----------------------------------- */

/* A pool's free list runs through the items' own next_free fields, at
 * `link` bytes into each item of `size` bytes; NONE ends it. */
static uint32_t *link_of(void *items, size_t size, size_t link, size_t i)
{
	return (uint32_t *)((unsigned char *)items + i * size + link);
}

/* A free item of the pool (*items, *cap items, free list from *head),
 * grown by doubling when none is free; NONE when the budget is used up
 * (m->over_budget) or the pool cannot grow (m->oom). The indices stay
 * below NONE: at most NONE items. */
static uint32_t pool_take(sim *m, void **items, size_t size, size_t link,
			  size_t *cap, uint32_t *head)
{
	uint32_t i = *head;

	if (!room(m))
		return NONE;
	if (i == NONE) {
		size_t c = *cap, old = c;

		if (!grow(items, size, &c, old + 1, NONE)) {
			m->oom = true;
			return NONE;
		}
		for (size_t k = old; k < c; k++)
			*link_of(*items, size, link, k) =
				k + 1 < c ? (uint32_t)(k + 1) : NONE;
		*cap = c;
		i = (uint32_t)old;
	}
	*head = *link_of(*items, size, link, i);
	m->live++;
	return i;
}

static void pool_give(sim *m, void *items, size_t size, size_t link,
		      uint32_t *head, uint32_t i)
{
	*link_of(items, size, link, i) = *head;
	*head = i;
	m->live--;
}

static uint32_t client_new(sim *m)
{
	return pool_take(m, (void **)&m->clients, sizeof *m->clients,
			 offsetof(client, next_free), &m->clients_cap,
			 &m->clients_free);
}

static void client_free(sim *m, uint32_t i)
{
	m->clients[i].serial = 0;
	pool_give(m, m->clients, sizeof *m->clients,
		  offsetof(client, next_free), &m->clients_free, i);
}

static uint32_t request_new(sim *m)
{
	return pool_take(m, (void **)&m->reqs, sizeof *m->reqs,
			 offsetof(request, next_free), &m->reqs_cap,
			 &m->reqs_free);
}

static void request_free(sim *m, uint32_t i)
{
	pool_give(m, m->reqs, sizeof *m->reqs, offsetof(request, next_free),
		  &m->reqs_free, i);
}

/* The queue's payload is the request's index + 1 (never NULL). */
static void *payload_of(uint32_t i)
{
	return (void *)((uintptr_t)i + 1);
}

static uint32_t index_of(void *payload)
{
	return (uint32_t)((uintptr_t)payload - 1);
}

/* ---- Counting -------------------------------------------------------- */

static void hist_add(sim_class_result *c, uint64_t ns)
{
	uint64_t b = ns / (SIM_HIST_STEP_MS * NS_PER_MS);

	c->hist[b < SIM_HIST_BUCKETS ? b : SIM_HIST_BUCKETS - 1]++;
}

/* The queue drops a request: counted, and its slot freed. */
static void on_discard(void *user, void *payload, uint32_t effort,
		       equix_pow_discard_reason reason)
{
	sim *m = user;
	uint32_t i = index_of(payload);
	uint32_t cls = m->reqs[i].cls;

	(void)effort;
	if (reason == EQUIX_POW_DISCARD_TRIMMED) {
		m->sec.trimmed++;
		m->period.trimmed++;
		m->r->cls[cls].trimmed++;
	} else if (reason == EQUIX_POW_DISCARD_EXPIRED) {
		m->sec.expired++;
		m->period.expired++;
		m->r->cls[cls].expired++;
	}
	request_free(m, i);
}

/* Every launch: no one-second window (now - 1 s, now] may hold more than
 * burst + rate of them when the rate is limited. The window is counted
 * per millisecond, so it takes the same memory at any launch rate. */
static void check_window(sim *m)
{
	uint64_t t = now_ms(m);
	uint64_t limit = (uint64_t)m->s->burst + m->s->rate;

	if (m->s->rate == 0)
		return;
	if (t - m->window_ms >= 1000) {
		memset(m->window, 0, sizeof m->window);
		m->window_n = 0;
	} else {
		/* The milliseconds that left the window since the last. */
		for (uint64_t ms = m->window_ms + 1; ms <= t; ms++) {
			m->window_n -= m->window[ms % 1000];
			m->window[ms % 1000] = 0;
		}
	}
	m->window_ms = t;
	m->window[t % 1000]++;
	m->window_n++;
	if (m->window_n > m->r->max_window)
		m->r->max_window = (uint32_t)m->window_n;
	if (m->window_n > limit)
		broken(m, "more launches in one second than burst + rate");
}

/* ---- The service ----------------------------------------------------- */

static void schedule_retry(sim *m, uint64_t at_ms)
{
	uint64_t t = at_ms * NS_PER_MS;

	if (t < m->now)
		t = m->now;
	if (m->retry_at != 0 && m->retry_at <= t)
		return;
	m->retry_at = t;
	schedule(m, t, EV_POP_RETRY, 0, t);
}

static void launch(sim *m, uint32_t i)
{
	uint32_t cls = m->reqs[i].cls;

	m->in_flight++;
	m->r->launches++;
	m->sec.served[cls]++;
	m->period.served[cls]++;
	check_window(m);
	schedule(m, m->now + m->rend_ns, EV_LAUNCH_DONE, i, 0);
}

/* Tor's event loop: serve until the queue is empty or says to wait. */
static bool pump(sim *m)
{
	equix_pow_popped out;

	for (;;) {
		if (equix_pow_queue_pop(m->queue, now_ms(m), m->in_flight,
					&out) != EQUIX_POW_OK) {
			cli_fail("pow simulate: equix_pow_queue_pop failed");
			return false;
		}
		if (out.status != EQUIX_POW_POP_SERVED)
			break;
		launch(m, index_of(out.payload));
	}
	if (out.status == EQUIX_POW_POP_WAIT_IN_FLIGHT ||
	    out.status == EQUIX_POW_POP_WAIT_RATE)
		schedule_retry(m, out.retry_at_ms);
	return true;
}

static bool enqueue(sim *m, uint32_t i)
{
	equix_pow_queue_stats st;

	if (equix_pow_queue_add(m->queue, m->reqs[i].effort, payload_of(i),
				now_ms(m)) != EQUIX_POW_OK ||
	    equix_pow_queue_stats_get(m->queue, &st) != EQUIX_POW_OK) {
		cli_fail("pow simulate: equix_pow_queue_add failed");
		return false;
	}
	if (st.length > m->r->max_queue)
		m->r->max_queue = st.length;
	if (st.length > st.high_level)
		broken(m, "the queue is above its high level");
	return pump(m);
}

static void start_verify(sim *m)
{
	m->verifying = true;
	schedule(m, m->now + m->verify_ns, EV_VERIFY_DONE, 0, 0);
}

/* A request reaches the service: effort 0 needs no verification. */
static bool deliver(sim *m, uint32_t i)
{
	uint32_t cls = m->reqs[i].cls;

	m->sec.arrivals[cls]++;
	m->period.arrivals[cls]++;
	m->r->cls[cls].requests++;
	if (cls == SIM_ATTACK)
		m->period_attacks++;
	if (m->reqs[i].effort == 0)
		return enqueue(m, i);
	if (!ring_push(&m->verify_fifo, i)) {
		m->oom = true;
		return false;
	}
	if (!m->verifying)
		start_verify(m);
	return true;
}

static bool on_verify_done(sim *m)
{
	uint32_t i = (uint32_t)ring_front(&m->verify_fifo);

	ring_drop(&m->verify_fifo);
	m->verifying = false;
	if (m->verify_fifo.n > 0)
		start_verify(m);
	return enqueue(m, i);
}

static uint32_t new_request(sim *m, uint32_t cls, uint32_t effort,
			    uint32_t owner, uint64_t serial)
{
	uint32_t i = request_new(m);

	if (i != NONE) {
		request *q = &m->reqs[i];
		q->sent_ns = m->now;
		q->serial = serial;
		q->client = owner;
		q->effort = effort;
		q->cls = cls;
	}
	return i;
}

/* ---- Legitimate clients ---------------------------------------------- */

/* Seconds of one core at `speed` times this machine for a proof of
 * `effort` (> 0): each nonce gives m solutions on average, each passing
 * with probability 1/effort, so success per nonce is 1 - exp(-m/effort). */
static double solve_seconds(sim *m, uint32_t effort, double speed)
{
	uint64_t nonces = seeded_rng_geometric(
		&m->rng, m->s->solutions_per_nonce / (double)effort);

	return (double)nonces / (m->s->solve_rate * speed);
}

static bool client_send(sim *m, uint32_t c)
{
	client *cl = &m->clients[c];
	uint32_t i = new_request(m, SIM_LEGIT, cl->effort, c, cl->serial);

	if (i == NONE)
		return false;
	schedule(m, m->now + EQUIX_POW_REND_TIMEOUT_MS * NS_PER_MS,
		 EV_CLIENT_TIMEOUT, c, cl->serial);
	return deliver(m, i);
}

/* An attempt: the effort seen in the descriptor, or on a retry Tor's
 * retry rule on the last one if that is higher; no proof at effort 0. */
static bool client_attempt(sim *m, uint32_t c, bool retry)
{
	client *cl = &m->clients[c];
	uint32_t effort = m->seen;
	double secs;

	if (retry && equix_pow_effort_retry(cl->effort) > effort)
		effort = equix_pow_effort_retry(cl->effort);
	cl->effort = effort;
	cl->serial = ++m->serial;
	if (effort == 0)
		return client_send(m, c);
	secs = solve_seconds(m, effort, m->s->client_cpu);
	m->r->cls[SIM_LEGIT].cpu_s += secs;
	schedule(m, m->now + ns_of(secs), EV_CLIENT_SEND, c, cl->serial);
	return true;
}

static bool on_client_arrival(sim *m)
{
	uint32_t c = client_new(m);

	schedule(m, m->now + ns_of(seeded_rng_exp(&m->rng) / m->s->client_rate),
		 EV_CLIENT_ARRIVAL, 0, 0);
	if (c == NONE)
		return false;
	m->clients[c].first_ns = m->now;
	m->clients[c].effort = 0;
	m->r->cls[SIM_LEGIT].started++;
	return client_attempt(m, c, false);
}

static bool on_client_timeout(sim *m, uint32_t c, uint64_t serial)
{
	client *cl = &m->clients[c];

	if (cl->serial != serial)
		return true; /* that attempt succeeded */
	if (m->now - cl->first_ns >= ns_of(m->s->patience_s)) {
		m->r->cls[SIM_LEGIT].failed++;
		client_free(m, c);
		return true;
	}
	return client_attempt(m, c, true);
}

static bool on_launch_done(sim *m, uint32_t i)
{
	request *q = &m->reqs[i];

	m->in_flight--;
	if (q->cls == SIM_ATTACK) {
		m->r->cls[SIM_ATTACK].succeeded++;
		hist_add(&m->r->cls[SIM_ATTACK], m->now - q->sent_ns);
	} else if (m->clients[q->client].serial == q->serial) {
		/* The client still waits for this attempt: it connects. */
		m->r->cls[SIM_LEGIT].succeeded++;
		hist_add(&m->r->cls[SIM_LEGIT],
			 m->now - m->clients[q->client].first_ns);
		client_free(m, q->client);
	}
	request_free(m, i);
	return pump(m);
}

/* ---- Attackers ------------------------------------------------------- */

static uint64_t attack_next_on(const attacker_state *a, uint64_t t)
{
	uint64_t cycle = a->on_ns + a->off_ns, phase;

	if (t < a->start_ns)
		return a->start_ns;
	if (a->off_ns == 0)
		return t;
	phase = (t - a->start_ns) % cycle;
	return phase < a->on_ns ? t : t + (cycle - phase);
}

static uint32_t attack_effort(const sim *m, const attacker_state *a)
{
	uint32_t step;

	switch (a->p->strategy) {
	case SIM_FIXED:
		return a->p->effort;
	case SIM_MATCH:
		return m->seen;
	case SIM_ABOVE:
		step = m->seen / 10 > 1 ? m->seen / 10 : 1;
		return m->seen > UINT32_MAX - step ? UINT32_MAX
						   : m->seen + step;
	case SIM_FLOOD:
	default:
		return 0;
	}
}

static bool attack_send(sim *m, uint32_t effort)
{
	uint32_t i = new_request(m, SIM_ATTACK, effort, NONE, 0);

	if (i == NONE)
		return false;
	m->r->cls[SIM_ATTACK].started++;
	return deliver(m, i);
}

/* A request may start: sent at once at effort 0, else solved by a free
 * core (none free: the next core to finish starts it). */
static bool on_attack_start(sim *m, uint32_t k)
{
	attacker_state *a = &m->att[k];
	uint64_t on = attack_next_on(a, m->now);
	uint32_t effort;
	double secs;

	if (on != m->now) {
		schedule(m, on, EV_ATTACK_START, k, 0);
		return true;
	}
	effort = attack_effort(m, a);
	if (effort > 0 && a->free_cores == 0) {
		a->blocked = true;
		return true;
	}
	schedule(m, m->now + ns_of(seeded_rng_exp(&m->rng) / a->p->rate),
		 EV_ATTACK_START, k, 0);
	if (effort == 0)
		return attack_send(m, 0);
	a->free_cores--;
	secs = solve_seconds(m, effort, a->p->cpu);
	m->r->cls[SIM_ATTACK].cpu_s += secs;
	schedule(m, m->now + ns_of(secs), EV_ATTACK_PROOF, k, effort);
	return true;
}

static bool on_attack_proof(sim *m, uint32_t k, uint32_t effort)
{
	attacker_state *a = &m->att[k];

	a->free_cores++;
	if (!attack_send(m, effort))
		return false;
	if (a->blocked) {
		a->blocked = false;
		return on_attack_start(m, k);
	}
	return true;
}

/* ---- The controller and the time series ------------------------------ */

static bool push_row(sim_series *series, const sim_row *row)
{
	if (series->n == series->cap &&
	    !grow((void **)&series->rows, sizeof *series->rows, &series->cap,
		  series->n + 1, SIZE_MAX))
		return false;
	series->rows[series->n++] = *row;
	return true;
}

/* Closes a row of counts at now, with the state now. */
static bool close_row(sim *m, sim_row *row, sim_series *series)
{
	equix_pow_queue_stats st;

	equix_pow_queue_stats_get(m->queue, &st);
	row->t_s = (double)m->now / 1e9;
	row->suggested = m->suggested;
	row->published = m->published;
	row->seen = m->seen;
	row->queue = st.length;
	if (!room(m))
		return false;
	if (!push_row(series, row)) {
		m->oom = true;
		return false;
	}
	memset(row, 0, sizeof *row);
	return true;
}

/* With no attack in the period, no queue and nothing trimmed, Tor's rule
 * must decrease the effort by a third (integer division). */
static void check_decay(sim *m, const equix_pow_period *p, uint32_t before_e,
			uint32_t after_e)
{
	if (m->period_attacks != 0 || p->had_queue ||
	    p->max_trimmed_effort != 0 || p->queue_length != 0)
		return;
	if ((uint64_t)after_e != (uint64_t)before_e * 2 / 3)
		broken(m, "with no attack and an empty queue the suggested "
			  "effort did not decay by 2/3");
}

static bool on_tick(sim *m)
{
	equix_pow_period p;
	equix_pow_tick tick;
	uint32_t before_e = m->suggested;

	if (equix_pow_queue_period(m->queue, &p, 0) != EQUIX_POW_OK ||
	    equix_pow_controller_tick(m->ctl, now_ms(m), &tick) !=
		    EQUIX_POW_OK) {
		cli_fail("pow simulate: equix_pow_controller_tick failed");
		return false;
	}
	m->suggested = tick.suggested_effort;
	if (tick.events & EQUIX_POW_TICK_UPDATED) {
		check_decay(m, &p, before_e, m->suggested);
		m->period_attacks = 0;
	}
	if (tick.events & EQUIX_POW_TICK_REPUBLISH) {
		m->published = tick.published_effort;
		schedule(m, m->now + ns_of(m->s->publish_delay_s), EV_VISIBLE,
			 0, m->published);
	}
	if ((tick.events & EQUIX_POW_TICK_UPDATED) &&
	    !close_row(m, &m->period, &m->r->periods))
		return false;
	if (tick.next_tick_ms <= now_ms(m)) {
		broken(m, "the controller's next tick is not after now");
		return true;
	}
	schedule(m, tick.next_tick_ms * NS_PER_MS, EV_TICK, 0, 0);
	return true;
}

static bool on_sample(sim *m)
{
	schedule(m, m->now + NS_PER_S, EV_SAMPLE, 0, 0);
	return close_row(m, &m->sec, &m->r->seconds);
}

/* ---- The loop -------------------------------------------------------- */

static bool dispatch(sim *m, const event *e)
{
	switch (e->kind) {
	case EV_CLIENT_ARRIVAL:
		return on_client_arrival(m);
	case EV_CLIENT_SEND:
		return m->clients[e->index].serial != e->arg ||
		       client_send(m, e->index);
	case EV_CLIENT_TIMEOUT:
		return on_client_timeout(m, e->index, e->arg);
	case EV_ATTACK_START:
		return on_attack_start(m, e->index);
	case EV_ATTACK_PROOF:
		return on_attack_proof(m, e->index, (uint32_t)e->arg);
	case EV_VERIFY_DONE:
		return on_verify_done(m);
	case EV_LAUNCH_DONE:
		return on_launch_done(m, e->index);
	case EV_POP_RETRY:
		if (e->arg != m->retry_at)
			return true; /* an earlier retry replaced it */
		m->retry_at = 0;
		return pump(m);
	case EV_TICK:
		return on_tick(m);
	case EV_VISIBLE:
		m->seen = (uint32_t)e->arg;
		return true;
	case EV_SAMPLE:
	default:
		return on_sample(m);
	}
}

static uint32_t uniform(void *user, uint32_t upper)
{
	return seeded_rng_below(user, upper);
}

static bool setup(sim *m, const sim_scenario *s, uint64_t seed,
		  const sim_budget *b, sim_result *r)
{
	memset(m, 0, sizeof *m);
	memset(r, 0, sizeof *r);
	m->s = s;
	m->r = r;
	m->max_live = b->max_live;
	m->max_events = b->max_events;
	seeded_rng_seed(&m->rng, seed);
	m->end = ns_of(s->duration_s);
	m->verify_ns = (uint64_t)llround(s->verify_cost_us * 1000.0);
	m->rend_ns = ns_of(s->rend_s);
	m->clients_free = m->reqs_free = NONE;
	for (int c = 0; c < SIM_CLASSES; c++) {
		r->cls[c].hist = calloc(SIM_HIST_BUCKETS, sizeof(uint64_t));
		if (r->cls[c].hist == NULL)
			return false;
	}
	m->queue = equix_pow_queue_alloc(s->rate, s->burst, 0, on_discard, m);
	if (m->queue == NULL)
		return false;
	m->ctl = equix_pow_controller_alloc(m->queue, 0,
					    ns_of(s->period_s) / NS_PER_MS,
					    uniform, &m->rng);
	return m->ctl != NULL &&
	       equix_pow_queue_set_limits(m->queue, s->max_in_flight, 0, 0) ==
		       EQUIX_POW_OK;
}

static void start_sources(sim *m)
{
	const sim_scenario *s = m->s;

	if (s->client_rate > 0)
		schedule(m, ns_of(seeded_rng_exp(&m->rng) / s->client_rate),
			 EV_CLIENT_ARRIVAL, 0, 0);
	m->n_attackers = s->n_attackers;
	for (size_t k = 0; k < s->n_attackers; k++) {
		attacker_state *a = &m->att[k];
		a->p = &s->attackers[k];
		a->free_cores = a->p->cores;
		a->start_ns = ns_of(a->p->start_s);
		a->on_ns = ns_of(a->p->on_s);
		a->off_ns = ns_of(a->p->off_s);
		if (a->p->rate > 0)
			schedule(m, a->start_ns, EV_ATTACK_START, (uint32_t)k,
				 0);
	}
	schedule(m, NS_PER_S, EV_SAMPLE, 0, 0);
	schedule(m, ns_of(s->period_s), EV_TICK, 0, 0);
}

/* The queue's own counts must be the ones its callbacks reported. */
static void check_counts(sim *m)
{
	equix_pow_queue_stats st;
	const sim_class_result *c = m->r->cls;

	equix_pow_queue_stats_get(m->queue, &st);
	m->r->high_level = st.high_level;
	if (st.trimmed != c[0].trimmed + c[1].trimmed ||
	    st.expired != c[0].expired + c[1].expired ||
	    st.served != m->r->launches)
		broken(m, "the queue's counts differ from its callbacks'");
}

/* Processes the events due up to the end, until one fails or a budget
 * stops the run. */
static bool run_events(sim *m)
{
	bool ok = true;

	while (ok && !m->oom && !m->over_budget && m->heap_n > 0 &&
	       m->heap[0].t <= m->end) {
		event e;

		if (m->r->events == m->max_events) {
			m->over_events = true;
			m->now = m->heap[0].t; /* the event that did not run */
			break;
		}
		e = next_event(m);
		m->now = e.t;
		m->r->events++;
		ok = dispatch(m, &e);
	}
	return ok;
}

/* The one line of a run that a budget or the memory stopped; false
 * then. */
static bool report_stop(const sim *m)
{
	if (m->over_budget)
		return !cli_fail("pow simulate: at %.3f s, more than %zu events, "
				 "clients, requests and rows of time series "
				 "held at once (--max-live %zu)",
				 (double)m->now / 1e9, m->max_live,
				 m->max_live);
	if (m->over_events)
		return !cli_fail("pow simulate: at %.3f s, more than %llu "
				 "events processed (--max-events %llu)",
				 (double)m->now / 1e9,
				 (unsigned long long)m->max_events,
				 (unsigned long long)m->max_events);
	if (m->oom)
		return !cli_fail("pow simulate: out of memory");
	return true;
}

bool sim_run(const sim_scenario *s, uint64_t seed, const sim_budget *b,
	     sim_result *r)
{
	sim m;
	bool ok = setup(&m, s, seed, b, r);

	if (!ok) {
		cli_fail("pow simulate: out of memory");
	} else {
		start_sources(&m);
		ok = run_events(&m);
		check_counts(&m);
		ok = report_stop(&m) && ok;
	}
	equix_pow_controller_free(m.ctl);
	equix_pow_queue_free(m.queue);
	free(m.heap);
	free(m.verify_fifo.v);
	free(m.clients);
	free(m.reqs);
	return ok;
}

void sim_result_free(sim_result *r)
{
	free(r->seconds.rows);
	free(r->periods.rows);
	for (int c = 0; c < SIM_CLASSES; c++)
		free(r->cls[c].hist);
	memset(r, 0, sizeof *r);
}

double sim_quantile(const sim_class_result *c, double q)
{
	uint64_t total = 0, want, sum = 0;

	for (size_t b = 0; b < SIM_HIST_BUCKETS; b++)
		total += c->hist[b];
	if (total == 0)
		return 0;
	want = (uint64_t)ceil(q * (double)total);
	if (want == 0)
		want = 1;
	for (size_t b = 0; b < SIM_HIST_BUCKETS; b++) {
		sum += c->hist[b];
		if (sum >= want)
			return (double)(b + 1) * SIM_HIST_STEP_MS / 1000.0;
	}
	return (double)SIM_HIST_BUCKETS * SIM_HIST_STEP_MS / 1000.0;
}

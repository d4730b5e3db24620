/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim.h - "pow simulate": a discrete-event simulation, in simulated time,
 * of one onion service under attack, driving libequix's real request
 * queue and effort controller (equix_pow_queue_*, equix_pow_controller_*).
 * doc/defence.md section 3 describes the model.
 *
 * The parts: the scenario (its parameters, the built-in ones and the JSON
 * file format, sim_scenario.c), the engine (sim_engine.c), the reports
 * (sim_report.c: CSV, JSON, HTML with SVG plots), and one whole run
 * (sim_run.c: this machine measured, the engine, the reports). They are
 * libsim (tools/sim/README.md); equix-cli's command (src/cli/
 * cmd_pow_simulate.c) reads the options and calls sim_main(). Messages,
 * number parsing and the clock are the CLI's (args.h, output.h, clock.h,
 * in tools/common), so that the simulator says everything as equix-cli
 * does.
 */
#ifndef EQUIX_TOOLS_SIM_H
#define EQUIX_TOOLS_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- The scenario ---------------------------------------------------- */

#define SIM_MAX_ATTACKERS 4

/* How an attacker picks the effort of each proof it starts. */
typedef enum sim_strategy {
	SIM_FLOOD,   /* effort 0: no proof at all */
	SIM_FIXED,   /* a fixed effort */
	SIM_MATCH,   /* the published suggested effort */
	SIM_ABOVE,   /* just above it: published + max(1, published / 10) */
} sim_strategy;

typedef struct sim_attacker {
	sim_strategy strategy;
	double rate;     /* requests per second at most */
	uint32_t cores;  /* solving cores (proofs of effort > 0) */
	double cpu;      /* each core's speed, a multiple of this machine's */
	uint32_t effort; /* SIM_FIXED's effort */
	double start_s;  /* the attack begins */
	double on_s;     /* then attacks on_s, pauses off_s, ... */
	double off_s;    /* 0: never pauses */
} sim_attacker;

typedef struct sim_scenario {
	char name[64];
	char description[200];
	double duration_s;
	/* The service. */
	uint32_t rate, burst;     /* the token bucket (rate 0: no limit) */
	uint32_t max_in_flight;   /* the in-flight limit */
	double rend_s;            /* a launch's time in flight */
	double verify_cost_us;    /* per proof; 0: measure */
	double period_s;          /* the controller's update period */
	double publish_delay_s;   /* until clients see a new descriptor */
	/* This machine. */
	double solve_rate;          /* nonces per second per core; 0: measure */
	double solutions_per_nonce; /* Equi-X solutions per nonce; 0: measure */
	/* The legitimate clients. */
	double client_rate;   /* new clients per second */
	double client_cpu;    /* their speed, a multiple of this machine's */
	double patience_s;    /* from the first attempt, then they give up */
	size_t n_attackers;
	sim_attacker attackers[SIM_MAX_ATTACKERS];
} sim_scenario;

/* The defaults: Tor's service settings, no attacker. */
void sim_scenario_defaults(sim_scenario *s);
/* The built-in scenario `name`; false when there is none. */
bool sim_scenario_builtin(const char *name, sim_scenario *s);
/* Prints the built-in scenarios' names and descriptions; false when the
 * output failed. */
bool sim_scenario_list(void);
/* Reads a scenario file (format in doc/defence.md section 3) over the
 * defaults. On error, prints one line "pow simulate: FILE: ..." (with the
 * line number for a JSON syntax error) and returns false. */
bool sim_scenario_load(const char *path, sim_scenario *s);
/* Checks the values' ranges; false after one line on stderr. */
bool sim_scenario_check(const sim_scenario *s);
/* The scenario as a file that sim_scenario_load() reads back to the same
 * values: a string to free(), or NULL when out of memory. */
char *sim_scenario_dump(const sim_scenario *s);
/* Sets the value of the command-line option --`option` (for an attacker's
 * value, every attacker's) from `text`, with the file's range for it;
 * false after one line on stderr. */
bool sim_scenario_override(sim_scenario *s, const char *option,
			   const char *text);
/* The scenario as a jansson object (NULL when out of memory): the file's
 * content, and part of the --json report. */
struct json_t *sim_scenario_json(const sim_scenario *s);
/* The keys of a scenario file, as a few lines of text for --help: from
 * the tables that read the file. */
void sim_scenario_keys(FILE *f);
/* "flood", "fixed", "match", "above"; and back (false: unknown). */
const char *sim_strategy_name(sim_strategy strategy);
bool sim_strategy_parse(const char *text, sim_strategy *out);

/* ---- The results ----------------------------------------------------- */

enum { SIM_LEGIT = 0, SIM_ATTACK = 1, SIM_CLASSES = 2 };

/* One row of a time series: a second, or an update period. Counts are
 * over the row's interval; efforts and the queue's length at its end. */
typedef struct sim_row {
	double t_s;
	uint32_t suggested;  /* the controller's suggested effort */
	uint32_t published;  /* in the service's latest descriptor */
	uint32_t seen;       /* what clients see (after the delay) */
	uint32_t queue;      /* requests queued */
	uint32_t trimmed, expired;
	uint32_t served[SIM_CLASSES];
	uint32_t arrivals[SIM_CLASSES]; /* requests reaching the service */
} sim_row;

typedef struct sim_series {
	sim_row *rows;
	size_t n, cap;
} sim_series;

/* The histogram of times to connect: SIM_HIST_STEP_MS buckets up to
 * SIM_HIST_BUCKETS of them (the last one holds everything longer). */
#define SIM_HIST_STEP_MS 10
#define SIM_HIST_BUCKETS 360000

typedef struct sim_class_result {
	uint64_t started;   /* clients (legit) or requests sent (attack) */
	uint64_t succeeded; /* connected (legit) or launches completed */
	uint64_t failed;    /* gave up (legit only) */
	uint64_t requests;  /* requests sent, retries included */
	uint64_t trimmed, expired;
	double cpu_s;       /* solving time spent */
	uint64_t *hist;     /* times to connect */
} sim_class_result;

typedef struct sim_result {
	sim_series seconds, periods;
	sim_class_result cls[SIM_CLASSES];
	uint64_t events;      /* events processed */
	uint64_t launches;    /* requests served */
	uint32_t max_queue;   /* the longest queue seen */
	uint32_t high_level;  /* the queue's high level */
	uint32_t max_window;  /* most launches in one second */
	char invariant[200];  /* the first broken invariant, or "" */
} sim_result;

/* The time to connect at quantile q (0 to 1) of class `c`, in seconds:
 * the upper edge of the bucket holding it; 0 when there is no success. */
double sim_quantile(const sim_class_result *c, double q);

/* The budgets of a run. max_live (--max-live): the events, clients and
 * requests alive at once, with the rows of the time series (one per
 * simulated second and per update period). Each takes at most about 150
 * bytes, with the pools' doubling and the library's queue, so the default
 * bounds a run's memory to about 150 MB; the maximum keeps every pool's
 * indices in 32 bits. max_events (--max-events): the events processed,
 * which bound a run's time as max_live bounds its memory (an event's
 * work is bounded: a pop's launches and a trim's discards each bring
 * events of their own). The default took 9 to 34 s of CPU on the EPYC
 * Zen 5 of doc/defence.md (section 3.1), so about a minute on a core half
 * as fast, and still covers the longest run documented there (a
 * simulated day at 1,000 requests a second: 88.3 million events). */
typedef struct sim_budget {
	size_t max_live;
	uint64_t max_events;
} sim_budget;

#define SIM_MAX_LIVE_DEFAULT 1000000
#define SIM_MAX_LIVE_MIN 1000
#define SIM_MAX_LIVE_MAX 100000000
#define SIM_MAX_EVENTS_DEFAULT UINT64_C(100000000)
#define SIM_MAX_EVENTS_MIN UINT64_C(1000)
#define SIM_MAX_EVENTS_MAX UINT64_C(1000000000000)

/* Runs the scenario (its solve rate, solutions per nonce and
 * verification cost must be set) from `seed`, within the budget `b`.
 * Returns false when the budget is not enough, when out of memory or
 * when the library refused a call (one line on stderr); a broken
 * invariant is not an error here: it is in result->invariant. */
bool sim_run(const sim_scenario *s, uint64_t seed, const sim_budget *b,
	     sim_result *result);
void sim_result_free(sim_result *result);

/* ---- The reports (each false when the file could not be written,
 * after one line on stderr) ---------------------------------------- */

bool sim_write_csv(const char *path, const sim_scenario *s, uint64_t seed,
		   const sim_result *r);
bool sim_write_json(const char *path, const sim_scenario *s, uint64_t seed,
		    const sim_result *r);
bool sim_write_html(const char *path, const sim_scenario *s, uint64_t seed,
		    const sim_result *r);
/* PREFIX-effort.svg and PREFIX-traffic.svg, for doc/defence.md. */
bool sim_write_svgs(const char *prefix, const sim_scenario *s,
		    const sim_result *r);
/* The per-class summary on stdout. */
bool sim_print_summary(const sim_scenario *s, uint64_t seed,
		       const sim_result *r);

/* ---- One run ----------------------------------------------------------- */

/* The files a run writes (NULL: not written), and whether it reports
 * its events, wall time, events per second and budget of events on
 * stderr. */
typedef struct sim_outputs {
	const char *csv, *json, *html, *svg;
	bool stats;
} sim_outputs;

/* Measures on this machine what `s` leaves at 0 (solve rate, solutions
 * per nonce, verification cost: real equix_solve and equix_verify
 * calls) and stores it in `s`, runs the model (sim_run) within `b`,
 * writes the reports `o` asks for and the summary. False after one line on stderr
 * when any of that failed or an invariant broke. */
bool sim_main(sim_scenario *s, uint64_t seed, const sim_budget *b,
	      const sim_outputs *o);

#endif /* EQUIX_TOOLS_SIM_H */

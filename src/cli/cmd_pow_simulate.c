/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_pow_simulate.c - "pow simulate": the command, its options and their
 * checks. The simulator itself (the measurements of this machine, the
 * model, the scenarios, the reports) is tools/sim/ (see sim.h), a library
 * of its own; this file reads the options into a scenario and calls
 * sim_main().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "output.h"
#include "sim.h"

enum {
	OPT_SCENARIO = 256,
	OPT_LIST,
	OPT_PRINT,
	OPT_DURATION,
	OPT_SEED,
	OPT_CSV,
	OPT_JSON,
	OPT_HTML,
	OPT_SVG,
	OPT_STATS,
	OPT_MAX_LIVE,
	OPT_MAX_EVENTS,
	OPT_STRATEGY,
	OPT_OVERRIDE, /* the options of sim_scenario_override() */
};

/* clang-format off */
static const char help[] =
"usage: equix-cli pow simulate [--scenario NAME|FILE] [OPTIONS]\n"
"Simulates one onion service under attack, in simulated time, with\n"
"libequix's request queue and suggested-effort controller, and prints\n"
"the results per class (legitimate clients, attackers).\n"
"\n"
"  --scenario NAME|FILE  a built-in scenario (default no-attack) or a\n"
"                        JSON scenario file (doc/defence.md section 3):\n"
"                        {\"name\", \"description\", \"duration_s\",\n"
"                         \"service\": {rate, burst, max_in_flight, rend_s,\n"
"                           verify_cost_us, period_s, publish_delay_s},\n"
"                         \"machine\": {solve_rate, solutions_per_nonce},\n"
"                         \"clients\": {rate, cpu, patience_s},\n"
"                         \"attackers\": [{strategy: flood|fixed|match|\n"
"                           above, rate, cores, cpu, effort, start_s,\n"
"                           on_s, off_s}]}   every key optional\n"
"  --list-scenarios      list the built-in scenarios (no other option)\n"
"  --print-scenario      print the scenario as a file, with the options\n"
"                        applied, and stop (not with --seed, --csv,\n"
"                        --json, --html, --svg, --stats, --max-live,\n"
"                        --max-events)\n"
"  --duration SECONDS    simulated time (1 to 10000000)\n"
"  --seed N              the random seed (default 1): the same seed and\n"
"                        parameters give the same output, byte for byte\n"
"  --csv FILE            time series and results as CSV\n"
"  --json FILE           the same as JSON\n"
"  --html FILE           a report with SVG plots\n"
"  --svg PREFIX          PREFIX-effort.svg, PREFIX-traffic.svg and\n"
"                        PREFIX-connect.svg\n"
"  --stats               events, wall time, events per second and\n"
"                        --max-events on stderr\n"
"  --max-live N          stop, with status 1, when more than N events,\n"
"                        clients and requests are alive at once (1000 to\n"
"                        100000000, default 1000000: about 150 MB)\n"
"  --max-events N        stop, with status 1, when the run needs more\n"
"                        than N events (1000 to 1000000000000, default\n"
"                        100000000: 10 to 35 s of CPU on a recent core)\n"
"Service: --rate N (launches/s, 0: no limit), --burst N, --in-flight N,\n"
"  --rend-time SECONDS (a launch in flight), --period SECONDS (update\n"
"  period), --publish-delay SECONDS, --verify-cost-us US (0: measure)\n"
"Machine: --solve-rate NONCES_PER_S (0: measure), --solutions-per-nonce M\n"
"  (0: measure)\n"
"Clients: --client-rate PER_S, --client-cpu MULTIPLE, --patience SECONDS\n"
"Attackers (each of the scenario's): --attack-rate PER_S, --attack-cores N,\n"
"  --attack-effort E, --attack-strategy flood|fixed|match|above\n"
"  -h, --help            show this help\n"
"\n"
"An option whose value would not be used (--burst with --rate 0, say) is\n"
"a usage error.\n"
"Exit status: 0 done, 1 an invariant broke, the run went over --max-live\n"
"or --max-events or a file could not be written, 2 usage error or a bad\n"
"scenario file.\n";
/* clang-format on */

/* The overriding options, in the order they are applied. */
static const char *const override_names[] = {
	"duration",    "rate",       "burst",          "in-flight",
	"rend-time",   "period",     "publish-delay",  "verify-cost-us",
	"solve-rate",  "solutions-per-nonce",          "client-rate",
	"client-cpu",  "patience",   "attack-rate",    "attack-cores",
	"attack-effort",
};
#define N_OVERRIDES (sizeof override_names / sizeof override_names[0])

static const struct option options[] = {
	{"scenario", required_argument, NULL, OPT_SCENARIO},
	{"list-scenarios", no_argument, NULL, OPT_LIST},
	{"print-scenario", no_argument, NULL, OPT_PRINT},
	{"seed", required_argument, NULL, OPT_SEED},
	{"csv", required_argument, NULL, OPT_CSV},
	{"json", required_argument, NULL, OPT_JSON},
	{"html", required_argument, NULL, OPT_HTML},
	{"svg", required_argument, NULL, OPT_SVG},
	{"stats", no_argument, NULL, OPT_STATS},
	{"max-live", required_argument, NULL, OPT_MAX_LIVE},
	{"max-events", required_argument, NULL, OPT_MAX_EVENTS},
	{"attack-strategy", required_argument, NULL, OPT_STRATEGY},
	{"duration", required_argument, NULL, OPT_OVERRIDE + 0},
	{"rate", required_argument, NULL, OPT_OVERRIDE + 1},
	{"burst", required_argument, NULL, OPT_OVERRIDE + 2},
	{"in-flight", required_argument, NULL, OPT_OVERRIDE + 3},
	{"rend-time", required_argument, NULL, OPT_OVERRIDE + 4},
	{"period", required_argument, NULL, OPT_OVERRIDE + 5},
	{"publish-delay", required_argument, NULL, OPT_OVERRIDE + 6},
	{"verify-cost-us", required_argument, NULL, OPT_OVERRIDE + 7},
	{"solve-rate", required_argument, NULL, OPT_OVERRIDE + 8},
	{"solutions-per-nonce", required_argument, NULL, OPT_OVERRIDE + 9},
	{"client-rate", required_argument, NULL, OPT_OVERRIDE + 10},
	{"client-cpu", required_argument, NULL, OPT_OVERRIDE + 11},
	{"patience", required_argument, NULL, OPT_OVERRIDE + 12},
	{"attack-rate", required_argument, NULL, OPT_OVERRIDE + 13},
	{"attack-cores", required_argument, NULL, OPT_OVERRIDE + 14},
	{"attack-effort", required_argument, NULL, OPT_OVERRIDE + 15},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* The option texts, checked after the scan so that --help wins. */
typedef struct sim_text {
	const char *scenario, *seed, *csv, *json, *html, *svg, *strategy;
	const char *max_live, *max_events;
	const char *overrides[N_OVERRIDES];
	int list, print, stats, help;
} sim_text;

static bool scan(int argc, char **argv, sim_text *t)
{
	cli_options opts;
	int c;

	memset(t, 0, sizeof *t);
	cli_options_begin(&opts, ":h", options);
	while ((c = cli_next_option(&opts, argc, argv)) != -1) {
		if (c >= OPT_OVERRIDE &&
		    c < OPT_OVERRIDE + (int)N_OVERRIDES) {
			t->overrides[c - OPT_OVERRIDE] = optarg;
			continue;
		}
		switch (c) {
		case OPT_SCENARIO: t->scenario = optarg; break;
		case OPT_LIST: t->list = 1; break;
		case OPT_PRINT: t->print = 1; break;
		case OPT_SEED: t->seed = optarg; break;
		case OPT_CSV: t->csv = optarg; break;
		case OPT_JSON: t->json = optarg; break;
		case OPT_HTML: t->html = optarg; break;
		case OPT_SVG: t->svg = optarg; break;
		case OPT_STATS: t->stats = 1; break;
		case OPT_MAX_LIVE: t->max_live = optarg; break;
		case OPT_MAX_EVENTS: t->max_events = optarg; break;
		case OPT_STRATEGY: t->strategy = optarg; break;
		case 'h': t->help = 1; break;
		default: return false;
		}
	}
	return t->help ||
	       cli_check_operands(argc, argv, optind, 0, 0, "no operands");
}

/* ---- Options that would be ignored ------------------------------------ */

/* The options that only a run uses. */
static bool has_run_options(const sim_text *t)
{
	return t->seed || t->csv || t->json || t->html || t->svg ||
	       t->stats || t->max_live || t->max_events;
}

static bool has_scenario_options(const sim_text *t)
{
	for (size_t i = 0; i < N_OVERRIDES; i++)
		if (t->overrides[i] != NULL)
			return true;
	return t->scenario || t->strategy;
}

/* An option that would be ignored is a usage error, as a repeated one
 * is, so that no value given is silently dropped: --list-scenarios takes
 * no other, --print-scenario none of the run's. */
static bool check_modes(const sim_text *t)
{
	if (t->list && (t->print || has_run_options(t) ||
			has_scenario_options(t)))
		return !cli_usage_error("pow simulate: --list-scenarios takes "
					"no other option");
	if (t->print && has_run_options(t))
		return !cli_usage_error("pow simulate: --print-scenario "
					"excludes --seed, --csv, --json, "
					"--html, --svg, --stats, --max-live "
					"and --max-events");
	return true;
}

/* Why the model never reads the value that --`option` set in the
 * scenario `s` (the options applied), or NULL when it may. A scenario
 * without attackers is refused before (sim_scenario_override). */
static const char *unused_because(const sim_scenario *s, const char *option)
{
	bool attacks = false, solves = false, fixed = false;

	for (size_t i = 0; i < s->n_attackers; i++) {
		const sim_attacker *a = &s->attackers[i];
		if (a->rate == 0)
			continue;
		attacks = true;
		solves = solves || a->strategy != SIM_FLOOD;
		fixed = fixed || a->strategy == SIM_FIXED;
	}
	if (strcmp(option, "burst") == 0)
		return s->rate == 0 ? "its rate is 0 (no limit)" : NULL;
	if (strcmp(option, "client-cpu") == 0 ||
	    strcmp(option, "patience") == 0)
		return s->client_rate == 0 ? "its client rate is 0" : NULL;
	if (strncmp(option, "attack-", 7) != 0 ||
	    strcmp(option, "attack-rate") == 0 || s->n_attackers == 0)
		return NULL;
	if (!attacks)
		return "its attackers' rate is 0";
	if (strcmp(option, "attack-cores") == 0 && !solves)
		return "every attacker floods (effort 0, no proofs)";
	if (strcmp(option, "attack-effort") == 0 && !fixed)
		return "no attacker has a fixed effort (--attack-strategy "
		       "fixed)";
	return NULL;
}

static bool check_unused(const sim_text *t, const sim_scenario *s)
{
	const char *why;

	for (size_t i = 0; i < N_OVERRIDES; i++) {
		if (t->overrides[i] == NULL ||
		    (why = unused_because(s, override_names[i])) == NULL)
			continue;
		return !cli_usage_error("--%s: no effect on scenario '%s': %s",
					override_names[i],
					cli_quote(s->name).text, why);
	}
	if (t->strategy != NULL &&
	    (why = unused_because(s, "attack-strategy")) != NULL)
		return !cli_usage_error("--attack-strategy: no effect on "
					"scenario '%s': %s",
					cli_quote(s->name).text, why);
	return true;
}

/* ---- The scenario ------------------------------------------------------ */

/* A built-in name, else a file (a name with '/' or '.' is a file). */
static bool load_scenario(const char *text, sim_scenario *s)
{
	if (text == NULL)
		return sim_scenario_builtin("no-attack", s);
	if (sim_scenario_builtin(text, s))
		return true;
	if (strchr(text, '/') == NULL && strchr(text, '.') == NULL) {
		cli_usage_error("pow simulate: --scenario: unknown scenario "
				"'%s' (see --list-scenarios)",
				cli_quote(text).text);
		return false;
	}
	return sim_scenario_load(text, s);
}

static bool apply_options(const sim_text *t, sim_scenario *s)
{
	sim_strategy strategy;

	for (size_t i = 0; i < N_OVERRIDES; i++)
		if (t->overrides[i] != NULL &&
		    !sim_scenario_override(s, override_names[i],
					   t->overrides[i]))
			return false;
	if (t->strategy == NULL)
		return true;
	if (!sim_strategy_parse(t->strategy, &strategy)) {
		cli_usage_error("--attack-strategy: expected flood, fixed, "
				"match or above, got '%s'",
				cli_quote(t->strategy).text);
		return false;
	}
	if (s->n_attackers == 0) {
		cli_usage_error("--attack-strategy: scenario '%s' has no "
				"attacker",
				cli_quote(s->name).text);
		return false;
	}
	for (size_t i = 0; i < s->n_attackers; i++)
		s->attackers[i].strategy = strategy;
	return true;
}

/* ---- The command ------------------------------------------------------- */

static int print_scenario(const sim_scenario *s)
{
	char *text = sim_scenario_dump(s);
	bool ok;

	if (text == NULL)
		return cli_fail("pow simulate: out of memory");
	ok = cli_printf("%s\n", text);
	free(text);
	return ok ? CLI_OK : CLI_FAIL;
}

/* The budgets (--max-live, --max-events), the defaults where not given;
 * false after one line. */
static bool parse_budget(const sim_text *t, sim_budget *b)
{
	uint64_t max_live = SIM_MAX_LIVE_DEFAULT;

	b->max_events = SIM_MAX_EVENTS_DEFAULT;
	if ((t->max_live != NULL &&
	     !cli_parse_uint("--max-live", t->max_live, SIM_MAX_LIVE_MIN,
			     SIM_MAX_LIVE_MAX, &max_live)) ||
	    (t->max_events != NULL &&
	     !cli_parse_uint("--max-events", t->max_events,
			     SIM_MAX_EVENTS_MIN, SIM_MAX_EVENTS_MAX,
			     &b->max_events)))
		return false;
	b->max_live = (size_t)max_live;
	return true;
}

int cmd_pow_simulate(int argc, char **argv)
{
	sim_text t;
	sim_scenario s;
	sim_budget budget;
	uint64_t seed = 1;

	if (!scan(argc, argv, &t))
		return CLI_USAGE;
	if (t.help)
		return cli_printf("%s", help) ? CLI_OK : CLI_FAIL;
	if (!check_modes(&t))
		return CLI_USAGE;
	if (t.list)
		return sim_scenario_list() ? CLI_OK : CLI_FAIL;
	if (!load_scenario(t.scenario, &s) || !apply_options(&t, &s) ||
	    !check_unused(&t, &s) || !sim_scenario_check(&s) ||
	    (t.seed != NULL && !cli_parse_u64("--seed", t.seed, &seed)) ||
	    !parse_budget(&t, &budget))
		return CLI_USAGE;
	if (t.print)
		return print_scenario(&s);
	return sim_main(&s, seed, &budget,
			&(sim_outputs){t.csv, t.json, t.html, t.svg,
				       t.stats != 0})
		       ? CLI_OK
		       : CLI_FAIL;
}

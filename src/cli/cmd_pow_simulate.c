/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_pow_simulate.c - "pow simulate": the command, its options and their
 * checks. The simulator itself (the measurements of this machine, the
 * model, the scenarios, the reports) is tools/sim/ (see sim.h), a library
 * of its own; this file reads the options into a scenario and calls
 * sim_main().
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "output.h"
#include "sim.h"

/* The number of overriding options: the rows of kind OVERRIDE. */
#define N_OVERRIDES 16

/* The option texts, checked after the scan so that --help wins. */
typedef struct sim_text {
	const char *scenario, *seed, *csv, *json, *html, *svg, *strategy;
	const char *max_live, *max_events;
	const char *overrides[N_OVERRIDES];
	int list, print, stats, help;
} sim_text;

/* The options that set a value of the scenario (sim_scenario_override()
 * knows them by name), applied in the table's order. */
enum { OVERRIDE = TOOL_OPT_OWN };

#define F(m) .field = offsetof(sim_text, m)
#define O(i)                                                               \
	OVERRIDE, .field = offsetof(sim_text, overrides) + (i) * sizeof(char *)

/* clang-format off */
static const tool_option options[] = {
	{"scenario", "NAME|FILE", "a built-in scenario (default no-attack) or a\n"
				  "JSON scenario file (below)", TOOL_OPT_TEXT,
	 F(scenario)},
	{"list-scenarios", NULL, "list the built-in scenarios (no other option)",
	 TOOL_OPT_FLAG, F(list)},
	{"print-scenario", NULL, "print the scenario as a file, with the options\n"
				 "applied, and stop (not with --seed, --csv,\n"
				 "--json, --html, --svg, --stats, --max-live,\n"
				 "--max-events)", TOOL_OPT_FLAG, F(print)},
	{"duration", "SECONDS", "simulated time (1 to 10000000)", O(0)},
	{"seed", "N", "the random seed (default 1): the same seed and\n"
		      "parameters give the same output, byte for byte",
	 TOOL_OPT_TEXT, F(seed)},
	{"csv", "FILE", "time series and results as CSV", TOOL_OPT_TEXT,
	 F(csv)},
	{"json", "FILE", "the same as JSON (one object)", TOOL_OPT_TEXT,
	 F(json)},
	{"html", "FILE", "a report with SVG plots", TOOL_OPT_TEXT, F(html)},
	{"svg", "PREFIX", "PREFIX-effort.svg, PREFIX-traffic.svg and\n"
			  "PREFIX-connect.svg", TOOL_OPT_TEXT, F(svg)},
	{"stats", NULL, "events, wall time, events per second and\n"
			"--max-events on stderr", TOOL_OPT_FLAG, F(stats)},
	{"max-live", "N", "stop, with status 1, when more than N events,\n"
			  "clients and requests are alive at once (1000 to\n"
			  "100000000, default 1000000: about 150 MB)",
	 TOOL_OPT_TEXT, F(max_live)},
	{"max-events", "N", "stop, with status 1, when the run needs more\n"
			    "than N events (1000 to 1000000000000, default\n"
			    "100000000: 10 to 35 s of CPU on a recent core)",
	 TOOL_OPT_TEXT, F(max_events)},
	{"rate", "N", "service: launches per second (0: no limit)", O(1)},
	{"burst", "N", "service: the launches' burst", O(2)},
	{"in-flight", "N", "service: launches in flight at most", O(3)},
	{"rend-time", "SECONDS", "service: the time of a launch in flight", O(4)},
	{"period", "SECONDS", "service: the update period", O(5)},
	{"publish-delay", "SECONDS", "service: the delay of a published effort",
	 O(6)},
	{"verify-cost-us", "US", "service: one verification (0: measure)", O(7)},
	{"solve-rate", "NONCES_PER_S", "machine: nonces per second and core\n"
				       "(0: measure)", O(8)},
	{"solutions-per-nonce", "M", "machine: Equi-X solutions per nonce\n"
				     "(0: measure)", O(9)},
	{"client-rate", "PER_S", "clients: arrivals per second", O(10)},
	{"client-cpu", "MULTIPLE", "clients: their CPU, in this machine's",
	 O(11)},
	{"patience", "SECONDS", "clients: how long they wait", O(12)},
	{"attack-rate", "PER_S", "each attacker: requests per second", O(13)},
	{"attack-cores", "N", "each attacker: cores solving", O(14)},
	{"attack-effort", "E", "each attacker: its effort, when fixed", O(15)},
	{"attack-strategy", "STRATEGY", "each attacker: flood, fixed, match or\n"
					"above (how it picks its effort)",
	 TOOL_OPT_TEXT, F(strategy)},
	CLI_HELP_OPTION(sim_text),
};

const tool_command cli_pow_simulate_command = {
	"pow simulate", "[--scenario NAME|FILE] ...",
	"simulate a service's defence under attack", TOOL_OPTIONS(options), 0,
"usage: equix-cli pow simulate [--scenario NAME|FILE] [OPTIONS]\n"
"Simulates one onion service under attack, in simulated time, with\n"
"libequix's request queue and suggested-effort controller, and prints\n"
"the results per class (legitimate clients, attackers).\n"
"\n",
"\n"
"An option whose value would not be used (--burst with --rate 0, say) is\n"
"a usage error.\n"
"Exit status: 0 done, 1 an invariant broke, the run went over --max-live\n"
"or --max-events or a file could not be written, 2 usage error or a bad\n"
"scenario file.\n",
};
/* clang-format on */

#define N_OPTIONS (sizeof options / sizeof options[0])

/* The value of the OVERRIDE row `o` in `t`. */
static const char *override_value(const sim_text *t, const tool_option *o)
{
	return *(const char *const *)((const char *)t + o->field);
}

static bool scan(int argc, char **argv, sim_text *t)
{
	memset(t, 0, sizeof *t);
	if (!cli_scan(&cli_pow_simulate_command, argc, argv, t))
		return false;
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

	for (size_t i = 0; i < N_OPTIONS; i++) {
		const tool_option *o = &options[i];

		if (o->kind != OVERRIDE || override_value(t, o) == NULL ||
		    (why = unused_because(s, o->name)) == NULL)
			continue;
		return !cli_usage_error("--%s: no effect on scenario '%s': %s",
					o->name, cli_quote(s->name).text, why);
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

	for (size_t i = 0; i < N_OPTIONS; i++)
		if (options[i].kind == OVERRIDE &&
		    override_value(t, &options[i]) != NULL &&
		    !sim_scenario_override(s, options[i].name,
					   override_value(t, &options[i])))
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
		return cli_print_help_with(&cli_pow_simulate_command,
					   sim_scenario_keys);
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

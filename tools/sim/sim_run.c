/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_run.c - one run of "pow simulate" (sim.h): what the scenario leaves
 * at 0 measured on this machine (real equix_solve and equix_verify
 * calls), the model run, its reports written.
 */
#include <stdio.h>
#include <string.h>

#include <equix.h>
#include <equix_pow.h>

#include "args.h"
#include "clock.h"
#include "sim.h"

/* ---- Measuring this machine ------------------------------------------ */

/* Nonces measured: a fixed count, so that the solutions per nonce (a
 * count of real solutions of fixed challenges) are the same every run. */
#define MEASURE_NONCES 64

typedef struct found {
	uint8_t challenge[EQUIX_POW_CHALLENGE_LEN];
	equix_solution sol;
} found;

/* Solves MEASURE_NONCES Tor-shaped challenges (the nonce counting up);
 * keeps up to `max` of the solutions for the verification timing. */
static bool measure_solve(sim_scenario *s, found *keep, size_t max,
			  size_t *kept)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);
	uint8_t challenge[EQUIX_POW_CHALLENGE_LEN] = {0};
	equix_solutions_buffer out;
	unsigned total = 0;
	double start = cli_now();

	if (ctx == NULL)
		return !cli_fail("pow simulate: out of memory");
	*kept = 0;
	for (int i = 0; i < MEASURE_NONCES; i++) {
		equix_pow_nonce_add(challenge + EQUIX_POW_NONCE_OFFSET, 1);
		if (equix_solve(ctx, challenge, sizeof challenge, &out) !=
		    EQUIX_OK)
			out.count = 0;
		total += out.count;
		for (unsigned k = 0; k < out.count && *kept < max; k++) {
			memcpy(keep[*kept].challenge, challenge,
			       sizeof challenge);
			keep[(*kept)++].sol = out.sols[k];
		}
	}
	if (s->solve_rate == 0)
		s->solve_rate = MEASURE_NONCES / (cli_now() - start);
	if (s->solutions_per_nonce == 0)
		s->solutions_per_nonce = (double)total / MEASURE_NONCES;
	equix_free(ctx);
	return true;
}

/* Each check makes the challenge's HashX program, as a service does for
 * each proof. */
static bool measure_verify(sim_scenario *s, const found *keep, size_t n)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_VERIFY | EQUIX_CTX_TRY_COMPILE);
	double start = cli_now();
	size_t checks = 0;

	if (ctx == NULL)
		return !cli_fail("pow simulate: out of memory");
	do {
		for (size_t i = 0; i < n; i++, checks++)
			(void)equix_verify(ctx, keep[i].challenge,
					   EQUIX_POW_CHALLENGE_LEN,
					   &keep[i].sol);
	} while (n > 0 && cli_now() - start < 0.05);
	if (checks > 0)
		s->verify_cost_us = (cli_now() - start) * 1e6 / (double)checks;
	equix_free(ctx);
	return true;
}

static bool measure(sim_scenario *s)
{
	static found keep[MEASURE_NONCES];
	size_t kept = 0;

	if ((s->solve_rate == 0 || s->solutions_per_nonce == 0 ||
	     s->verify_cost_us == 0) &&
	    !measure_solve(s, keep, MEASURE_NONCES, &kept))
		return false;
	if (s->verify_cost_us == 0 && !measure_verify(s, keep, kept))
		return false;
	if (s->solutions_per_nonce == 0)
		return !cli_fail("pow simulate: the solver found no solution "
				 "to measure");
	return true;
}

/* ---- The run ----------------------------------------------------------- */

static bool write_reports(const sim_outputs *o, const sim_scenario *s,
			  uint64_t seed, const sim_result *r)
{
	bool ok = true;

	if (o->csv != NULL)
		ok = sim_write_csv(o->csv, s, seed, r) && ok;
	if (o->json != NULL)
		ok = sim_write_json(o->json, s, seed, r) && ok;
	if (o->html != NULL)
		ok = sim_write_html(o->html, s, seed, r) && ok;
	if (o->svg != NULL)
		ok = sim_write_svgs(o->svg, s, r) && ok;
	return sim_print_summary(s, seed, r) && ok;
}

/* The --stats line: the events the budget counts, with the budget. */
static void print_stats(const sim_result *r, const sim_budget *b, double wall)
{
	fprintf(stderr,
		"equix-cli: pow simulate: %llu events in %.3f s, %.0f events/s "
		"(--max-events %llu)\n",
		(unsigned long long)r->events, wall,
		wall > 0 ? (double)r->events / wall : 0.0,
		(unsigned long long)b->max_events);
}

bool sim_main(sim_scenario *s, uint64_t seed, const sim_budget *b,
	      const sim_outputs *o)
{
	sim_result r;
	double start;
	bool ok;

	if (!measure(s))
		return false;
	start = cli_now();
	if (!sim_run(s, seed, b, &r)) {
		sim_result_free(&r);
		return false;
	}
	if (o->stats)
		print_stats(&r, b, cli_now() - start);
	ok = write_reports(o, s, seed, &r);
	if (r.invariant[0] != '\0') {
		cli_fail("pow simulate: invariant broken %s", r.invariant);
		ok = false;
	}
	sim_result_free(&r);
	return ok;
}

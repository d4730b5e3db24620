/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * equix-bench - the benchmark harness: Criterion.rs's method in C.
 *
 * Each benchmark is first checked against the reference vectors, then
 * warmed up, sampled (iteration counts d, 2d, ..., n*d), analysed
 * (bench/stats.h), compared with a saved baseline, and reported on the
 * terminal, as JSON and as HTML. With --reference, a reference
 * libequix.so runs every benchmark too, right after this library's, as
 * NAME-ref, and the ratio of the two times is reported.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchmarks.h"
#include "benchutil.h"
#include "clock.h"
#include "dispatch.h"
#include "impl_list.h"
#include "json.h"
#include "library.h"
#include "options.h"
#include "record.h"
#include "report_html.h"
#include "report_text.h"
#include "stats.h"

/* The vectors were recorded with the reference salt. */
#define REFERENCE_SALT "HashX v1"

/* One benchmark on one library: libs[0] is this one, libs[1] the
 * reference. */
typedef struct job {
	const bench_def *def;
	size_t lib;
	char name[64]; /* def->name, with "-ref" for the reference */
	void *state;
	bench_status status;
	char msg[512];    /* why it is skipped */
	bench_record *rec; /* once ready */
} job;

typedef struct run {
	bench_options opt;
	FILE *text; /* the terminal report: stdout, stderr with --json */
	bench_vectors vectors;
	bench_library libs[2];
	size_t n_libs;
	job *jobs;
	size_t n_jobs;
	bench_record *records;
	size_t n_records;
} run;

static bool selected(const bench_options *o, const char *base, const char *full)
{
	return !o->has_filter || regexec(&o->filter, base, 0, NULL, 0) == 0 ||
	       regexec(&o->filter, full, 0, NULL, 0) == 0;
}

/* The jobs matching the filter: for each benchmark, this library's, then
 * the reference's. The filter is matched against the plain name and the
 * suffixed one, so a pair stays together. */
static int select_jobs(run *r)
{
	r->jobs = calloc(2 * n_bench_defs, sizeof *r->jobs);
	r->records = calloc(2 * n_bench_defs, sizeof *r->records);
	if (r->jobs == NULL || r->records == NULL)
		return -1;
	for (size_t d = 0; d < n_bench_defs; d++)
		for (size_t l = 0; l < r->n_libs; l++) {
			job *j = &r->jobs[r->n_jobs];

			if (l > 0 && bench_defs[d].ours_only)
				continue;
			snprintf(j->name, sizeof j->name, "%s%s",
				 bench_defs[d].name, l > 0 ? "-ref" : "");
			if (!selected(&r->opt, bench_defs[d].name, j->name))
				continue;
			j->def = &bench_defs[d];
			j->lib = l;
			r->n_jobs++;
		}
	return 0;
}

/* Sets up a job, which checks its outputs against the vectors; false when
 * they differ or the set-up failed. */
static bool prepare(run *r, job *j)
{
	char *msg = j->msg;

	snprintf(msg, sizeof j->msg, "set-up failed");
	j->status = j->def->setup(&r->libs[j->lib], &r->vectors,
				  j->def->param, &j->state, msg, sizeof j->msg);
	if (j->status == BENCH_SKIP)
		bench_report_skip(r->text, j->name, msg);
	else if (j->status == BENCH_WRONG)
		bench_error("%s: output differs from the reference vectors: "
			    "%s; not timed",
			    j->name, msg);
	else if (j->status == BENCH_ERROR)
		bench_error("%s: %s; not timed", j->name, msg);
	return j->status == BENCH_READY || j->status == BENCH_SKIP;
}

/* A record for a ready job, with its baseline; false when the baseline is
 * malformed. */
static bool add_record(run *r, job *j)
{
	bench_record *rec = j->rec = &r->records[r->n_records++];
	char err[512];
	int rc;

	rec->name = j->name;
	rec->group = j->def->group;
	rec->elements = j->def->unit != NULL;
	rec->element_unit = j->def->unit;
	rec->twin = -1;
	rc = bench_baseline_load(r->opt.results, j->name, r->opt.compare,
				 &rec->baseline, err, sizeof err);
	if (rc < 0)
		bench_error("%s", err);
	if (rc == 0 && r->opt.baseline != NULL)
		bench_error("%s: no baseline \"%s\" saved in %s; no comparison",
			    j->name, r->opt.compare, r->opt.results);
	return rc >= 0;
}

/* A seed per benchmark name, so each analysis is reproducible. */
static uint64_t seed_of(const char *name)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3u;
	return h;
}

static double *averages(const bench_samples *s)
{
	double *avg = malloc((s->n ? s->n : 1) * sizeof *avg);

	for (size_t i = 0; avg != NULL && i < s->n; i++)
		avg[i] = s->times[i] / s->iters[i];
	return avg;
}

/* Estimates, outliers and the change against the baseline. */
static int analyse(const run *r, bench_record *rec)
{
	bench_stats_config sc;
	double *now = averages(&rec->samples), *base = NULL;

	bench_stats_config_init(&sc);
	sc.nresamples = r->opt.nresamples;
	sc.confidence = r->opt.confidence;
	sc.significance = r->opt.significance;
	sc.noise = r->opt.noise;
	sc.seed = seed_of(rec->name);
	if (now == NULL)
		return -1;
	bench_estimate(rec->samples.iters, rec->samples.times, rec->samples.n,
		       &sc, &rec->estimates);
	bench_outliers_classify(now, rec->samples.n, &rec->outliers);
	if (rec->baseline.n >= 2 && (base = averages(&rec->baseline)) != NULL) {
		bench_compare(base, rec->baseline.n, now, rec->samples.n, &sc,
			      &rec->change);
		rec->has_change = 1;
	}
	free(base);
	free(now);
	return 0;
}

/* Criterion's warm-up: the routine with 1, 2, 4, ... iterations until the
 * warm-up time has passed; the mean time per iteration over all of it. */
static double warm_up(double warm_up_ns, const job *j)
{
	double start = cli_now_ns(), spent = 0, done = 0;
	uint64_t iters = 1;

	for (;;) {
		spent += j->def->run(j->state, iters);
		done += (double)iters;
		if (cli_now_ns() - start >= warm_up_ns)
			break;
		iters *= 2;
	}
	/* A clock too coarse to see the operation: still a positive
	 * estimate, so the step below stays finite. */
	return spent > 0 ? spent / done : 1.0;
}

/* Warms up, then takes n samples of d, 2d, ..., n*d iterations, the
 * target time spread over the n(n+1)/2 steps d (at least 1). Returns the
 * warm-up's time per iteration, or -1 when out of memory. */
static double measure(const run *r, const job *j, size_t n)
{
	bench_samples *out = &j->rec->samples;
	double met, steps = (double)n * (double)(n + 1) / 2.0;
	uint64_t d;

	out->iters = calloc(n, sizeof(double));
	out->times = calloc(n, sizeof(double));
	if (out->iters == NULL || out->times == NULL)
		return -1;
	met = warm_up(r->opt.warm_up_s * 1e9, j);
	d = (uint64_t)fmax(1, ceil(r->opt.measurement_s * 1e9 / (met * steps)));
	for (size_t i = 0; i < n; i++) {
		uint64_t iters = (uint64_t)(i + 1) * d;

		out->iters[i] = (double)iters;
		out->times[i] = j->def->run(j->state, iters);
	}
	out->n = n;
	return met;
}

/* The samples of one benchmark: its own count unless the command line
 * set one (never more than the run's, so --quick stays quick). */
static size_t samples_for(const run *r, const bench_def *def)
{
	if (def->sample_size == 0 || r->opt.sample_size_given ||
	    def->sample_size > r->opt.sample_size)
		return r->opt.sample_size;
	return def->sample_size;
}

/* Criterion's warning when even d = 1 overshoots the target. */
static void warn_long(const run *r, size_t samples, double met)
{
	double n = (double)samples;
	double need = met * n * (n + 1) / 2 / 1e9;

	if (need > r->opt.measurement_s * 1.05)
		fprintf(r->text,
			"Warning: Unable to complete %zu samples in "
			"%.1fs. You may wish to increase target time to "
			"%.1fs.\n",
			samples, r->opt.measurement_s, need);
}

static void progress(const char *name, bool done)
{
	if (!isatty(STDERR_FILENO))
		return;
	if (done)
		fputs("\r\033[K", stderr);
	else
		fprintf(stderr, "Benchmarking %s ...", name);
	fflush(stderr);
}

/* Measures, analyses, reports and saves the ready job jobs[i]; a
 * reference job after its twin, this library's job just before it. */
static int run_job(run *r, size_t i)
{
	const job *j = &r->jobs[i], *ours = i > 0 ? j - 1 : NULL;
	size_t n = samples_for(r, j->def);
	double met;
	char err[512];

	progress(j->name, false);
	if ((met = measure(r, j, n)) < 0 || analyse(r, j->rec) < 0)
		return -1;
	progress(j->name, true);
	warn_long(r, n, met);
	bench_report_record(r->text, j->rec, r->opt.significance);
	if (j->lib > 0 && ours != NULL && ours->def == j->def && ours->rec) {
		ours->rec->twin = j->rec - r->records;
		bench_report_ratio(r->text, ours->rec, j->rec);
	}
	if (r->opt.save != NULL &&
	    bench_baseline_save(r->opt.results, j->name, r->opt.save,
				&j->rec->samples, err, sizeof err) < 0) {
		bench_error("%s", err);
		return -1;
	}
	return 0;
}

static int write_json(const run *r)
{
	const char **skipped = calloc(2 * r->n_jobs + 1, sizeof *skipped);
	size_t n = 0;
	int rc = -1;

	for (size_t i = 0; skipped != NULL && i < r->n_jobs; i++)
		if (r->jobs[i].status == BENCH_SKIP) {
			skipped[2 * n] = r->jobs[i].name;
			skipped[2 * n++ + 1] = r->jobs[i].msg;
		}
	if (skipped != NULL)
		rc = bench_report_json(stdout, r->records, r->n_records,
				       &r->opt, skipped, n);
	free(skipped);
	if (rc != 0)
		bench_error("--json: the document could not be built or "
			    "written");
	return rc;
}

static int write_outputs(const run *r)
{
	char dir[4096], err[512];

	if (r->opt.json && write_json(r) != 0)
		return -1;
	if (r->opt.no_report || r->n_records == 0)
		return 0;
	if (r->opt.report != NULL)
		snprintf(dir, sizeof dir, "%s", r->opt.report);
	else
		snprintf(dir, sizeof dir, "%s/report", r->opt.results);
	if (bench_report_html_write(dir, r->records, r->n_records, err,
				    sizeof err) != 0) {
		bench_error("HTML report in %s: %s", dir, err);
		return -1;
	}
	return 0;
}

/* Checks every job, then times the ready ones; the exit status. */
static int measure_all(run *r)
{
	bool ok = true;

	for (size_t i = 0; i < r->n_jobs; i++)
		ok &= prepare(r, &r->jobs[i]);
	if (!ok)
		return 1;
	/* Every baseline is read before anything is timed: a malformed
	 * one stops the run. */
	for (size_t i = 0; i < r->n_jobs; i++)
		if (r->jobs[i].status == BENCH_READY &&
		    !add_record(r, &r->jobs[i]))
			return 1;
	if (r->n_records == 0) {
		bench_error("no benchmark to run");
		return 0;
	}
	for (size_t i = 0; i < r->n_jobs; i++)
		if (r->jobs[i].status == BENCH_READY && run_job(r, i) < 0)
			return 1;
	return write_outputs(r) < 0 ? 1 : 0;
}

static void cleanup(run *r)
{
	for (size_t i = 0; i < r->n_jobs; i++)
		r->jobs[i].def->teardown(r->jobs[i].state);
	for (size_t i = 0; i < r->n_records; i++) {
		free(r->records[i].samples.iters);
		free(r->records[i].samples.times);
		free(r->records[i].baseline.iters);
		free(r->records[i].baseline.times);
	}
	free(r->records);
	free(r->jobs);
	bench_vectors_free(&r->vectors);
	if (r->opt.has_filter)
		regfree(&r->opt.filter);
}

/* What is needed before timing: the reference library and the vectors
 * (the reference's names can be listed without it). */
static int load(run *r)
{
	char err[512];
	char names[128] = "";

	/* The same choice the libraries make (same CPU, same
	 * environment), and why; the names from the library's table. */
	const char *why;
	hashx_impl impl = hashx_impl_choose(&why);

	for (int k = 0; k < HASHX_IMPL_COUNT; k++)
		snprintf(names + strlen(names), sizeof names - strlen(names),
			 "%s%s", k ? "|" : "", hashx_impl_name((hashx_impl)k));
	bench_error("compiled contexts hash in batches with: %s, because: %s "
		    "(HASHX_IMPL=%s forces one)",
		    hashx_impl_name(impl), why, names);
	if (strcmp(HASHX_SALT, REFERENCE_SALT) != 0) {
		bench_error("this build uses the HashX salt \"%s\"; the "
			    "reference vectors hold for \"%s\" only; not timed",
			    HASHX_SALT, REFERENCE_SALT);
		return -1;
	}
	if (r->opt.reference != NULL &&
	    bench_library_load(r->opt.reference, r->opt.reference_hashx,
			       &r->libs[1]) < 0)
		return -1;
	if (r->opt.reference_hashwx != NULL &&
	    bench_library_load_hashwx(r->opt.reference_hashwx,
				      &r->libs[1]) < 0)
		return -1;
	if (bench_vectors_load(bench_vectors_dir(r->opt.vectors), &r->vectors,
			       err, sizeof err) < 0 ||
	    bench_vectors_load_v2(bench_vectors_dir(r->opt.vectors),
				  &r->vectors, err, sizeof err) < 0) {
		bench_error("%s", err);
		return -1;
	}
	/* Whose API each follows and whether it does Equi-X v2, found by
	 * running it: a v1-only library's v2 rows are skipped, not timed
	 * as v1. */
	for (size_t l = 0; l < r->n_libs; l++)
		if (bench_library_probe(&r->libs[l], &r->vectors) < 0)
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static run r;
	int rc;

	if ((rc = bench_options_parse(argc, argv, &r.opt)) != 0)
		return rc;
	if (r.opt.help) {
		bench_options_usage(stdout);
		return 0;
	}
	if (r.opt.version) {
		printf("equix-bench %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (r.opt.list_impls)
		return bench_print_impls(stdout);
	r.text = r.opt.json ? stderr : stdout;
	r.libs[0] = r.libs[1] = bench_library_ours;
	r.n_libs = r.opt.reference != NULL ? 2 : 1;
	if (r.opt.list) {
		rc = select_jobs(&r) < 0 ? 1 : 0;
		for (size_t i = 0; i < r.n_jobs; i++)
			printf("%s\n", r.jobs[i].name);
	} else if (load(&r) < 0 || select_jobs(&r) < 0) {
		rc = 1;
	} else {
		rc = measure_all(&r);
	}
	cleanup(&r);
	return rc;
}

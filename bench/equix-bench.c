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

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "batch.h"
#include "benchmarks.h"
#include "library.h"
#include "measure.h"
#include "options.h"
#include "record.h"
#include "report_html.h"
#include "report_text.h"
#include "stats.h"

/* The vectors were recorded with the reference salt. */
#define REFERENCE_SALT "HashX v1"

/* One benchmark on one library. */
typedef struct job {
	const bench_def *def;
	const bench_library *lib;
	char *name; /* def->name with the library's suffix */
	void *state;
	bench_samples baseline;
	long ours; /* a -ref job: the index of this library's job, or -1 */
} job;

typedef struct run {
	bench_options opt;
	FILE *text; /* the terminal report: stdout, stderr with --json */
	bench_vectors vectors;
	job *jobs;
	size_t n_jobs;
	const char **skipped; /* name, reason pairs */
	size_t n_skipped;
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
static int select_jobs(run *r, const bench_library *libs, size_t n_libs)
{
	size_t n_defs;
	const bench_def *defs = bench_defs(&n_defs);

	if ((r->jobs = calloc(n_defs * n_libs, sizeof *r->jobs)) == NULL)
		return -1;
	for (size_t d = 0; d < n_defs; d++) {
		long first = -1;

		for (size_t l = 0; l < n_libs; l++) {
			job *j = &r->jobs[r->n_jobs];
			size_t len = strlen(defs[d].name) + 8;

			if (l > 0 && defs[d].ours_only)
				continue;
			if ((j->name = malloc(len)) == NULL)
				return -1;
			snprintf(j->name, len, "%s%s", defs[d].name,
				 libs[l].suffix);
			if (!selected(&r->opt, defs[d].name, j->name)) {
				free(j->name);
				continue;
			}
			j->def = &defs[d];
			j->lib = &libs[l];
			j->ours = l == 0 ? -1 : first;
			if (l == 0)
				first = (long)r->n_jobs;
			r->n_jobs++;
		}
	}
	return 0;
}

static void add_skipped(run *r, const char *name, const char *why)
{
	const char **p =
		realloc(r->skipped, (r->n_skipped + 1) * 2 * sizeof *p);

	if (p == NULL)
		return;
	r->skipped = p;
	p[2 * r->n_skipped] = strdup(name);
	p[2 * r->n_skipped + 1] = strdup(why);
	if (p[2 * r->n_skipped] && p[2 * r->n_skipped + 1])
		r->n_skipped++;
}

/* Sets up every job, which checks its outputs against the vectors.
 * Returns the number of jobs refused (wrong output or set-up failure);
 * skipped ones are reported and dropped. */
static int prepare_jobs(run *r)
{
	int refused = 0;
	size_t kept = 0;

	for (size_t i = 0; i < r->n_jobs; i++) {
		job *j = &r->jobs[i];
		char msg[512] = "set-up failed";
		bench_status st = j->def->setup(j->lib, &r->vectors,
						j->def->param, &j->state, msg,
						sizeof msg);

		if (st == BENCH_SKIP) {
			bench_report_skip(r->text, j->name, msg);
			add_skipped(r, j->name, msg);
		} else if (st == BENCH_WRONG) {
			fprintf(stderr,
				"equix-bench: %s: output differs from "
				"the reference vectors: %s; not timed\n",
				j->name, msg);
			refused++;
		} else if (st == BENCH_ERROR) {
			fprintf(stderr, "equix-bench: %s: %s; not timed\n",
				j->name, msg);
			refused++;
		}
		if (st != BENCH_READY) {
			free(j->name);
			continue;
		}
		r->jobs[kept++] = *j;
	}
	r->n_jobs = kept;
	return refused;
}

/* Partners moved (or went) when prepare_jobs dropped jobs: find each
 * reference job's partner again. */
static void relink_twins(run *r)
{
	for (size_t i = 0; i < r->n_jobs; i++) {
		job *j = &r->jobs[i];

		if (!j->lib->is_reference)
			continue;
		j->ours = -1;
		for (size_t k = 0; k < i; k++)
			if (r->jobs[k].def == j->def)
				j->ours = (long)k;
	}
}

/* The baseline compared against: --baseline, else --save-baseline, else
 * Criterion's "base". */
static const char *compare_name(const bench_options *o)
{
	return o->baseline        ? o->baseline
	       : o->save_baseline ? o->save_baseline
				  : "base";
}

/* The baseline saved: none with --baseline. */
static const char *save_name(const bench_options *o)
{
	return o->baseline        ? NULL
	       : o->save_baseline ? o->save_baseline
				  : "base";
}

/* Reads every job's baseline before anything is timed; a malformed file
 * stops the run. */
static int load_baselines(run *r)
{
	const char *name = compare_name(&r->opt);

	for (size_t i = 0; i < r->n_jobs; i++) {
		job *j = &r->jobs[i];
		char err[512];
		int rc = bench_baseline_load(r->opt.results, j->name, name,
					     &j->baseline, err, sizeof err);

		if (rc < 0) {
			fprintf(stderr, "equix-bench: %s\n", err);
			return -1;
		}
		if (rc == 0 && r->opt.baseline != NULL)
			fprintf(stderr,
				"equix-bench: %s: no baseline \"%s\" "
				"saved in %s; no comparison\n",
				j->name, name, r->opt.results);
	}
	return 0;
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

static void progress(const char *name, int done)
{
	if (!isatty(STDERR_FILENO))
		return;
	if (done)
		fputs("\r\033[K", stderr);
	else
		fprintf(stderr, "Benchmarking %s ...", name);
	fflush(stderr);
}

/* Measures, analyses, reports and saves one job into records[i]. */
static int run_job(run *r, size_t i)
{
	job *j = &r->jobs[i];
	bench_record *rec = &r->records[i];
	bench_measure_config mc = {samples_for(r, j->def),
				   r->opt.warm_up_s * 1e9,
				   r->opt.measurement_s * 1e9};
	const char *save = save_name(&r->opt);
	double met;
	char err[512];

	rec->name = j->name;
	rec->group = j->def->group;
	rec->elements = j->def->elements;
	rec->element_unit = j->def->unit;
	rec->twin = -1;
	rec->baseline = j->baseline;
	progress(j->name, 0);
	if (bench_measure(&mc, j->def->run, j->state, &rec->samples, &met) <
		    0 ||
	    analyse(r, rec) < 0)
		return -1;
	progress(j->name, 1);
	warn_long(r, mc.sample_size, met);
	bench_report_record(r->text, rec, r->opt.significance);
	if (j->ours >= 0) {
		r->records[j->ours].twin = (long)i;
		bench_report_ratio(r->text, &r->records[j->ours], rec);
	}
	if (save != NULL &&
	    bench_baseline_save(r->opt.results, j->name, save, &rec->samples,
				err, sizeof err) < 0) {
		fprintf(stderr, "equix-bench: %s\n", err);
		return -1;
	}
	return 0;
}

static int write_outputs(run *r)
{
	char dir[4096], err[512];

	if (r->opt.json) {
		bench_json_meta m = {
			r->opt.reference,     compare_name(&r->opt),
			save_name(&r->opt),   r->opt.sample_size,
			r->opt.nresamples,    r->opt.warm_up_s,
			r->opt.measurement_s, r->opt.confidence,
			r->opt.significance,  r->opt.noise,
			r->skipped,           r->n_skipped,
		};
		if (bench_report_json(stdout, r->records, r->n_records, &m) !=
		    0) {
			fprintf(stderr, "equix-bench: --json: the document "
					"could not be built or written\n");
			return -1;
		}
	}
	if (r->opt.no_report || r->n_records == 0)
		return 0;
	if (r->opt.report != NULL)
		snprintf(dir, sizeof dir, "%s", r->opt.report);
	else
		snprintf(dir, sizeof dir, "%s/report", r->opt.results);
	if (bench_report_html_write(dir, r->records, r->n_records, err,
				    sizeof err) != 0) {
		fprintf(stderr, "equix-bench: HTML report in %s: %s\n", dir,
			err);
		return -1;
	}
	return 0;
}

static void list_jobs(const run *r)
{
	for (size_t i = 0; i < r->n_jobs; i++)
		printf("%s\n", r->jobs[i].name);
}

static void cleanup(run *r)
{
	for (size_t i = 0; i < r->n_jobs; i++) {
		r->jobs[i].def->teardown(r->jobs[i].state);
		free(r->jobs[i].name);
		if (r->records == NULL || i >= r->n_records)
			bench_samples_free(&r->jobs[i].baseline);
	}
	for (size_t i = 0; i < r->n_records; i++) {
		bench_samples_free(&r->records[i].samples);
		bench_samples_free(&r->records[i].baseline);
	}
	for (size_t i = 0; i < 2 * r->n_skipped; i++)
		free((void *)r->skipped[i]);
	free(r->skipped);
	free(r->records);
	free(r->jobs);
	bench_vectors_free(&r->vectors);
	if (r->opt.has_filter)
		regfree(&r->opt.filter);
}

/* Checks, then times every job; the exit status. */
static int measure_all(run *r)
{
	if (prepare_jobs(r) > 0)
		return 1;
	relink_twins(r);
	if (load_baselines(r) < 0)
		return 1;
	if (r->n_jobs == 0) {
		fprintf(stderr, "equix-bench: no benchmark to run\n");
		return 0;
	}
	if ((r->records = calloc(r->n_jobs, sizeof *r->records)) == NULL)
		return 1;
	for (size_t i = 0; i < r->n_jobs; i++) {
		if (run_job(r, i) < 0)
			return 1;
		r->n_records = i + 1;
	}
	return write_outputs(r) < 0 ? 1 : 0;
}

static int load_libraries(const run *r, bench_library libs[2], size_t *n)
{
	bench_library_ours(&libs[0]);
	*n = 1;
	if (r->opt.reference == NULL)
		return 0;
	if (bench_library_load(r->opt.reference, r->opt.reference_hashx,
			       &libs[1]) < 0)
		return -1;
	*n = 2;
	return 0;
}

int main(int argc, char **argv)
{
	static run r;
	bench_library libs[2];
	size_t n_libs;
	char err[512];
	int rc;

	if ((rc = bench_options_parse(argc, argv, &r.opt)) != 0)
		return rc;
	if (r.opt.help) {
		bench_options_usage(stdout);
		return 0;
	}
	r.text = r.opt.json ? stderr : stdout;
	/* --list needs no library: the reference's names are listed as
	 * they would run. */
	bench_library_ours(&libs[0]);
	libs[1] = libs[0];
	libs[1].suffix = "-ref";
	libs[1].is_reference = 1;
	n_libs = r.opt.reference != NULL ? 2 : 1;
	if (r.opt.list) {
		rc = select_jobs(&r, libs, n_libs) < 0 ? 1 : 0;
		list_jobs(&r);
		cleanup(&r);
		return rc;
	}
	/* The same choice the libraries make (same CPU, same
	 * environment). */
	fprintf(stderr,
		"equix-bench: compiled contexts hash in batches with: %s "
		"(HASHX_IMPL=portable|scalar|avx2|avx512 forces one)\n",
		hashx_impl_name(hashx_impl_default()));
	if (strcmp(HASHX_SALT, REFERENCE_SALT) != 0) {
		fprintf(stderr,
			"equix-bench: this build uses the HashX salt "
			"\"%s\"; the reference vectors hold for \"%s\" only; "
			"not timed\n",
			HASHX_SALT, REFERENCE_SALT);
		return 1;
	}
	if (load_libraries(&r, libs, &n_libs) < 0)
		return 1;
	if (bench_vectors_load(bench_vectors_dir(r.opt.vectors), &r.vectors,
			       err, sizeof err) < 0) {
		fprintf(stderr, "equix-bench: %s\n", err);
		return 1;
	}
	rc = select_jobs(&r, libs, n_libs) < 0 ? 1 : measure_all(&r);
	cleanup(&r);
	return rc;
}

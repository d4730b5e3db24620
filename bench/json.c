/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.c - the baseline files and the --json document (see json.h).
 */
#include <stdbool.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "benchutil.h"
#include "json.h"
#include "report_text.h"

#define FORMAT_NAME "equix-bench-baseline"
#define FORMAT_VERSION 1
/* Larger files are not ours: 100,000 samples at most. */
#define MAX_SAMPLES 100000

bool bench_baseline_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '.' &&
		    name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

/* RESULTS/<bench with '/' as '_'> into dir, and the file in path. */
static void paths(const char *results, const char *bench, const char *baseline,
		  char *dir, char *path, size_t size)
{
	int n = snprintf(dir, size, "%s/", results);

	for (const char *p = bench; *p != '\0' && (size_t)n + 1 < size; p++)
		dir[n++] = *p == '/' ? '_' : *p;
	dir[n] = '\0';
	snprintf(path, size, "%s/%s.json", dir, baseline);
}

/* A number as the old hand-written files had it: whole numbers (every
 * sample, counts) as integers, others with 17 digits (JSON_REAL_PRECISION
 * below), so that they read back exactly; null when not finite, which
 * JSON cannot express. */
static json_t *num(double x)
{
	if (!isfinite(x))
		return json_null();
	if (x == floor(x) && fabs(x) < 9007199254740992.0) /* 2^53 */
		return json_integer((json_int_t)x);
	return json_real(x);
}

/* The samples as a JSON array of numbers; NULL when out of memory. */
static json_t *array_of(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a != NULL && i < n; i++)
		if (json_array_append_new(a, num(v[i])) < 0) {
			json_decref(a);
			a = NULL;
		}
	return a;
}

int bench_baseline_save(const char *results, const char *bench,
			const char *baseline, const bench_samples *s, char *err,
			size_t err_size)
{
	char dir[4096], path[4200];
	json_t *doc;
	FILE *f = NULL;
	int rc = -1;

	paths(results, bench, baseline, dir, path, sizeof dir);
	doc = json_pack("{s:s, s:i, s:s, s:s, s:o, s:o}", "format",
			FORMAT_NAME, "version", FORMAT_VERSION, "benchmark",
			bench, "baseline", baseline, "iters",
			array_of(s->iters, s->n), "times",
			array_of(s->times, s->n));
	/* A sample array that could not be built (NULL) fails the pack
	 * ('o' takes no NULL; 'o*' would leave the key out and write a file
	 * that no longer loads). */
	errno = ENOMEM;
	/* One line, as the files have always been. */
	if (doc != NULL && bench_make_dirs(dir) == 0 &&
	    (f = fopen(path, "w")) != NULL &&
	    json_dumpf(doc, f,
		       JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) == 0 &&
	    fputc('\n', f) != EOF)
		rc = 0;
	if (f != NULL && fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		snprintf(err, err_size, "cannot write %s: %s", path,
			 strerror(errno));
	json_decref(doc);
	return rc;
}

/* ---- The reader --------------------------------------------------- */

/* An array of 2..MAX_SAMPLES positive numbers into *out (allocated);
 * NULL, or why not. */
static const char *samples_of(const json_t *a, double **out, size_t *n)
{
	size_t i;
	json_t *x;

	*n = json_array_size(a);
	if (!json_is_array(a))
		return "expected an array";
	if (*n > MAX_SAMPLES)
		return "too many samples";
	if ((*out = malloc((*n + 1) * sizeof(double))) == NULL)
		return "out of memory";
	json_array_foreach (a, i, x) {
		if (!json_is_number(x))
			return "expected a number";
		if (((*out)[i] = json_number_value(x)) <= 0)
			return "a sample is not positive";
	}
	return NULL;
}

/* Checks the document against the format; NULL, or why not. */
static const char *check_doc(json_t *doc, const char *bench,
			     const char *baseline, bench_samples *s)
{
	const char *format, *b, *name;
	json_t *iters, *times;
	json_int_t version;
	size_t n_iters;
	json_error_t e;
	const char *why;

	/* "!": every key is known, none is missing. */
	if (json_unpack_ex(doc, &e, JSON_STRICT, "{s:s, s:I, s:s, s:s, s:o, s:o}",
			   "format", &format, "version", &version, "benchmark",
			   &b, "baseline", &name, "iters", &iters, "times",
			   &times) < 0)
		return json_error_code(&e) == json_error_end_of_input_expected
			       ? "unknown key"
			       : "missing key or wrong type";
	if (version != FORMAT_VERSION)
		return "unknown version";
	if (strcmp(format, FORMAT_NAME) != 0 || strcmp(b, bench) != 0 ||
	    strcmp(name, baseline) != 0)
		return "another format, benchmark or baseline";
	if ((why = samples_of(iters, &s->iters, &n_iters)) != NULL ||
	    (why = samples_of(times, &s->times, &s->n)) != NULL)
		return why;
	if (n_iters != s->n || s->n < 2)
		return "iters and times differ in length, or fewer than 2";
	return NULL;
}

int bench_baseline_load(const char *results, const char *bench,
			const char *baseline, bench_samples *s, char *err,
			size_t err_size)
{
	char dir[4096], path[4200];
	json_error_t e;
	const char *why;
	json_t *doc;

	memset(s, 0, sizeof *s);
	paths(results, bench, baseline, dir, path, sizeof dir);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	/* Duplicate keys would make the file mean two things. */
	doc = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
	if (doc == NULL) {
		snprintf(err, err_size,
			 "%s: malformed baseline (%s at byte %lu)", path,
			 e.text, (unsigned long)e.position);
		return -1;
	}
	why = check_doc(doc, bench, baseline, s);
	json_decref(doc);
	if (why != NULL) {
		snprintf(err, err_size, "%s: malformed baseline (%s)", path,
			 why);
		free(s->iters);
		free(s->times);
		memset(s, 0, sizeof *s);
		return -1;
	}
	return 1;
}

/* ---- The --json document ----------------------------------------------------------- */

static json_t *interval(const bench_interval *v)
{
	return json_pack("{s:o, s:o, s:o}", "point", num(v->point), "lower",
			 num(v->lower), "upper", num(v->upper));
}

static json_t *estimates(const bench_estimates *e)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "slope",
			 interval(&e->slope), "mean", interval(&e->mean),
			 "median", interval(&e->median), "std_dev",
			 interval(&e->std_dev), "median_abs_dev",
			 interval(&e->median_abs_dev), "r_squared",
			 num(e->r_squared));
}

static json_t *throughput(const bench_record *r)
{
	const bench_interval *s = &r->estimates.slope;

	if (r->elements <= 0 || r->element_unit == NULL)
		return json_null();
	bench_interval t = {r->elements * 1e9 / s->point,
			    r->elements * 1e9 / s->upper,
			    r->elements * 1e9 / s->lower};
	return json_pack("{s:s, s:o, s:o}", "unit", r->element_unit,
			 "elements", num(r->elements), "per_second",
			 interval(&t));
}

static json_t *outliers(const bench_outliers *o)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I}", "total",
			 (json_int_t)bench_outliers_total(o), "low_severe",
			 (json_int_t)o->low_severe, "low_mild",
			 (json_int_t)o->low_mild, "high_mild",
			 (json_int_t)o->high_mild, "high_severe",
			 (json_int_t)o->high_severe);
}

static json_t *change(const bench_record *r)
{
	static const char *const verdicts[] = {"no_change", "within_noise",
					       "improved", "regressed"};
	const bench_change *c = &r->change;

	if (!r->has_change)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:s}", "mean", interval(&c->mean),
			 "median", interval(&c->median), "p_value",
			 num(c->p_value), "verdict",
			 (unsigned)c->verdict < 4 ? verdicts[c->verdict]
						  : "unknown");
}

static json_t *reference(const bench_record *records, const bench_record *r)
{
	if (r->twin < 0)
		return json_null();
	bench_interval q = bench_time_ratio(r, &records[r->twin]);
	return json_pack("{s:s, s:o}", "name", records[r->twin].name,
			 "time_ratio", interval(&q));
}

static json_t *record(const bench_record *records, size_t i)
{
	const bench_record *r = &records[i];

	return json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:o}", "name",
			 r->name, "group", r->group, "samples",
			 (json_int_t)r->samples.n, "estimates_ns",
			 estimates(&r->estimates), "throughput", throughput(r),
			 "outliers", outliers(&r->outliers), "change",
			 change(r), "reference", reference(records, r));
}

static json_t *config(const bench_options *o)
{
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:s?, s:s?, "
			 "s:s?}",
			 "sample_size", (json_int_t)o->sample_size,
			 "nresamples", (json_int_t)o->nresamples, "warm_up_s",
			 num(o->warm_up_s), "measurement_s",
			 num(o->measurement_s), "confidence", num(o->confidence),
			 "significance", num(o->significance), "noise",
			 num(o->noise), "reference", o->reference, "baseline",
			 o->compare, "saved_as", o->save);
}

int bench_report_json(FILE *f, const bench_record *records, size_t n,
		      const bench_options *o, const char *const *skipped,
		      size_t n_skipped)
{
	json_t *benchmarks = json_array(), *skips = json_array(), *doc;
	int ok = benchmarks != NULL && skips != NULL;

	/* Any part that could not be built (out of memory) fails the whole
	 * document, rather than printing one that lacks it. */
	for (size_t i = 0; ok && i < n; i++)
		ok = json_array_append_new(benchmarks, record(records, i)) == 0;
	for (size_t i = 0; ok && i < n_skipped; i++)
		ok = json_array_append_new(
			     skips, json_pack("{s:s, s:s}", "name",
					      skipped[2 * i], "reason",
					      skipped[2 * i + 1])) == 0;
	if (!ok) {
		json_decref(benchmarks);
		json_decref(skips);
		return -1;
	}
	doc = json_pack("{s:s, s:i, s:o, s:o, s:o}", "tool", "equix-bench",
			"format", 1, "config", config(o), "benchmarks",
			benchmarks, "skipped", skips);
	ok = doc != NULL &&
	     json_dumpf(doc, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					JSON_REAL_PRECISION(17)) == 0 &&
	     fputc('\n', f) != EOF;
	json_decref(doc);
	return fflush(f) == 0 && ok ? 0 : -1;
}

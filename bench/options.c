/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.c - strict parsing of equix-bench's options: a bad value is a
 * one-line error and exit status 2.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "options.h"

void bench_options_usage(FILE *f)
{
	fputs("usage: equix-bench [OPTION]...\n"
	      "Times HashX, Equi-X and Tor's PoW v1 in Criterion.rs's manner.\n"
	      "\n"
	      "  --filter REGEX             only benchmarks whose name "
	      "matches\n"
	      "                             (POSIX extended regex)\n"
	      "  --list                     print the benchmark names and "
	      "exit\n"
	      "  --sample-size N            samples per benchmark (100)\n"
	      "  --warm-up-time SECONDS     warm-up time (3)\n"
	      "  --measurement-time SECONDS target time of the samples (5)\n"
	      "  --nresamples N             bootstrap resamples (100000)\n"
	      "  --noise-threshold X        changes below are noise (0.01)\n"
	      "  --significance-level X     of the change test (0.05)\n"
	      "  --confidence-level X       of every interval (0.95)\n"
	      "  --quick                    10 samples, 0.05 s warm-up, 0.2 "
	      "s,\n"
	      "                             1000 resamples (explicit options "
	      "win)\n"
	      "  --save-baseline NAME       compare with NAME, then save as "
	      "NAME\n"
	      "                             (default: \"base\")\n"
	      "  --baseline NAME            compare with NAME, save nothing\n"
	      "  --results DIR              baselines and report "
	      "(bench-results)\n"
	      "  --report DIR               HTML report (RESULTS/report)\n"
	      "  --no-report                no HTML report\n"
	      "  --json                     JSON results on stdout (the "
	      "report\n"
	      "                             goes to stderr)\n"
	      "  --reference PATH           also time a reference "
	      "libequix.so,\n"
	      "                             each benchmark as NAME-ref\n"
	      "  --reference-hashx PATH     the reference's libhashx.so, for\n"
	      "                             generate/ and hash/ (when its\n"
	      "                             libequix.so hides hashx_*)\n"
	      "  --vectors DIR              reference vectors (tests/vectors)\n"
	      "  --help                     this text\n"
	      "\n"
	      "Every benchmark's outputs are checked against the reference\n"
	      "vectors first; a library that differs is not timed (exit 1).\n",
	      f);
}

static int bad(const char *opt, const char *value, const char *why)
{
	fprintf(stderr, "equix-bench: %s '%s': %s\n", opt, value, why);
	return 2;
}

/* A count in [lo, hi]. */
static int parse_count(const char *opt, const char *s, size_t lo, size_t hi,
		       size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *s < '0' || *s > '9' || *end != '\0' || v < lo ||
	    v > hi) {
		char why[64];

		snprintf(why, sizeof why, "expected an integer from %zu to %zu",
			 lo, hi);
		return bad(opt, s, why);
	}
	*out = (size_t)v;
	return 0;
}

/* A finite number with lo < x < hi (lo_ok: lo itself allowed). */
static int parse_real(const char *opt, const char *s, double lo, int lo_ok,
		      double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < lo ||
	    (v == lo && !lo_ok) || v >= hi) {
		char why[80];

		snprintf(why, sizeof why,
			 "expected a number %s %g and below %g",
			 lo_ok ? "from" : "above", lo, hi);
		return bad(opt, s, why);
	}
	*out = v;
	return 0;
}

static void defaults(bench_options *o)
{
	memset(o, 0, sizeof *o);
	/* Negative: not given, filled in after --quick is known. */
	o->warm_up_s = o->measurement_s = -1;
	o->noise = 0.01;
	o->significance = 0.05;
	o->confidence = 0.95;
	o->results = "bench-results";
}

static void apply_quick(bench_options *o)
{
	o->sample_size_given = o->sample_size != 0;
	if (o->sample_size == 0)
		o->sample_size = o->quick ? 10 : 100;
	if (o->warm_up_s < 0)
		o->warm_up_s = o->quick ? 0.05 : 3;
	if (o->measurement_s < 0)
		o->measurement_s = o->quick ? 0.2 : 5;
	if (o->nresamples == 0)
		o->nresamples = o->quick ? 1000 : 100000;
}

static int set_filter(bench_options *o, const char *re)
{
	int rc;

	if (o->has_filter)
		regfree(&o->filter);
	o->has_filter = 0;
	if ((rc = regcomp(&o->filter, re, REG_EXTENDED | REG_NOSUB)) != 0) {
		char why[128];

		regerror(rc, &o->filter, why, sizeof why);
		return bad("--filter", re, why);
	}
	o->has_filter = 1;
	return 0;
}

static int set_name(const char *opt, const char *v, const char **out)
{
	if (!bench_baseline_name_ok(v))
		return bad(opt, v, "a name of letters, digits, '.', '_', '-'");
	*out = v;
	return 0;
}

static int set_path(const char *opt, const char *v, const char **out)
{
	if (*v == '\0')
		return bad(opt, v, "empty path");
	*out = v;
	return 0;
}

static const char *const value_options[] = {
	"--filter",
	"--sample-size",
	"--nresamples",
	"--warm-up-time",
	"--measurement-time",
	"--noise-threshold",
	"--significance-level",
	"--confidence-level",
	"--save-baseline",
	"--baseline",
	"--results",
	"--report",
	"--reference",
	"--reference-hashx",
	"--vectors",
};

static int takes_value(const char *opt)
{
	for (size_t i = 0; i < sizeof value_options / sizeof *value_options;
	     i++)
		if (strcmp(opt, value_options[i]) == 0)
			return 1;
	return 0;
}

/* One option that takes a value; -1 if `opt` is none of them. */
static int option_value(bench_options *o, const char *opt, const char *v)
{
	if (strcmp(opt, "--filter") == 0)
		return set_filter(o, v);
	if (strcmp(opt, "--sample-size") == 0)
		return parse_count(opt, v, 2, 100000, &o->sample_size);
	if (strcmp(opt, "--nresamples") == 0)
		return parse_count(opt, v, 1, 100000000, &o->nresamples);
	if (strcmp(opt, "--warm-up-time") == 0)
		return parse_real(opt, v, 0, 0, 86400, &o->warm_up_s);
	if (strcmp(opt, "--measurement-time") == 0)
		return parse_real(opt, v, 0, 0, 86400, &o->measurement_s);
	if (strcmp(opt, "--noise-threshold") == 0)
		return parse_real(opt, v, 0, 1, 1e9, &o->noise);
	if (strcmp(opt, "--significance-level") == 0)
		return parse_real(opt, v, 0, 0, 1, &o->significance);
	if (strcmp(opt, "--confidence-level") == 0)
		return parse_real(opt, v, 0, 0, 1, &o->confidence);
	if (strcmp(opt, "--save-baseline") == 0)
		return set_name(opt, v, &o->save_baseline);
	if (strcmp(opt, "--baseline") == 0)
		return set_name(opt, v, &o->baseline);
	if (strcmp(opt, "--results") == 0)
		return set_path(opt, v, &o->results);
	if (strcmp(opt, "--report") == 0)
		return set_path(opt, v, &o->report);
	if (strcmp(opt, "--reference") == 0)
		return set_path(opt, v, &o->reference);
	if (strcmp(opt, "--reference-hashx") == 0)
		return set_path(opt, v, &o->reference_hashx);
	if (strcmp(opt, "--vectors") == 0)
		return set_path(opt, v, &o->vectors);
	return -1;
}

/* One option without a value; -1 if `opt` is none of them. */
static int option_flag(bench_options *o, const char *opt)
{
	int *flag = strcmp(opt, "--no-report") == 0 ? &o->no_report
		    : strcmp(opt, "--json") == 0    ? &o->json
		    : strcmp(opt, "--quick") == 0   ? &o->quick
		    : strcmp(opt, "--list") == 0    ? &o->list
		    : strcmp(opt, "--help") == 0    ? &o->help
						    : NULL;

	if (flag == NULL)
		return -1;
	*flag = 1;
	return 0;
}

/* "--opt VALUE" or "--opt=VALUE"; advances *i past what it used. */
static int parse_one(bench_options *o, int argc, char **argv, int *i)
{
	char opt[64];
	const char *arg = argv[*i], *eq = strchr(arg, '='), *value;
	int rc;

	if (strncmp(arg, "--", 2) != 0 ||
	    (size_t)(eq ? eq - arg : (long)strlen(arg)) >= sizeof opt) {
		fprintf(stderr,
			"equix-bench: unexpected argument '%s' (see "
			"--help)\n",
			arg);
		return 2;
	}
	snprintf(opt, sizeof opt, "%.*s", (int)(eq ? eq - arg : 63), arg);
	if (eq == NULL && option_flag(o, opt) == 0)
		return 0;
	value = eq ? eq + 1 : *i + 1 < argc ? argv[*i + 1] : NULL;
	if (!takes_value(opt) || value == NULL) {
		fprintf(stderr, "equix-bench: %s '%s' (see --help)\n",
			takes_value(opt) ? "missing value for"
					 : "unknown option",
			opt);
		return 2;
	}
	rc = option_value(o, opt, value);
	if (eq == NULL)
		(*i)++;
	return rc;
}

int bench_options_parse(int argc, char **argv, bench_options *o)
{
	defaults(o);
	for (int i = 1; i < argc; i++) {
		int rc = parse_one(o, argc, argv, &i);

		if (rc != 0)
			return rc;
	}
	if (o->save_baseline && o->baseline) {
		fprintf(stderr, "equix-bench: --save-baseline and --baseline "
				"exclude each other\n");
		return 2;
	}
	if (o->reference_hashx && !o->reference) {
		fprintf(stderr, "equix-bench: --reference-hashx needs "
				"--reference\n");
		return 2;
	}
	apply_quick(o);
	return 0;
}

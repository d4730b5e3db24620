/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.c - strict parsing of equix-bench's options with getopt_long: a
 * bad value is a one-line error and exit status 2. Every option is named
 * once, in `specs`, a table of tools/common/option_table.h's rows, which also
 * gives its --help line, getopt_long()'s arguments and how its value is
 * checked.
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "json.h"
#include "options.h"
#include "option_table.h"

/* How an option's value is read into its field of bench_options. */
typedef enum kind {
	FLAG = TOOL_OPT_FLAG, /* no value: the int field becomes 1 */
	COUNT = TOOL_OPT_OWN, /* an integer in [lo, hi], into a size_t */
	REAL,   /* a finite number above lo (from lo with lo_ok), below hi */
	NAME,   /* a baseline name (bench_baseline_name_ok) */
	PATH,   /* a non-empty path */
	FILTER, /* a POSIX extended regex */
} kind;

/* Designated, so that a row may leave out the fields after lo_ok. */
#define FIELD(m) .field = offsetof(bench_options, m)

/* help: '\n' continues the line; lo, hi, lo_ok: the range of a number. */
static const tool_option specs[] = {
	{"filter", "REGEX", "only benchmarks whose name matches\n"
			    "(POSIX extended regex)", FILTER, FIELD(filter), 0,
	 0, 0},
	{"list", NULL, "print the benchmark names and exit", FLAG,
	 FIELD(list), 0, 0, 0},
	{"sample-size", "N", "samples per benchmark (100)", COUNT,
	 FIELD(sample_size), 2, 100000, 0},
	{"warm-up-time", "SECONDS", "warm-up time (3)", REAL, FIELD(warm_up_s),
	 0, 86400, 0},
	{"measurement-time", "SECONDS", "target time of the samples (5)", REAL,
	 FIELD(measurement_s), 0, 86400, 0},
	{"nresamples", "N", "bootstrap resamples (100000)", COUNT,
	 FIELD(nresamples), 1, 100000000, 0},
	{"noise-threshold", "X", "changes below are noise (0.01)", REAL,
	 FIELD(noise), 0, 1e9, 1},
	{"significance-level", "X", "of the change test (0.05)", REAL,
	 FIELD(significance), 0, 1, 0},
	{"confidence-level", "X", "of every interval (0.95)", REAL,
	 FIELD(confidence), 0, 1, 0},
	{"quick", NULL, "10 samples, 0.05 s warm-up, 0.2 s,\n"
			"1000 resamples (explicit options win)", FLAG,
	 FIELD(quick), 0, 0, 0},
	{"save-baseline", "NAME", "compare with NAME, then save as NAME\n"
				  "(default: \"base\")", NAME,
	 FIELD(save_baseline), 0, 0, 0},
	{"baseline", "NAME", "compare with NAME, save nothing", NAME,
	 FIELD(baseline), 0, 0, 0},
	{"results", "DIR", "baselines and report (bench-results)", PATH,
	 FIELD(results), 0, 0, 0},
	{"report", "DIR", "HTML report (RESULTS/report)", PATH, FIELD(report),
	 0, 0, 0},
	{"no-report", NULL, "no HTML report", FLAG, FIELD(no_report), 0, 0, 0},
	{"json", NULL, "JSON results on stdout (the report\n"
		       "goes to stderr)", FLAG, FIELD(json), 0, 0, 0},
	{"reference", "PATH", "also time a reference libequix.so,\n"
			      "each benchmark as NAME-ref", PATH,
	 FIELD(reference), 0, 0, 0},
	{"reference-hashx", "PATH", "the reference's libhashx.so, for\n"
				    "generate/ and hash/ (when its\n"
				    "libequix.so hides hashx_*)", PATH,
	 FIELD(reference_hashx), 0, 0, 0},
	{"reference-hashwx", "PATH", "the reference's libhashwx.so, for\n"
				     "hashwx-generate/ and hashwx-hash/",
	 PATH, FIELD(reference_hashwx), 0, 0, 0},
	{"vectors", "DIR", "reference vectors (tests/vectors)", PATH,
	 FIELD(vectors), 0, 0, 0},
	{"list-impls", NULL, "print the HashX implementations, one a\n"
			     "line: NAME LANES AVAILABLE (yes/no:\n"
			     "this build and CPU run it), and exit",
	 FLAG, FIELD(list_impls), 0, 0, 0},
	{"help", NULL, "this text", FLAG, FIELD(help), 0, 0, 0},
	{"version", NULL, "the version", FLAG, FIELD(version), 0, 0, 0,
	 .short_name = 'V'},
};

#define N_SPECS (sizeof specs / sizeof specs[0])
/* The column of the help texts. */
#define HELP_COLUMN 29

void bench_options_usage(FILE *f)
{
	fputs("usage: equix-bench [OPTION]...\n"
	      "Times HashX, HashWX, Equi-X (v1 and v2) and Tor's PoW v1 in\n"
	      "Criterion.rs's manner.\n"
	      "\n", f);
	tool_options_help(f, specs, N_SPECS, HELP_COLUMN);
	fputs("\n"
	      "Every benchmark's outputs are checked against the reference\n"
	      "vectors first; a library that differs is not timed (exit 1).\n",
	      f);
}

/* The one line on stderr, and the status: 2. */
static int usage_error(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	bench_verror(format, ap);
	va_end(ap);
	return 2;
}

static int bad(const char *opt, const char *value, const char *why)
{
	return usage_error("--%s '%s': %s", opt, value, why);
}

/* A number in the range of `s`: for COUNT, an integer from lo to hi; for
 * REAL, a finite number above lo (from lo with lo_ok) and below hi. */
static int set_number(const tool_option *s, const char *v, void *field)
{
	char *end, why[80];
	double x;
	bool ok;

	errno = 0;
	if (s->kind == COUNT) {
		x = (double)strtoull(v, &end, 10);
		ok = *v >= '0' && *v <= '9' && x >= s->lo && x <= s->hi;
		*(size_t *)field = (size_t)x;
		snprintf(why, sizeof why, "expected an integer from %.0f to %.0f",
			 s->lo, s->hi);
	} else {
		x = strtod(v, &end);
		ok = end != v && isfinite(x) && x < s->hi &&
		     (x > s->lo || (x == s->lo && s->lo_ok));
		*(double *)field = x;
		snprintf(why, sizeof why, "expected a number %s %g and below %g",
			 s->lo_ok ? "from" : "above", s->lo, s->hi);
	}
	return ok && errno == 0 && *end == '\0' ? 0 : bad(s->name, v, why);
}

static int set_filter(bench_options *o, const char *re)
{
	int rc;

	if (o->has_filter)
		regfree(&o->filter);
	o->has_filter = false;
	if ((rc = regcomp(&o->filter, re, REG_EXTENDED | REG_NOSUB)) != 0) {
		char why[128];

		regerror(rc, &o->filter, why, sizeof why);
		return bad("filter", re, why);
	}
	o->has_filter = true;
	return 0;
}

/* The option `s` with value v (NULL for a flag). */
static int set(bench_options *o, const tool_option *s, const char *v)
{
	void *field = (char *)o + s->field;

	switch (s->kind) {
	case FLAG:
		*(int *)field = 1;
		return 0;
	case COUNT:
	case REAL:
		return set_number(s, v, field);
	case NAME:
		if (!bench_baseline_name_ok(v))
			return bad(s->name, v,
				   "a name of letters, digits, '.', '_', '-'");
		break;
	case PATH:
		if (*v == '\0')
			return bad(s->name, v, "empty path");
		break;
	case FILTER:
		return set_filter(o, v);
	}
	*(const char **)field = v;
	return 0;
}

/* The values not given: negative or zero until --quick is known. */
static void finish(bench_options *o)
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
	o->compare = o->baseline        ? o->baseline
		     : o->save_baseline ? o->save_baseline
					: "base";
	o->save = o->baseline ? NULL : o->compare;
}

/* What the scan refused: a short option (optopt is its character; the
 * long ones have values from 256, see tool_options_getopt), or the long
 * option read last, up to any '='. */
static int refused(int r, char **argv)
{
	const char *word = argv[optind - 1];
	char opt[3] = {'-', (char)optopt, '\0'};

	if (r == '?' && optopt > ' ')
		word = opt;
	return usage_error("%s '%.*s' (see --help)",
			   r == ':' ? "missing value for" : "unknown option",
			   (int)strcspn(word, "="), word);
}

int bench_options_parse(int argc, char **argv, bench_options *o)
{
	tool_scan scan;
	const tool_option *s;
	int r, rc = 0;

	*o = (bench_options){.warm_up_s = -1, .measurement_s = -1,
			     .noise = 0.01, .significance = 0.05,
			     .confidence = 0.95, .results = "bench-results"};
	/* The options end at the first argument that is none. */
	if (!tool_scan_begin(&scan, specs, N_SPECS, true))
		return usage_error("too many options in the table");
	while (rc == 0 && (r = tool_scan_next(&scan, argc, argv, &s)) != -1)
		rc = r == 0 ? set(o, s, optarg) : refused(r, argv);
	if (rc != 0)
		return rc;
	if (optind < argc)
		return usage_error("unexpected argument '%s' (see --help)",
				   argv[optind]);
	if (o->save_baseline && o->baseline)
		return usage_error("--save-baseline and --baseline exclude "
				   "each other");
	if (o->reference_hashx && !o->reference)
		return usage_error("--reference-hashx needs --reference");
	if (o->reference_hashwx && !o->reference)
		return usage_error("--reference-hashwx needs --reference");
	finish(o);
	return 0;
}

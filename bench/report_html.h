/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_html.h - the HTML report of the benchmark harness: an index of
 * all benchmarks, and a page per benchmark with its estimates, outliers,
 * change against the baseline and three plots drawn as inline SVG. The
 * pages are self-contained (no script, no external style sheet or font).
 */
#ifndef EQUIX_BENCH_REPORT_HTML_H
#define EQUIX_BENCH_REPORT_HTML_H

#include <stddef.h>

#include "record.h"

/* Writes dir/index.html and one page per record (dir is created if
 * missing, one level of parents is enough to create with mkdir -p
 * semantics); returns 0, or -1 with a one-line message in err. */
int bench_report_html_write(const char *dir, const bench_record *records,
			    size_t n, char *err, size_t err_size);

#endif

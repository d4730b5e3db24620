#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Every file name the docs put in backticks exists: a moved or deleted
# file leaves no stale name behind in the prose. Reads every tracked *.md
# (README.md, doc/*.md, the READMEs of contrib/tor, src/compiler, js and
# examples/web, CONTRIBUTING.md, SECURITY.md) and checks its inline code
# spans against `git ls-files`. Runs on a git checkout; from a tarball,
# which has no file list to trust (not every tracked file is
# distributed), it reports itself skipped, as licence.sh does.
#
# The rule. Fenced code blocks are commands, not references, and are not
# read. An inline span is a file name when it is one word of file-name
# characters (letters, digits, . _ - + / and the glob characters * ? [ ]
# { } ,), does not start with / ./ ../ ~ or - (absolute paths,
# ./configure, ../shared, options), and either
#  - contains a /, its first component naming a tracked top-level entry
#    or a tracked entry beside the doc (js/README.md's `src/core.c` is
#    js/src/core.c; `solve/compiled`, a benchmark's name, is no path), or
#  - has no /, and ends in .c .h .cpp .sh .md .am .ac .py .js .mjs .json
#    .txt .map .in .inc .patch .html .css or .baseline (found by its
#    base name anywhere in the tree).
# It exists when it is a tracked file or directory (from the top or
# beside the doc), a file configure makes from a tracked NAME.in, or a
# program or library a tracked Makefile.am or Makefile.inc builds (its
# *_PROGRAMS and *_LTLIBRARIES lists). A trailing :LINE is dropped. [ab]
# and {a,b} stand for each name they spell, and each must exist; a span
# with * or ? is a glob that must match at least one tracked file.
# File lists live in one place, the README.md of each source directory
# (src/*/, tools/*/, bench/ and js/src/): each of them has one, and it
# must name every tracked file of the directory; doc/architecture.md
# links to them instead of listing files.
# Not checked: what the build or the tools write (build/, js/dist/,
# js/build/, js/node_modules/, doc/api/, bench-results/, *.la, *.so*),
# and the files of Tor's own tree that doc/tor.md, doc/defence.md and
# contrib/tor/README.md name (the list below).
top=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}
cd "$top" || exit 99
# The tree must be the checkout itself: make distcheck unpacks the
# tarball inside the build directory, which may be inside a checkout.
if ! command -v git >/dev/null 2>&1 ||
	[ "$(git rev-parse --show-toplevel 2>/dev/null)" != "$(pwd -P)" ]; then
	echo "SKIP: not a git checkout, no list of tracked files"
	exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
git ls-files >"$tmp/files" || exit 99
# The build's own outputs: "DIR/NAME" for each program or library a
# Makefile.am in DIR builds; a Makefile.inc is included by the top
# Makefile.am, so its names are already from the top.
grep -E '(^|/)Makefile\.(am|inc)$' "$tmp/files" | while read -r mk; do
	dir=$(dirname "$mk")
	case $mk in *.inc | Makefile.am) dir=. ;; esac
	sed -e :a -e '/\\$/N; s/\\\n/ /; ta' "$mk" |
		awk -v dir="$dir" '$1 ~ /_(PROGRAMS|LTLIBRARIES|LIBRARIES)$/ &&
			($2 == "=" || $2 == "+=") {
			for (i = 3; i <= NF; i++) if ($i !~ /[$(]/)
				print (dir == "." ? "" : dir "/") $i }'
done >"$tmp/built"
git ls-files '*.md' >"$tmp/docs"

# The docs' names have no spaces: one word each.
# shellcheck disable=SC2016,SC2046
awk -v files="$tmp/files" -v built="$tmp/built" '
function add_dirs(f,   d) {
	d = f
	while (sub(/\/[^\/]*$/, "", d)) dir[d] = 1
}
function load(   f, n, parts) {
	while ((getline f < files) > 0) {
		tracked[f] = 1
		in_git[f] = 1
		add_dirs(f)
		n = split(f, parts, "/")
		base[parts[n]] = 1
		if (n > 1) topent[parts[1]] = 1; else topent[f] = 1
	}
	while ((getline f < built) > 0) {
		tracked[f] = 1
		n = split(f, parts, "/")
		base[parts[n]] = 1
	}
}
# The files of Tor, the build and the tools that the docs name.
function foreign(t) {
	if (t ~ /^(build|bench-results|doc\/api|js\/dist|js\/build|js\/node_modules)(\/|$)/)
		return 1
	if (t ~ /\.(la|lo|o|a)$/ || t ~ /\.so(\.|$)/)
		return 1
	# Tor 0.4.9 source tree (contrib/tor/README.md, doc/tor.md,
	# doc/defence.md)
	if (t ~ /^src\/(ext|feature|test)\//) return 1
	# and its Debian source package (contrib/tor/README.md)
	if (t ~ /^debian\/patches(\/|$)/) return 1
	if (t ~ /^(compat_blake2\.h|blake2\.c|hs_client\.c|test_sandbox\.c|test_crypto_slow\.c|orconfig\.h)$/)
		return 1
	# a file of the npm package @noble/hashes (js/README.md)
	if (t == "blake2.js") return 1
	# what configure writes (config.h.in is autoheader'\''s, not tracked)
	if (t == "config.h") return 1
	return 0
}
function exists(t, here) {
	sub(/\/$/, "", t)
	if (t in tracked || t in dir || (t ".in") in tracked) return 1
	if (here != "" && ((here "/" t) in tracked || (here "/" t) in dir ||
			   (here "/" t ".in") in tracked)) return 1
	if (t !~ /\//) return (t in base) || ((t ".in") in base)
	return 0
}
function glob_re(g,   r, c, i) {
	r = ""
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*") r = r ".*"
		else if (c == "?") r = r "."
		else if (c ~ /[.+]/) r = r "\\" c
		else r = r c
	}
	return "^" r "$"
}
function glob_matches(g, here,   re, re2, f) {
	re = glob_re(g)
	re2 = here == "" ? re : glob_re(here "/" g)
	for (f in tracked) if (f ~ re || f ~ re2) return 1
	return 0
}
# Checks every name t spells: [xy] and {a,b} expanded one group at a time.
function check(t, here, doc, line, shown,   i, j, k, alts, n, pre, post, a) {
	if ((i = index(t, "[")) > 0 && (j = index(t, "]")) > i) {
		pre = substr(t, 1, i - 1); post = substr(t, j + 1)
		a = substr(t, i + 1, j - i - 1)
		for (k = 1; k <= length(a); k++)
			check(pre substr(a, k, 1) post, here, doc, line, shown)
		return
	}
	if ((i = index(t, "{")) > 0 && (j = index(t, "}")) > i) {
		pre = substr(t, 1, i - 1); post = substr(t, j + 1)
		n = split(substr(t, i + 1, j - i - 1), alts, ",")
		for (k = 1; k <= n; k++)
			check(pre alts[k] post, here, doc, line, shown)
		return
	}
	checked++
	listed[doc SUBSEP t] = 1
	if (t ~ /[*?]/ ? glob_matches(t, here) : exists(t, here)) return
	failed++
	printf "FAIL: %s:%d: `%s`%s names no tracked file\n", doc, line, shown,
		shown == t ? "" : " (" t ")"
}
function consider(t, doc, line,   here, first, ext, shown) {
	sub(/:[0-9]+(-[0-9]+)?$/, "", t)
	if (t !~ /^([A-Za-z0-9_+]|\.[A-Za-z])[A-Za-z0-9._+\/*?\[\]{},-]*$/)
		return
	here = doc
	if (!sub(/\/[^\/]*$/, "", here)) here = ""
	if (index(t, "/")) {
		first = t
		sub(/\/.*/, "", first)
		if (!(first in topent) &&
		    !(here != "" && ((here "/" first) in dir ||
				     (here "/" first) in tracked)))
			return
	} else {
		ext = t
		if (t ~ /^\./ || !sub(/.*\./, "", ext) || ext !~ /^(c|h|cpp|sh|md|am|ac|py|js|mjs|json|txt|map|in|inc|patch|html|css|baseline|\[[a-z]+\])$/)
			return
	}
	if (foreign(t)) return
	shown = t
	# A placeholder component (tests/fuzz/corpus/NAME): its directory.
	sub(/\/[A-Z][A-Z0-9_]*(\/.*)?$/, "/", t)
	check(t, here, doc, line, shown)
}
BEGIN { load() }
FNR == 1 {
	fence = 0; open = 0
	if (FILENAME ~ /^((src|tools)\/[^\/]+|bench|js\/src)\/README\.md$/)
		dir_readme[FILENAME] = 1
}
/^[ \t]*(```|~~~)/ { fence = !fence; open = 0; next }
fence { next }
/^[ \t]*$/ { open = 0; next }
{
	rest = $0
	while ((i = index(rest, "`")) > 0) {
		if (open) {
			consider(span substr(rest, 1, i - 1), FILENAME, at)
			open = 0
		} else {
			open = 1; at = FNR; span = ""
		}
		rest = substr(rest, i + 1)
	}
	# A span that goes on to the next line has a space in it: no name.
	if (open) span = span rest " "
}
# The README.md of a source directory names each file of the directory.
function complete(doc,   here, f, name) {
	here = doc
	sub(/\/[^\/]*$/, "", here)
	for (f in in_git) {
		if (f == doc || index(f, here "/") != 1) continue
		name = substr(f, length(here) + 2)
		if (index(name, "/") || (doc SUBSEP name) in listed ||
		    (doc SUBSEP f) in listed) continue
		unlisted++
		printf "FAIL: %s: `%s` is not listed (a file of %s/)\n",
			doc, name, here
	}
}
# A source directory (src/*/, tools/*/, bench/, js/src/) without its
# README.md.
function source_dir(d) {
	return d ~ /^(src|tools)\/[^\/]+$/ || d == "bench" || d == "js/src"
}
END {
	for (d in dir_readme) complete(d)
	for (d in dir)
		if (source_dir(d) && !((d "/README.md") in in_git)) {
			unlisted++
			printf "FAIL: %s/ has no README.md listing its files\n", d
		}
	printf "%d names checked, %d missing, %d files unlisted\n", checked,
		failed, unlisted
	exit failed + unlisted > 0
}' $(cat "$tmp/docs")

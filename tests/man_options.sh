#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# tests/man_options.sh - the man page against the option tables: every
# option of every equix-cli command ("equix-cli --list-options", which
# prints the tables' visible rows) is in doc/equix-cli.1, and every option
# the man page names is in a table, long names and short letters alike.
# equix-bench and equix-count have no man page (they are not installed).
#
# Environment (set by tests/Makefile.am): EQUIX_CLI, the program;
# TOP_SRCDIR, the source tree; TEST_RUNNER, the emulator of a cross build.
set -u

program=${EQUIX_CLI:?EQUIX_CLI must name the equix-cli program}
man=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}/doc/equix-cli.1
. "$(dirname "$0")/shtest.sh"

run --list-options
[ "$rc" = 0 ] && [ -s "$tmp/out" ] || { fail "--list-options" "status $rc"; finish; exit; }
cut -f2 "$tmp/out" | sort -u >"$tmp/table-long"
cut -f3 "$tmp/out" | grep . | sort -u >"$tmp/table-short"
# In roff a minus is "\-": "\-\-name\-part" is --name-part, and "\-q" not
# preceded by another minus is -q.
grep -oE '\\-\\-[a-z]([a-z0-9]|\\-)*' "$man" | sed 's/\\-/-/g' |
	sort -u >"$tmp/man-long"
grep -oE '(^|[^-])\\-[a-zA-Z]\b' "$man" | sed 's/.*\\-/-/' |
	sort -u >"$tmp/man-short"

# compare WHAT: $tmp/table-WHAT and $tmp/man-WHAT hold the same names.
compare() {
	only_table=$(comm -23 "$tmp/table-$1" "$tmp/man-$1" | tr '\n' ' ')
	only_man=$(comm -13 "$tmp/table-$1" "$tmp/man-$1" | tr '\n' ' ')
	if [ -n "$only_table" ]; then
		fail "$1 options of the tables in $man" "missing: $only_table"
	else
		pass "$1 options of the tables in $man"
	fi
	if [ -n "$only_man" ]; then
		fail "$1 options of $man in the tables" "in no table: $only_man"
	else
		pass "$1 options of $man in the tables"
	fi
}
compare long
compare short
finish

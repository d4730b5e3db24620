#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# The layers of the tree (doc/architecture.md, "Floors"): every #include
# of a C file or header under src/, include/, tools/ and bench/ points to
# its own floor or one below it, never upward. The table below is the one place
# the floors are stated; a directory that is not in it fails, so a new
# one must be given its floor here. doc/architecture.md shows the same
# table to readers, and the test fails when the two differ.
#
# A quoted include is looked up as the compiler does with this tree's -I
# options: the including file's own directory first, then the one file of
# that name anywhere in the tree (no two headers share a name; this test
# fails if two do). An angle-bracket include is this tree's when include/
# has it (or its .in template), else a system header, which no header of
# the tree may share a name with: under that directory's -I it would be
# read instead (a src/pow/check.h once hid Check's <check.h> from the
# tests built with -I src/pow).
# config.h is configure's, below every floor.
top=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}
cd "$top" || exit 99

# The floors, lowest first: a number, a name, then the directories (or
# single files) on it. Includes between directories of one floor are
# allowed.
floors='
0 algorithm src/hashx src/hashwx include/equix_version.h.in
1 back-ends src/compiler
2 facade src/facade include/hashx.h.in include/hashwx.h
3 equix src/equix include/equix.h
4 pow src/pow include/equix_pow.h include/equix_pow_defence.h
5 tools-common tools/common
6 simulator tools/sim
7 programs src/cli bench
'

# A header that configure writes from a .in template beside it (hashx.h,
# equix_version.h in a tree built in place, as the Debian package's is)
# is the template's: only the template is read.
files=$(find src include tools bench \( -name '*.c' -o -name '*.h' -o -name '*.h.in' \) \
	-type f | LC_ALL=C sort | while read -r f; do
		[ -f "$f.in" ] || echo "$f"
	done)
[ -n "$files" ] || { echo "FAIL: no sources found under $top"; exit 1; }

# awk reads the floor table, then the file list (one per line, after a
# line "--"), then every file's lines; it prints one line per problem.
problems=$(
	{
		echo "$floors"
		echo "--"
		echo "$files"
		echo "--"
	} | awk -v files="$files" '
	function dir_of(p) { sub(/\/[^\/]*$/, "", p); return p }
	function base_of(p) { sub(/^.*\//, "", p); return p }
	function floor_of(p,   d) {
		if (p in floor_file) return floor_file[p]
		d = dir_of(p)
		if (d in floor_dir) return floor_dir[d]
		return -1
	}
	BEGIN { part = 0 }
	part == 0 && $0 == "--" { part = 1; next }
	part == 0 && NF >= 3 {
		name[$1] = $2
		for (i = 3; i <= NF; i++) {
			if ($i ~ /\.(c|h|in)$/) floor_file[$i] = $1
			else floor_dir[$i] = $1
		}
		next
	}
	part == 1 && $0 == "--" { part = 2; next }
	part == 1 && $0 != "" {
		b = base_of($0)
		sub(/\.in$/, "", b)
		if (b in by_name)
			printf "%s: header name also used by %s\n", $0, by_name[b]
		by_name[b] = $0
		floor_seen[$0] = 1
		if (floor_of($0) < 0)
			printf "%s: directory has no floor in tests/layers.sh\n", $0
		next
	}
	END {
		n = split(files, list, "\n")
		for (k = 1; k <= n; k++) check(list[k])
	}
	function check(f,   line, lineno, h, quoted, target, ff, ft) {
		ff = floor_of(f)
		lineno = 0
		while ((getline line < f) > 0) {
			lineno++
			if (line !~ /^[ \t]*#[ \t]*include[ \t]*["<]/) continue
			quoted = line ~ /include[ \t]*"/
			h = line
			sub(/^[^"<]*["<]/, "", h)
			sub(/[">].*$/, "", h)
			if (h == "config.h") continue
			target = ""
			if (quoted && (dir_of(f) "/" h) in floor_seen) {
				target = dir_of(f) "/" h
			} else if (base_of(h) in by_name) {
				target = by_name[base_of(h)]
				if (!quoted && target !~ /^include\//) target = ""
			} else if (quoted) {
				printf "%s:%d: %s not found in the tree\n", f, lineno, h
				continue
			}
			if (target == "") continue
			ft = floor_of(target)
			if (ft > ff)
					printf "%s:%d: includes %s, floor %s, above its own floor %s\n", \
					f, lineno, target, name[ft], name[ff]
		}
		close(f)
	}
	'
)
# A header of the tree named like a system header that some file includes
# with angle brackets (the tests too) would be read in its place by every
# file built with that directory's -I.
shadows=$(
	{
		find src tools bench -name '*.h' -type f
		echo "--"
		find src include tools bench tests -name '*.[ch]' -type f |
			xargs grep -Hn '^[ \t]*#[ \t]*include[ \t]*<'
	} | awk '
	$0 == "--" { part = 1; next }
	!part { b = $0; sub(/^.*\//, "", b); own[b] = $0; next }
	{
		h = $0; sub(/^[^<]*</, "", h); sub(/>.*$/, "", h)
		at = $0; sub(/:[ \t]*#.*$/, "", at)
		if (h in own)
			printf "%s: <%s> is a system header, and %s shadows it\n", at, h, own[h]
	}')
# doc/architecture.md's "Floors" table states this table for readers: the
# same floors, names and directories, in the same order.
doc_floors=$(awk -F'|' '
	/^## Floors/ { on = 1; next }
	/^## / { on = 0 }
	on && $2 ~ /^ *[0-9]+ *$/ {
		row = $2 + 0 " " $3
		n = split($4, part, "`")
		for (i = 2; i <= n; i += 2) row = row " " part[i]
		gsub(/  +/, " ", row); sub(/ $/, "", row)
		print row
	}' doc/architecture.md)
table_floors=$(echo "$floors" | grep .)
if [ "$doc_floors" != "$table_floors" ]; then
	# The first row that differs, from each side.
	mismatch=$(printf '%s\n' "$doc_floors" "--" "$table_floors" | awk '
		$0 == "--" { side = 1; n = 0; next }
		!side { doc[++n] = $0; rows = n; next }
		{ n++; if (doc[n] != $0 && !shown) { shown = 1
			printf "row %d: the doc has \"%s\", the test \"%s\"", n, doc[n], $0 } }
		END { if (!shown) printf "the doc has %d rows, the test %d", rows, n }')
	shadows=$(printf '%s\n%s' "$shadows" "doc/architecture.md: its Floors table differs from tests/layers.sh's: $mismatch")
fi
problems=$(printf '%s\n%s\n' "$problems" "$shadows")

echo "$problems" | grep . && {
	echo "FAIL: $(echo "$problems" | grep -c .) problem(s) with the floors"
	exit 1
}
echo "$(echo "$files" | wc -l) files, every include on its own floor or below;" \
	"doc/architecture.md's table the same"

#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# Every source, header, script and build file carries the project's
# copyright and SPDX lines near its top (a patch, after its DEP-3
# header), so that whoever ships or embeds a single file knows its terms. Data (test vectors, fuzz corpora) and
# prose (*.md) are exempt, and so are the Debian files whose format has
# no comments (debian/changelog, debian/source/format and the like). Runs
# on a git checkout; from a tarball, which has no file list to trust, it
# reports itself skipped.
top=${TOP_SRCDIR:?TOP_SRCDIR must name the source tree}
if ! git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "SKIP: not a git checkout, no list of tracked files"
	exit 77
fi
missing=0
checked=0
for f in $(git -C "$top" ls-files); do
	case $f in
	tests/vectors/* | tests/fuzz/corpus/* | *.md | debian/patches/series | \
	contrib/tor/*/series | \
	debian/source/format | debian/*.symbols | debian/*.install | \
	debian/*.docs | debian/*.manpages | debian/*.links | \
	debian/source/lintian-overrides | debian/*.lintian-overrides | \
	debian/watch | debian/changelog | tests/abi/*.dump | *.json | LICENSE) continue ;;
	esac
	checked=$((checked + 1))
	case $f in
	# A patch opens with its DEP-3 header, whose first line must be a
	# field: its lines come after the "---" that ends the header, where
	# DEP-3 parsers stop and patch(1) skips to the diff.
	*.patch) head=$(sed -n '/^---$/,$p' "$top/$f" | head -n 6) ;;
	*) head=$(head -n 6 "$top/$f") ;;
	esac
	case $head in
	*"Copyright (c) 2026 The equix authors"*) ;;
	*) echo "FAIL: $f: no copyright line"; missing=$((missing + 1)); continue ;;
	esac
	case $head in
	*"SPDX-License-Identifier: BSD-3-Clause"*) ;;
	*) echo "FAIL: $f: no SPDX line"; missing=$((missing + 1)) ;;
	esac
done
[ -f "$top/LICENSE" ] || { echo "FAIL: no LICENSE file"; missing=$((missing + 1)); }
echo "$checked files checked, $missing problems"
[ "$missing" = 0 ]

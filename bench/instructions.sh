#!/bin/sh
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
# instructions.sh - make bench-instructions: the instructions one
# operation executes (bench/equix-count's figures, per HashX
# implementation), counted by valgrind, against a committed baseline.
#
#   instructions.sh --driver PROGRAM --baseline FILE [--vectors DIR]
#                   [--paths 'portable scalar avx2'] [--threshold PCT]
#                   [--update]
#
# Prints each figure with its baseline, current count and change, and
# fails (status 1) when one has grown by more than PCT percent (default
# 2), when a figure is counted that the baseline lacks or the other way
# round, or when a run fails. The paths are the implementations that the
# driver's --list-impls, run under valgrind, says its virtual CPU runs (no
# AVX-512); --paths counts those named only (and compares with their
# lines only). --update writes the counts of every path into FILE
# instead (the baseline to commit with the change that moved them).
# Status 2: a bad argument.
#
# Why callgrind, not cachegrind: both count guest instructions exactly,
# but Debian 12's valgrind (3.19) gives cachegrind no way to count a part
# of a run (its client requests came in 3.22), and the runs would count
# reading the vectors and every check. Callgrind starts with collection
# off (--collect-atstart=no) and the driver switches it on around each
# counted loop, zeroes before it and dumps after it under the figure's
# name (see equix-count.c).
#
# What the counts depend on, and why they are the same on every CI
# machine: the binary (compiler, flags: the baseline's header says which
# produced it), Debian 12's glibc and libsodium, and the CPU that
# valgrind shows the program. That CPU is not the host's: on any host
# with AVX2, valgrind 3.19 presents the same virtual CPU (CPUID of an
# Intel Core i7-4910MQ, AVX2 and no AVX-512), on AMD as on Intel, so
# every run-time choice made from CPUID (the library's implementation,
# glibc's string functions, libsodium's BLAKE2b) is the same on all of
# them. A host without AVX2 gets another virtual CPU and no avx2 path,
# and fails here. Two choices are also removed from the counts:
#  - libsodium's BLAKE2b (one call per hashx_make, about 1,150
#    instructions): --toggle-collect switches collection off inside it,
#    since it is libsodium's code, chosen by libsodium's own CPU probe,
#    and would move with a libsodium update without any change here;
#  - the dynamic linker's lazy binding of the first calls: LD_BIND_NOW
#    binds everything at start, and the driver makes its calls once,
#    uncounted, before the counted loop.
# The counted regions call no glibc string function (only the mmap,
# mprotect and sysconf of the code buffers).
#
# JIT code under valgrind: the code buffers are rewritten at the same
# address, and valgrind must not run its translation of the old code.
# The buffer is flipped read-write before every rewrite (W^X), and
# valgrind discards its translations of a range that loses execute
# permission; --smc-check=all-non-file (valgrind's x86 default, named
# here so that it stays) also checks code in anonymous memory for
# writes. The driver compares every counted result with the recorded
# vectors, so stale code would fail the run, not give a count.
set -u

me=instructions
die_usage() {
	echo "$me: $*" >&2
	exit 2
}
fail() {
	echo "$me: $*" >&2
	exit 1
}

driver=
baseline=
vectors=
paths=
paths_given=0
threshold=2
update=0
while [ $# -gt 0 ]; do
	case $1 in
	--driver | --baseline | --vectors | --paths | --threshold)
		[ $# -ge 2 ] || die_usage "$1: missing argument"
		case $1 in
		--driver) driver=$2 ;;
		--baseline) baseline=$2 ;;
		--vectors) vectors=$2 ;;
		--paths) paths=$2 paths_given=1 ;;
		--threshold) threshold=$2 ;;
		esac
		shift 2
		;;
	--update)
		update=1
		shift
		;;
	-h | --help)
		sed -n '4,20p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*) die_usage "unknown argument '$1' (--help lists them)" ;;
	esac
done
[ -n "$driver" ] || die_usage "--driver is required"
[ -n "$baseline" ] || die_usage "--baseline is required"
[ -x "$driver" ] || fail "$driver: not an executable program (make bench/equix-count)"
case $threshold in
'' | *[!0-9.]* | *.*.* | .) die_usage "--threshold: '$threshold' is not a number of percent" ;;
esac
[ "$paths_given" = 0 ] || [ -n "$paths" ] || die_usage "--paths: no implementation named"
[ "$update" = 0 ] || [ "$paths_given" = 0 ] ||
	die_usage "--update counts every path; it cannot be given with --paths"

valgrind=${VALGRIND:-valgrind}
command -v "$valgrind" >/dev/null 2>&1 ||
	fail "$valgrind not found (Debian package valgrind)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/instructions.XXXXXX") || fail "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# The implementations: the driver's list (NAME LANES AVAILABLE), asked
# under valgrind so that AVAILABLE is its virtual CPU's answer.
"$valgrind" --tool=none --quiet "$driver" --list-impls >"$tmp/impls" ||
	fail "$driver --list-impls failed under valgrind"
all_paths=$(awk '$3 == "yes" { printf "%s%s", sep, $1; sep = " " }' "$tmp/impls")
[ -n "$all_paths" ] || fail "$driver --list-impls: no implementation valgrind runs"
if [ "$paths_given" = 0 ]; then
	paths=$all_paths
else
	for p in $paths; do
		case " $all_paths " in *" $p "*) continue ;; esac
		if awk -v p="$p" '$1 == p { found = 1 } END { exit !found }' "$tmp/impls"; then
			die_usage "--paths: valgrind's virtual CPU cannot run $p"
		fi
		die_usage "--paths: unknown implementation '$p' ($(awk '{ printf "%s%s", sep, $1; sep = ", " }' "$tmp/impls"))"
	done
fi

[ "$update" = 1 ] || [ -f "$baseline" ] ||
	fail "$baseline: no baseline (make bench-instructions-update writes one)"

# One callgrind run per implementation; the dumps are out.1, out.2, ...
# (out itself is the end of the run, all collection off: empty).
: >"$tmp/current"
for p in $paths; do
	set -- --impl "$p"
	[ -z "$vectors" ] || set -- "$@" --vectors "$vectors"
	echo "$me: counting $p ..." >&2
	if ! LD_BIND_NOW=1 "$valgrind" --tool=callgrind --quiet \
		--collect-atstart=no --smc-check=all-non-file \
		--toggle-collect=crypto_generichash_blake2b_salt_personal \
		--callgrind-out-file="$tmp/$p.cg" \
		"$driver" "$@" >"$tmp/$p.out" 2>"$tmp/$p.err"; then
		cat "$tmp/$p.err" >&2
		fail "$p: $driver failed under callgrind; nothing compared"
	fi
	# A dump counts only with the driver's line saying its results were
	# checked; callgrind's header total (summary) and the sum of its cost
	# lines (totals) must agree, or the regions were not what the driver
	# meant.
	i=1
	while [ -f "$tmp/$p.cg.$i" ]; do
		awk -v path="$p" -v file="$tmp/$p.cg.$i" -v checked="$tmp/$p.out" '
			/^desc: Trigger: Client Request: count / { fig = $6; iters = $7 }
			/^summary: / { summary = $2 }
			/^totals: / { totals = $2 }
			END {
				if (fig == "" || iters !~ /^[1-9][0-9]*$/ || totals == "") {
					print "bad dump " file > "/dev/stderr"; exit 1
				}
				if (summary != totals) {
					print file ": summary " summary " and totals " totals " differ" > "/dev/stderr"; exit 1
				}
				ok = 0
				while ((getline line < checked) > 0)
					if (line == fig " " iters " checked") ok = 1
				if (!ok) {
					print fig " on " path ": counted but not checked" > "/dev/stderr"; exit 1
				}
				printf "%s %s %.1f\n", fig, path, totals / iters
			}' "$tmp/$p.cg.$i" >>"$tmp/current" || fail "$p: the callgrind output could not be read"
		i=$((i + 1))
	done
	[ "$i" -gt 1 ] || fail "$p: callgrind wrote no counts (was $driver built with valgrind/callgrind.h?)"
done
compiler=$(sed -n 's/^compiler //p' "$tmp/$(set -- $paths; echo "$1").out")

# The compiled hash runs native code: far fewer instructions than the
# interpreter's. If not, the JIT was not what ran, whatever the outputs.
awk '
	$1 == "hash/interp" { interp[$2] = $3 }
	$1 == "hash/compiled" { compiled[$2] = $3 }
	END {
		for (p in compiled)
			if ((p in interp) && compiled[p] * 2 > interp[p]) {
				printf "%s: hash/compiled (%.1f) is not below half of hash/interp (%.1f): the JIT did not run\n", p, compiled[p], interp[p] > "/dev/stderr"
				exit 1
			}
	}' "$tmp/current" || fail "sanity check failed"

system() {
	os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
	libc=$(getconf GNU_LIBC_VERSION 2>/dev/null)
	sodium=$(pkg-config --modversion libsodium 2>/dev/null)
	echo "${os:-unknown system}, ${libc:-unknown libc}, libsodium ${sodium:-?}, $("$valgrind" --version)"
}

if [ "$update" = 1 ]; then
	{
		echo "# Copyright (c) 2026 The equix authors"
		echo "# SPDX-License-Identifier: BSD-3-Clause"
		echo "# Instructions per operation (callgrind), the baseline of make"
		echo "# bench-instructions (bench/instructions.sh); written by make"
		echo "# bench-instructions-update. FIGURE PATH COUNT, PATH the HASHX_IMPL."
		echo "# compiler: $compiler"
		echo "# system: $(system)"
		cat "$tmp/current"
	} >"$tmp/new" || fail "could not write the new baseline"
	cp "$tmp/new" "$baseline" || fail "$baseline: could not be written"
	awk '{ printf "%-20s %-9s %14s\n", $1, $2, $3 }' "$tmp/current"
	echo "$me: $(wc -l <"$tmp/current") counts written to $baseline"
	exit 0
fi

base_compiler=$(sed -n 's/^# compiler: //p' "$baseline")
if [ "$base_compiler" != "$compiler" ]; then
	echo "$me: note: the baseline was counted from a build by '$base_compiler', this one is by '$compiler'; counts differ between compilers" >&2
fi

# The comparison. Every line of the baseline is FIGURE PATH COUNT (or a
# comment); a malformed or repeated one fails, as does any figure on one
# side only.
awk -v threshold="$threshold" -v basefile="$baseline" -v paths="$paths" '
	# Faults are told after the table, where they are read.
	function bad(msg) { msgs = msgs "instructions: " msg "\n"; err = 1 }
	BEGIN { n = split(paths, p, " "); for (i = 1; i <= n; i++) counted[p[i]] = 1 }
	FILENAME == basefile {
		if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/) next
		if (NF != 3 || $3 !~ /^[0-9]+(\.[0-9]+)?$/) {
			bad(basefile ":" FNR ": not FIGURE PATH COUNT: " $0); next
		}
		k = $1 " " $2
		if (k in base) bad(basefile ":" FNR ": " k " given twice")
		if (!($2 in counted)) next
		base[k] = $3; border[++nb] = k
		next
	}
	{
		k = $1 " " $2; cur[k] = $3; corder[++nc] = k
	}
	END {
		printf "%-20s %-9s %14s %14s %9s\n", "figure", "path", "baseline", "current", "change"
		regressed = 0; missing = 0
		for (i = 1; i <= nc; i++) {
			k = corder[i]; split(k, f, " ")
			if (!(k in base)) {
				printf "%-20s %-9s %14s %14s %9s  NOT IN BASELINE\n", f[1], f[2], "-", cur[k], "-"
				missing++; continue
			}
			change = (cur[k] - base[k]) / base[k] * 100
			verdict = ""
			if (change > threshold) {
				verdict = "  REGRESSED"; regressed++
				worse = worse sprintf("%s %s on %s %+.2f%%", regressed > 1 ? "," : "", f[1], f[2], change)
			}
			else if (change < -threshold) verdict = "  improved"
			printf "%-20s %-9s %14s %14s %+8.2f%%%s\n", f[1], f[2], base[k], cur[k], change, verdict
		}
		for (i = 1; i <= nb; i++)
			if (!(border[i] in cur)) {
				split(border[i], f, " ")
				printf "%-20s %-9s %14s %14s %9s  NOT COUNTED\n", f[1], f[2], base[border[i]], "-", "-"
				missing++
			}
		if (missing > 0)
			bad(missing " figure(s) on one side only: the baseline and the counted figures must match (make bench-instructions-update after adding or removing one)")
		if (regressed > 0)
			bad(regressed " figure(s) grew by more than " threshold "%:" worse)
		if (!err)
			printf "instructions: %d figures, none grew by more than %s%%\n", nc, threshold
		fflush()
		printf "%s", msgs > "/dev/stderr"
		exit err
	}' "$baseline" "$tmp/current"

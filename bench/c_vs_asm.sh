#!/bin/sh
# Compiled C against the hand-written assembly of the same workload
# (scenarios/c_counters.json: atomic_t and percpu_counter, each in both
# forms), best of 3 runs each: simulated instructions and operations per
# host second. The compile is cached before timing, and each run is long
# enough that the preprocessing every run repeats (to find its cache
# entry, tens of milliseconds) is a small part of it.
# Usage: c_vs_asm.sh BOUNCE [UPDATES]
set -eu
bounce=$1
updates=${2:-200000}
scen=${BOUNCE_DATADIR:?}/scenarios/c_counters.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bounce" check "$scen" >/dev/null
now() { date +%s.%N; }
rate() { # rate VARIANT: "instructions seconds", the best of 3
	best=
	for i in 1 2 3; do
		t0=$(now)
		"$bounce" run "$scen" --variant "$1" --set NR_UPDATES="$updates" --jobs 1 -q --csv "$tmp/r.csv" >/dev/null || true
		t1=$(now)
		best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN { s = b - a; print (m == "" || s < m) ? s : m }')
	done
	awk -F, -v s="$best" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "instructions") c = i; if ($i == "ops") o = i } }
		NR == 2 { print $c, $o, s }' "$tmp/r.csv"
}
printf '%-8s %-4s %12s %10s %12s %10s\n' design form instructions ops "Minstr/s" "Mops/s"
for d in atomic percpu; do
	for f in c asm; do
		set -- $(rate "${d}_$f")
		awk -v d="$d" -v f="$f" -v i="$1" -v o="$2" -v s="$3" 'BEGIN {
			printf "%-8s %-4s %12d %10d %12.2f %10.3f\n", d, f, i, o, i / s / 1e6, o / s / 1e6 }'
	done
done

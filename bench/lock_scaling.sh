#!/bin/sh
# Waiting cores at scale: the spinlocks of bench/locks/locks.json (every
# CPU takes one lock 8 times) at 64, 256 and 1024 cores on manycore-1024,
# one run each: host seconds, simulated cycles, simulated cycles per host
# second, and whether the run finished (halt) or hit its cycle limit. With
# fast-forward, waiting cores cost the host little, so host time follows
# the hand-offs, not the spinning.
# Usage: lock_scaling.sh BOUNCE [CORES...]
set -eu
bounce=$1
shift
[ $# -gt 0 ] || set -- 64 256 1024
scen=${BOUNCE_DATADIR:?}/bench/locks/locks.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
printf '%-13s %5s %9s %14s %14s %s\n' lock cores "host s" cycles "cycles/host s" stopped
for v in test_and_set ticket queued; do
	for n in "$@"; do
		t0=$(now)
		"$bounce" run "$scen" --variant "$v" --cores "$n" --jobs 1 -q --csv "$tmp/r.csv" >/dev/null || true
		t1=$(now)
		awk -F, -v v="$v" -v n="$n" -v a="$t0" -v b="$t1" '
			NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "cycles") c = i; if ($i == "stopped") st = i } }
			NR == 2 { s = b - a; printf "%-13s %5d %9.2f %14.0f %14.3g %s\n", v, n, s, $c, $c / s, $st }' "$tmp/r.csv"
	done
done

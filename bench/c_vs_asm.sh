#!/bin/sh
# Simulated instructions per host second of compiled C against the
# hand-written assembly of the same workload (scenarios/c_counters.json:
# atomic_t and percpu_counter, each in both forms), best of 3 runs each.
# The compile is cached before timing, so the figures are the simulator's.
# Usage: c_vs_asm.sh BOUNCE [UPDATES]
set -eu
bounce=$1
updates=${2:-20000}
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
	n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "instructions") c = i } NR == 2 { print $c }' "$tmp/r.csv")
	echo "$n $best"
}
printf '%-8s %12s %12s %12s %12s %7s\n' design "C instr" "C Minstr/s" "asm instr" "asm Minstr/s" "C/asm"
for d in atomic percpu; do
	set -- $(rate "${d}_c") $(rate "${d}_asm")
	awk -v d="$d" -v ci="$1" -v cs="$2" -v ai="$3" -v as="$4" 'BEGIN {
		c = ci / cs / 1e6; a = ai / as / 1e6
		printf "%-8s %12d %12.2f %12d %12.2f %7.2f\n", d, ci, c, ai, a, c / a }'
done

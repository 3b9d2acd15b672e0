#!/bin/sh
# Host instructions per simulated operation of bench_core's cases, which do
# not move with the host's load as wall-clock rates do. Under callgrind, a
# case's run at scales 0.2 and 0.4 (one repetition each), less the inclusive
# count of the reference loop (kept out of line for this) in the same run;
# the difference between the scales divided by the operations it adds is
# one operation's cost with setup cancelled. Needs valgrind (callgrind).
# Usage: instr_per_op.sh BENCH_CORE [CASE...]   (cases 1..6; default all)
set -eu
bench=$1
shift
[ $# -gt 0 ] || set -- 1 2 3 4 5 6
command -v valgrind >/dev/null || { echo "instr_per_op: valgrind is not installed" >&2; exit 2; }
nm "$bench" | grep -q " reference_loop_ops_per_s" ||
	{ echo "instr_per_op: $bench has no out-of-line reference_loop_ops_per_s" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Ir of the whole run less the reference's, at scale $1 of case $2
ir() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bench" "$1" "$2" 1 >/dev/null 2>&1
	total=$(callgrind_annotate "$tmp/out" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
	ref=$(callgrind_annotate --inclusive=yes "$tmp/out" |
		awk '/reference_loop_ops_per_s[^ ]* \[/ {gsub(",", "", $1); print $1; exit}')
	echo $((total - ${ref:-0}))
}
for k in "$@"; do
	case $k in
	1) name=percpu n=8 per=10000000 ;; 2) name=atomic n=8 per=500000 ;;
	3) name=percpu n=64 per=10000000 ;; 4) name=atomic n=64 per=500000 ;;
	5) name=percpu n=1024 per=10000000 ;; 6) name=atomic n=1024 per=500000 ;;
	*) echo "instr_per_op: no case $k (1..6)" >&2; exit 2 ;;
	esac
	a=$(ir 0.2 "$k")
	b=$(ir 0.4 "$k")
	# bench_core's operation count at a scale: (scale * per / n + 1) * n
	oa=$(((per / 5 / n + 1) * n))
	ob=$((((per * 2) / 5 / n + 1) * n))
	echo "$name cores=$n" | awk -v a="$a" -v b="$b" -v oa="$oa" -v ob="$ob" \
		'{printf "%-8s %-11s %.1f host instructions an operation\n", $1, $2, (b - a) / (ob - oa)}'
done

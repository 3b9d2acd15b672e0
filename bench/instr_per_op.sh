#!/bin/sh
# Host instructions per simulated operation of bench_core's cases, which do
# not move with the host's load as wall-clock rates do. Under callgrind, a
# case's run at scales 0.2 and 0.4 (one repetition each), less the inclusive
# count of the reference loop (kept out of line for this) in the same run;
# the difference between the scales divided by the operations it adds is
# one operation's cost with setup cancelled. For a contended case the same
# difference of the reference loop's own count gives its cost, and the
# quotient of the two is the ratio in host instructions, which, unlike the
# wall-clock ratio bench_core prints, moves neither with the host's load nor
# with how well the host predicts the reference's branches. The model's
# events an operation (bench_core's events=, by the same difference) and
# the host instructions an event say how the cost splits between how many
# events the model makes and what each costs; the reference makes one an
# operation. Needs valgrind (callgrind).
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
# "OPS IR REF EVENTS" of bench_core at scale $1, case $2: its operation
# count, as it prints it, the whole run's Ir less the reference's, the
# reference's, and the simulation's events
run() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bench" "$1" "$2" 1 >"$tmp/line" 2>/dev/null
	ops=$(sed -n 's/.* ops=\([0-9]*\) .*/\1/p' "$tmp/line")
	events=$(sed -n 's/.* events=\([0-9]*\) .*/\1/p' "$tmp/line")
	total=$(callgrind_annotate "$tmp/out" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
	ref=$(callgrind_annotate --inclusive=yes "$tmp/out" |
		awk '/reference_loop_ops_per_s[^ ]* \[/ {gsub(",", "", $1); print $1; exit}')
	echo "$ops $((total - ${ref:-0})) ${ref:-0} $events"
}
for k in "$@"; do
	case $k in
	[1-6]) ;;
	*) echo "instr_per_op: no case $k (1..6)" >&2; exit 2 ;;
	esac
	a=$(run 0.2 "$k")
	b=$(run 0.4 "$k")
	awk -v a="$a" -v b="$b" '{
		split(a, x, " "); split(b, y, " ")
		ops = y[1] - x[1]; own = (y[2] - x[2]) / ops; ref = (y[3] - x[3]) / ops
		ev = (y[4] - x[4]) / ops
		printf "%-8s %-11s %.1f host instructions an operation", $1, $2, own
		if (ref > 0)
			printf "; bare loop %.1f; ratio %.3f", ref, ref / own
		printf "; %.3f events an operation, %.0f host instructions an event\n", ev, own / ev
	}' "$tmp/line"
done

#!/bin/sh
# Replay speed: trace records per host second of `bounce replay` on four
# synthetic teaching-format traces (tests/replay_gen.sh: 8% misses on
# teaching-4core), on one thread (-j1) and with the reader thread (the
# default), best wall clock of three runs each. The traces are made once
# into DIR (about 180 MB at 5 M records a trace) and kept for later runs.
# Usage: replay_speed.sh BOUNCE GEN DIR [RECORDS_PER_TRACE]
set -eu
bounce=$1 gen=$2 dir=$3 records=${4:-5000000}
mkdir -p "$dir"
if [ ! -s "$dir/t${records}_3.data" ]; then
	sh "$gen" 4 "$records" "$dir/t$records.tmp"
	for i in 0 1 2 3; do mv "$dir/t$records.tmp_$i.data" "$dir/t${records}_$i.data"; done
fi
now() { date +%s.%N; }
best() {  # best wall-clock seconds of three runs of: bounce replay ARGS
	b=
	for _ in 1 2 3; do
		t0=$(now)
		"$bounce" replay --quiet "$@" "$dir/t${records}_0.data" "$dir/t${records}_1.data" \
			"$dir/t${records}_2.data" "$dir/t${records}_3.data"
		b=$(awk -v t0="$t0" -v t1="$(now)" -v b="$b" 'BEGIN { t = t1 - t0; print (b == "" || t < b) ? t : b }')
	done
	echo "$b"
}
one=$(best -j1)
two=$(best -j2)
awk -v n="$records" -v one="$one" -v two="$two" 'BEGIN {
	printf "replay: 4 x %d records (teaching-4core, 8%% misses), best of 3: one thread %.2f s (%.1f M records/s); reader thread %.2f s (%.1f M records/s)\n",
		n, one, 4 * n / one / 1e6, two, 4 * n / two / 1e6
}'

#!/bin/sh
# Sweeps that answer questions: CPU-model keys as --set parameters, thread
# placement policies over a model's topology, baselines with ratio columns
# and --find, and replicates with their spread.
. "$top_srcdir/tests/lib.sh"

# One locked increment per op on every CPU (copied: some tests derive
# scenarios beside it).
cp "$top_srcdir/tests/fixtures/inc/inc.s" "$top_srcdir/tests/fixtures/inc/inc.json" "$T/"

# --- CPU-model keys: --set cpu.KEY=VALUE is the model file with that key.
sed 's/"protocol": "MESI"/"protocol": "MOESI"/' "$top_srcdir/cpus/x460-8way.json" >"$T/x460-8way.json"
grep -q '"MOESI"' "$T/x460-8way.json" || bad "the MOESI copy of x460-8way"
expect_status "run --set cpu.protocol=MOESI" 0 "$BOUNCE" run --set cpu.protocol=MOESI --json "$T/set.json"
expect_status "run --cpu (a MOESI copy)" 0 "$BOUNCE" run --cpu "$T/x460-8way.json" --json "$T/file.json"
expect_status "run (MESI)" 0 "$BOUNCE" run --json "$T/mesi.json"
for m in cycles totals.hitm totals.invalidations ops; do
	expect_eq "atomic $m: cpu.protocol=MOESI = the MOESI file" "$(jget "$T/file.json" variants.atomic.$m)" \
		"$(jget "$T/set.json" variants.atomic.$m)"
done
[ "$(jget "$T/mesi.json" variants.atomic.cycles)" != "$(jget "$T/set.json" variants.atomic.cycles)" ] &&
	ok "MOESI's cycles differ from MESI's" || bad "cpu.protocol=MOESI ran as MESI"
expect_eq "the report records the key" MOESI "$(jget "$T/set.json" variants.atomic.cpu_set.protocol)"
jget "$T/mesi.json" variants.atomic.cpu_set >/dev/null 2>&1 && bad "cpu_set without --set cpu." ||
	ok "no cpu_set without --set cpu."
expect_status "run --csv with a key and a placement" 0 "$BOUNCE" run --set cpu.protocol=MOESI --placement scatter \
	--csv "$T/set.csv"
expect_eq "the CSV's cpu column says what changed" '"x460-8way protocol=MOESI placement=scatter"' \
	"$(sed -n 2p "$T/set.csv" | cut -d, -f22)"

refused() { # WHAT MESSAGE ARGS...
	what=$1 msg=$2
	shift 2
	expect_status "$what" 2 "$BOUNCE" "$@"
	expect_eq "$what: the message" "bounce: $msg" "$(cat "$T/err")"
	[ -s "$T/out" ] && bad "$what: printed a summary" || ok "$what: no output"
}
refused "unknown protocol" '--set cpu.protocol=XYZ: unknown value "XYZ" (expected "MESI" or "MESIF" or "MOESI" or "MSI" or "Dragon")' \
	run --set cpu.protocol=XYZ
refused "unknown key" '--set cpu.protcol=MOESI: unknown CPU-model key "protcol" (did you mean "protocol"?)' \
	run --set cpu.protcol=MOESI
refused "latency not a number" '--set cpu.lat_mem_local=abc: expected an integer in 1..100000, found a string' \
	run --set cpu.lat_mem_local=abc
refused "latency out of range" '--set cpu.lat_mem_local=0: 0 is out of range (expected 1..100000)' \
	run --set cpu.lat_mem_local=0
refused "a topology key" '--set cpu.topology.c2c.socket=900: topology.c2c_hops[0]: 298 cycles is less than the c2c.socket (900): more hops cannot be faster' \
	run --cpu xeon-8176-8s --cores 8 --set cpu.topology.c2c.socket=900
refused "cpu.cores" '--set cpu.cores=4: the core count is the run'"'"'s (--cores, --set cores=N)' \
	run --set cpu.cores=4
refused "a bad value at one point of a sweep" '--set cpu.fabric=ring: unknown value "ring" (expected "bus" or "directory")' \
	sweep "$T/inc.json" --set cpu.fabric=directory,ring --csv "$T/never.csv"
[ -e "$T/never.csv" ] && bad "a refused sweep wrote its CSV" || ok "a refused sweep writes no CSV"

expect_status "sweep cpu.lat_mem_local and cpu.protocol" 0 "$BOUNCE" sweep "$T/inc.json" \
	--set cpu.protocol=MESI,MOESI --set cpu.lat_mem_local=100,400 --csv "$T/keys.csv"
expect_grep "the keys are columns" "^point,cpu.protocol,cpu.lat_mem_local,scenario,variant" "$T/keys.csv"
expect_eq "4 points" 5 "$(wc -l <"$T/keys.csv")"
# Point 3 (MOESI, 400) is the run with the same keys.
expect_status "run MOESI 400" 0 "$BOUNCE" run "$T/inc.json" --set cpu.protocol=MOESI \
	--set cpu.lat_mem_local=400 --json "$T/p3.json"
expect_eq "sweep point 3 = run with its keys (cycles)" "$(jget "$T/p3.json" variants.default.cycles)" \
	"$(sed -n '5p' "$T/keys.csv" | cut -d, -f7)"

# --- Placement: scatter on the 8-socket Xeon puts 8 threads on 8 sockets.
sockets_of() { # JSON VARIANT N: the socket of each of the first N cores
	i=0
	while [ "$i" -lt "$3" ]; do jget "$1" "variants.$2.cores.$i.socket"; i=$((i + 1)); done | tr '\n' ' '
}
expect_status "run --placement scatter" 0 "$BOUNCE" run "$T/inc.json" --cpu xeon-8176-8s --cores 8 \
	--placement scatter --json "$T/scatter.json"
expect_eq "scatter: 8 threads on 8 sockets" "0 1 2 3 4 5 6 7 " "$(sockets_of "$T/scatter.json" default 8)"
expect_eq "the report says how" scatter "$(jget "$T/scatter.json" variants.default.placement)"
expect_status "run --placement compact" 0 "$BOUNCE" run "$T/inc.json" --cpu xeon-8176-8s --cores 8 \
	--placement compact --json "$T/compact.json"
expect_eq "compact: one socket" "0 0 0 0 0 0 0 0 " "$(sockets_of "$T/compact.json" default 8)"
# A thread's "cpus" may name the policy: the same run as --placement.
sed 's/"cpus": "all"/"cpus": "scatter"/' "$T/inc.json" >"$T/scatter_in.json"
expect_status "threads with cpus: scatter" 0 "$BOUNCE" run "$T/scatter_in.json" --cpu xeon-8176-8s --cores 8 \
	--json "$T/scatter2.json"
expect_eq "cpus \"scatter\" = --placement scatter" "$(jget "$T/scatter.json" variants.default.cycles)" \
	"$(jget "$T/scatter2.json" variants.default.cycles)"
# Compact puts pairs on SMT siblings (1 cycle apart on this model), scatter
# across the UPI links: scatter is slower, compact no slower than one
# thread per core.
expect_status "run numbered" 0 "$BOUNCE" run "$T/inc.json" --cpu xeon-8176-8s --cores 2 --json "$T/n2.json"
expect_status "run compact 2" 0 "$BOUNCE" run "$T/inc.json" --cpu xeon-8176-8s --cores 2 --placement compact \
	--json "$T/c2.json"
[ "$(jget "$T/c2.json" variants.default.cycles)" -lt "$(jget "$T/n2.json" variants.default.cycles)" ] &&
	ok "compact 2 threads (siblings) beat two cores" || bad "compact 2 is not faster than numbered 2"
[ "$(jget "$T/scatter.json" variants.default.cycles)" -gt "$(jget "$T/compact.json" variants.default.cycles)" ] &&
	ok "scatter 8 is slower than compact 8" || bad "scatter 8 is not slower than compact 8"
expect_status "sweep placement" 0 "$BOUNCE" sweep "$T/inc.json" --cpu xeon-8176-8s --set cores=8 \
	--set placement=numbered,scatter --csv "$T/place.csv"
expect_eq "sweep's scatter point = the scatter run" "$(jget "$T/scatter.json" variants.default.cycles)" \
	"$(sed -n '3p' "$T/place.csv" | cut -d, -f7)"
refused "unknown placement" "--placement: unknown placement 'spread' (expected compact, scatter, cores-first or numbered)" \
	run "$T/inc.json" --placement spread
sed 's/"cpus": "all"/"cpus": "scater"/' "$T/inc.json" >"$T/bad_place.json"
expect_status "a misspelt policy in the scenario" 2 "$BOUNCE" check "$T/bad_place.json"
expect_grep "names the policies" 'bad CPU set "scater" (expected "all", a placement ("compact", "scatter"' "$T/err"
refused "placement on a flat model" \
	'--placement: placement "scatter" needs a CPU model with a "topology" object; "teaching-4core" gives the flat shorthand' \
	run "$T/inc.json" --cpu teaching-4core --placement scatter

# --- Baselines: a ratio column is the ratio of the two columns it names.
col() { # CSV COLUMN: the index of COLUMN in the header
	head -1 "$1" | tr ',' '\n' | grep -nx -- "$2" | cut -d: -f1
}
cell() { # CSV ROW COLUMN
	sed -n "$(($2 + 1))p" "$1" | cut -d, -f"$(col "$1" "$3")"
}
S2=$top_srcdir/scenarios/tcp_memory_allocated.json
expect_status "sweep --baseline atomic" 0 "$BOUNCE" sweep "$S2" --set cores=1,2,4,8 --baseline atomic \
	--csv "$T/base.csv"
for m in ops_per_sec cycles bounces; do
	[ -n "$(col "$T/base.csv" "${m}_vs_atomic")" ] && ok "column ${m}_vs_atomic" || bad "no ${m}_vs_atomic"
done
# rows: point 3 (8 cores) is rows 7 (atomic) and 8 (percpu_counter)
want=$(awk -v a="$(cell "$T/base.csv" 8 ops_per_sec)" -v b="$(cell "$T/base.csv" 7 ops_per_sec)" \
	'BEGIN { printf "%.17g", a / b }')
expect_eq "percpu_counter's ops_per_sec_vs_atomic = its ops_per_sec / atomic's" "$want" \
	"$(cell "$T/base.csv" 8 ops_per_sec_vs_atomic)"
expect_eq "the baseline's own ratio" 1 "$(cell "$T/base.csv" 7 cycles_vs_atomic)"
expect_status "run --baseline percpu_counter" 0 "$BOUNCE" run "$S2" --cores 8 --baseline percpu_counter \
	--json "$T/base.json"
expect_grep "the summary says vs percpu_counter" "vs percpu_counter$" "$T/out"
expect_eq "JSON: atomic's vs_percpu_counter.ops_per_sec = the two ops_per_sec's ratio" \
	"$(awk -v a="$(jget "$T/base.json" variants.atomic.ops_per_sec)" \
		-v b="$(jget "$T/base.json" variants.percpu_counter.ops_per_sec)" 'BEGIN { printf "%.6g", a / b }')" \
	"$(awk -v r="$(jget "$T/base.json" variants.atomic.vs_percpu_counter.ops_per_sec)" 'BEGIN { printf "%.6g", r }')"
expect_eq "JSON: percpu_counter vs itself" 1 "$(jget "$T/base.json" variants.percpu_counter.vs_percpu_counter.cycles)"
expect_eq "JSON names the baseline" percpu_counter "$(jget "$T/base.json" baseline)"
expect_status "--baseline names no variant" 2 "$BOUNCE" run "$S2" --baseline percpu
expect_eq "--baseline names no variant: the message" "$S2: --baseline: no variant named 'percpu'" "$(cat "$T/err")"
refused "--baseline left out by --variant" "--baseline atomic: --variant percpu_counter leaves it out" \
	run "$S2" --baseline atomic --variant percpu_counter

# --find: the first point of each series where the condition holds.
expect_status "sweep --find" 0 "$BOUNCE" sweep "$S2" --set cores=1,2,4,8 --baseline atomic \
	--find 'ops_per_sec_vs_atomic>=1.5'
first=$(awk -F, -v c="$(col "$T/base.csv" ops_per_sec_vs_atomic)" \
	'NR > 1 && $4 == "\"percpu_counter\"" && $c >= 1.5 { print $2; exit }' "$T/base.csv")
expect_grep "percpu_counter: the first cores where it holds, read from the CSV" \
	"^ops_per_sec_vs_atomic>=1.5: percpu_counter first at cores=$first (point " "$T/out"
expect_grep "atomic: never" "^ops_per_sec_vs_atomic>=1.5: atomic never, in its 4 points$" "$T/out"
expect_eq "--find without --csv prints the answers only" 2 "$(wc -l <"$T/out")"
refused "--find on a column the CSV lacks" \
	"--find ops_per_sec_vs_atomc>=10: the sweep's CSV has no column 'ops_per_sec_vs_atomc' (did you mean 'ops_per_sec_vs_atomic'?)" \
	sweep "$S2" --set cores=1,2 --baseline atomic --find 'ops_per_sec_vs_atomc>=10'
refused "--find without a number" "--find bounces>=x: 'x' is not a number" \
	sweep "$S2" --set cores=1,2 --find 'bounces>=x'

# --- Replicates: --repeat 3 is the seeds S..S+2; the mean is their mean.
expect_status "sweep --repeat 3" 0 "$BOUNCE" sweep "$T/inc.json" --set cores=2,4 --seed 1 --repeat 3 --csv "$T/rep.csv"
for s in 1 2 3; do
	expect_status "sweep --seed $s" 0 "$BOUNCE" sweep "$T/inc.json" --set cores=2,4 --seed "$s" --csv "$T/seed$s.csv"
done
for m in cycles ops_per_sec invalidations; do
	for row in 1 2; do
		a=$(cell "$T/seed1.csv" $row $m) b=$(cell "$T/seed2.csv" $row $m) c=$(cell "$T/seed3.csv" $row $m)
		expect_eq "row $row $m: mean of seeds 1-3" "$(awk -v a="$a" -v b="$b" -v c="$c" \
			'BEGIN { printf "%.17g", (a + b + c) / 3 }')" "$(awk -v x="$(cell "$T/rep.csv" $row $m)" \
			'BEGIN { printf "%.17g", x }')"
		lo=$(cell "$T/rep.csv" $row ${m}_min) mean=$(cell "$T/rep.csv" $row $m) hi=$(cell "$T/rep.csv" $row ${m}_max)
		awk -v l="$lo" -v m="$mean" -v h="$hi" 'BEGIN { exit !(l <= m && m <= h) }' &&
			ok "row $row $m: min $lo <= mean $mean <= max $hi" || bad "row $row $m: $lo, $mean, $hi out of order"
		expect_eq "row $row ${m}_min is the smallest run" \
			"$(printf '%s\n' "$a" "$b" "$c" | sort -g | head -1)" "$lo"
	done
done
[ "$(cell "$T/rep.csv" 2 cycles_min)" != "$(cell "$T/rep.csv" 2 cycles_max)" ] &&
	ok "the seeds differ (the spread is not empty)" || bad "three seeds gave one result"
expect_status "run --repeat 3 --json" 0 "$BOUNCE" run "$T/inc.json" --cores 4 --seed 1 --repeat 3 --json "$T/rep.json"
expect_eq "JSON: the seeds" 3 "$(jget "$T/rep.json" variants.default.replicates.seeds.2)"
expect_eq "JSON: the mean is the CSV's" "$(cell "$T/rep.csv" 2 cycles)" \
	"$(jget "$T/rep.json" variants.default.replicates.mean.cycles)"
expect_status "sweep --repeat 3 --jobs 2" 0 "$BOUNCE" sweep "$T/inc.json" --set cores=2,4 --seed 1 --repeat 3 --jobs 2 \
	--csv "$T/rep2.csv"
cmp -s "$T/rep.csv" "$T/rep2.csv" && ok "--repeat: --jobs 2 = --jobs 1" || bad "--repeat: --jobs 2 differs"
# Shards of such a sweep merge back into it, the added columns included.
for k in 1 2; do
	expect_status "shard $k/2 with --repeat and --baseline" 0 "$BOUNCE" sweep "$T/inc.json" --set cores=2,4 --seed 1 \
		--repeat 3 --baseline default --shard $k/2 --csv "$T/part$k.csv"
done
expect_status "sweep whole with --repeat and --baseline" 0 "$BOUNCE" sweep "$T/inc.json" --set cores=2,4 --seed 1 \
	--repeat 3 --baseline default --csv "$T/whole.csv"
expect_status "merge the shards" 0 "$BOUNCE" merge "$T/part1.csv" "$T/part2.csv" --csv "$T/merged.csv"
cmp -s "$T/whole.csv" "$T/merged.csv" && ok "merged shards = the whole sweep" || bad "merged shards differ"
refused "--repeat 0" "--repeat: '0' is not an integer in 1..1000" run "$T/inc.json" --repeat 0

finish

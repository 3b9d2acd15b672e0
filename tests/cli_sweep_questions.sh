#!/bin/sh
# Sweeps that answer questions: CPU-model keys as --set parameters, thread
# placement policies over a model's topology, baselines with ratio columns
# and --find, and replicates with their spread.
. "$top_srcdir/tests/lib.sh"

cat >"$T/inc.s" <<'S'
.equ ROUNDS, 20
.data
counter: .quad 0
.text
worker:
    mov rcx, ROUNDS
again:
    lock inc qword ptr [counter]
    mark op
    dec rcx
    jnz again
    hlt
S
cat >"$T/inc.json" <<'S'
{"name": "inc", "cpu": "x460-8way", "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"]}
S

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

refused() { # WHAT MESSAGE ARGS...
	what=$1 msg=$2
	shift 2
	expect_status "$what" 2 "$BOUNCE" "$@"
	expect_eq "$what: the message" "bounce: $msg" "$(cat "$T/err")"
	[ -s "$T/out" ] && bad "$what: printed a summary" || ok "$what: no output"
}
refused "unknown protocol" '--set cpu.protocol=XYZ: unknown value "XYZ" (expected "MESI" or "MESIF" or "MOESI")' \
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

finish

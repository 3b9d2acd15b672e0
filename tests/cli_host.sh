#!/bin/sh
# calibrate and validate on this host, in their short modes (--quick): the
# model JSON has every key a CPU model needs, with sane values for this
# machine; output files are whole or absent; validate prints a row per
# workload and thread count. Measured values are noisy, so only ranges are
# checked, never figures.
. "$top_srcdir/tests/lib.sh"

ncpu=$(nproc)

expect_status "calibrate -o" 0 "$BOUNCE" calibrate --quick -o "$T/host.json"
expect_grep "progress: one line per step" "^calibrate: clock: " "$T/err"
expect_grep "progress: c2c or why not" "c2c\|not measured" "$T/err"
expect_grep "progress: says what it could not measure" "^calibrate: not measured: " "$T/err"
jget "$T/host.json" . >/dev/null && ok "model is valid JSON" || bad "model is not valid JSON"
python3 "$top_srcdir/tests/json_schema_check.py" "$top_srcdir/scenarios/scenario.schema.json" --def cpu "$T/host.json" &&
	ok "the model matches the scenario schema's CPU model" || bad "the model does not match the CPU-model schema"
for k in name description source ghz cores l1_size l1_assoc line_size llc_size lat_l1_hit lat_mem_local \
	lat_mem_remote lat_locked_op lat_lock_drain lat_lock_snoop lat_mfence lat_pause cpi sb_entries fabric protocol \
	topology.sockets topology.cores_per_socket topology.cores_per_cluster topology.threads_per_core \
	topology.numbering topology.c2c.socket; do
	jget "$T/host.json" "$k" >/dev/null && ok "key $k" || bad "key $k missing"
done
expect_eq "cores = nproc" "$ncpu" "$(jget "$T/host.json" cores)"
s=$(jget "$T/host.json" topology.sockets)
c=$(jget "$T/host.json" topology.cores_per_socket)
th=$(jget "$T/host.json" topology.threads_per_core)
expect_eq "sockets x cores x threads = nproc" "$ncpu" $((s * c * th))
# integer comparisons: the values are whole cycles
in_range() { # WHAT VALUE LO HI
	if [ "$2" -ge "$3" ] 2>/dev/null && [ "$2" -le "$4" ]; then ok "$1 = $2 in $3..$4"; else bad "$1 = '$2' not in $3..$4"; fi
}
in_range "lat_l1_hit" "$(jget "$T/host.json" lat_l1_hit)" 1 50
in_range "lat_mem_local" "$(jget "$T/host.json" lat_mem_local)" 20 100000
in_range "lat_locked_op" "$(jget "$T/host.json" lat_locked_op)" 0 10000
# the drain is part of the locked RMW's cost
in_range "lat_lock_drain" "$(jget "$T/host.json" lat_lock_drain)" 0 "$(jget "$T/host.json" lat_locked_op)"
in_range "lat_store_forward" "$(jget "$T/host.json" lat_store_forward)" 1 100
in_range "store_commit_width" "$(jget "$T/host.json" store_commit_width)" 1 8
in_range "sb_entries" "$(jget "$T/host.json" sb_entries)" 1 256
expect_grep "progress: the store buffer's depth or why not" "^calibrate: store buffer: \|store buffer depth" "$T/err"
in_range "lat_mfence" "$(jget "$T/host.json" lat_mfence)" 0 10000
in_range "lat_pause" "$(jget "$T/host.json" lat_pause)" 1 10000
in_range "c2c.socket" "$(jget "$T/host.json" topology.c2c.socket)" 1 100000
in_range "line_size" "$(jget "$T/host.json" line_size)" 16 256
ghz=$(jget "$T/host.json" ghz)
awk -v g="$ghz" 'BEGIN { exit !(g > 0.1 && g < 10) }' && ok "ghz = $ghz in 0.1..10" || bad "ghz = '$ghz' not in 0.1..10"
expect_grep "source says how" "CAS ping-pong" "$T/host.json"
expect_grep "source names the default" "Default, not measured: cpi" "$T/host.json"
if [ "$s" -eq 1 ]; then
	jget "$T/host.json" topology.c2c_hops >/dev/null 2>&1 && bad "one socket but c2c_hops present" || ok "one socket: no c2c_hops"
	expect_grep "says there is no second socket" "no hops" "$T/err"
fi
if [ "$th" -eq 1 ]; then
	jget "$T/host.json" topology.c2c.smt >/dev/null 2>&1 && bad "no SMT but c2c.smt present" || ok "no SMT: no smt level"
fi

# The calibrated model is an ordinary CPU model file: run and check load it.
expect_status "run --cpu the calibrated model" 0 "$BOUNCE" run "$top_srcdir/scenarios/validate.json" \
	--cpu "$T/host.json" --cores "$ncpu" --quiet --json "$T/run.json"
expect_eq "the run simulated it" "$ncpu" "$(jget "$T/run.json" variants.contended.cores)"
expect_status "validate --cpu the calibrated model" 0 "$BOUNCE" validate --quick --cpu "$T/host.json" --threads 1
expect_grep "validate names it" '"host"' "$T/out"

# stdout without -o; the same keys.
"$BOUNCE" calibrate --quick --quiet >"$T/stdout.json" 2>"$T/err2"
jget "$T/stdout.json" topology.c2c.socket >/dev/null && ok "calibrate to stdout" || bad "calibrate to stdout"
[ -s "$T/err2" ] && bad "--quiet still printed progress" || ok "--quiet: no progress"

# A path that cannot be written: exit 2 and nothing left behind.
touch "$T/afile"
expect_status "-o into a missing directory" 2 "$BOUNCE" calibrate --quick -o "$T/nodir/m.json"
[ -e "$T/nodir" ] && bad "something was created" || ok "no file created"
expect_status "-o under a regular file" 2 "$BOUNCE" calibrate --quick -o "$T/afile/m.json"
expect_grep "one clear message" "cannot create output file" "$T/err"
expect_eq "no temporaries left" "" "$(ls "$T" | grep '\.tmp\.' || true)"
expect_status "unknown option" 2 "$BOUNCE" calibrate --bogus
expect_status "stray argument" 2 "$BOUNCE" calibrate extra
expect_status "-o without a value" 2 "$BOUNCE" calibrate -o

# validate: a row per workload and thread count, rates grouped in thousands
# with their unit, headers apart, a verdict that agrees with the error, and
# the same rows as JSON (--json).
n=2
[ "$ncpu" -lt 2 ] && n=1
expect_status "validate --threads $n --json" 0 "$BOUNCE" validate --quick --threads "$n" --json "$T/v.json"
cp "$T/out" "$T/validate.out"
expect_grep "table header, columns apart" "^workload  *threads  *native  *simulated  *error  *native median  *verdict\$" "$T/validate.out"
for w in contended padded false_sharing; do
	for t in $(seq 1 "$n"); do
		expect_grep "row $w x $t" "^$w  *$t  *[0-9][0-9,]*/s  *[0-9][0-9,]*/s  *[-+][0-9.]*%  *[0-9][0-9,]*/s  *\(within 25%\|off by more than 25%\)" "$T/validate.out"
	done
done
expect_eq "rows" $((3 * n)) "$(grep -cE '^(contended|padded|false_sharing) ' "$T/validate.out")"
expect_grep "thousands grouped (padded: over a million ops/s)" "^padded  *1  *[0-9]\{1,3\}\(,[0-9]\{3\}\)\{2,\}/s " "$T/validate.out"
bad_verdicts=$(awk '/^(contended|padded|false_sharing) / { e = $5; sub(/%/, "", e); e += 0; e = e < 0 ? -e : e
	if ((e <= 25) != ($7 == "within")) print }' "$T/validate.out")
expect_eq "verdict agrees with the error" "" "$bad_verdicts"
[ "$n" -ge 2 ] && expect_grep "the 1 -> 2 drop" "^contended, 1 -> 2 threads" "$T/validate.out"
if [ "$n" -ge 2 ]; then
	expect_grep "ops per ownership, native and simulated" \
		"^contended, 2 threads: operations per ownership of the line: native [0-9]*\.[0-9][0-9] (median of 3 runs\(, every one disturbed\)\?), simulated [0-9]*\.[0-9][0-9]\$" \
		"$T/validate.out"
	# every ownership holds at least one operation; the JSON says what the line said
	own=$("$JSON_GET" "$T/v.json" native_ops_per_ownership)
	awk -v o="$own" 'BEGIN { exit !(o >= 1) }' && ok "native ops per ownership >= 1 ($own)" ||
		bad "native ops per ownership: $own"
	expect_eq "--json: simulated ops per ownership as printed" \
		"$(sed -n 's/^contended, 2 threads: .*simulated \([0-9.]*\)$/\1/p' "$T/validate.out")" \
		"$(awk -v v="$("$JSON_GET" "$T/v.json" simulated_ops_per_ownership)" 'BEGIN { printf "%.2f", v }')"
	# A model whose snooped data goes back through the agent completes one
	# operation per ownership at every distance (docs/architecture.md).
	expect_status "validate --cpu xeon-8176-8s --threads 2" 0 "$BOUNCE" validate --quick --cpu xeon-8176-8s --threads 2
	expect_grep "xeon-8176-8s: one operation per ownership" "^contended, 2 threads: .*, simulated 1\.00\$" "$T/out"
fi
expect_status "validate --json parses" 0 "$JSON_GET" "$T/v.json" .
python3 "$top_srcdir/tests/json_schema_check.py" "$top_srcdir/scenarios/validate.schema.json" "$T/v.json" &&
	ok "validate --json matches its schema" || bad "validate --json does not match scenarios/validate.schema.json"
expect_eq "--json: a row per table row" $((3 * n)) "$(grep -c '"workload":' "$T/v.json")"
expect_eq "--json: as many within the tolerance as the table says" "$(grep -c 'within 25%' "$T/validate.out")" \
	"$(grep -c '"within_tolerance":.*true' "$T/v.json")"
expect_status "validate --json tolerance" 0 "$JSON_GET" "$T/v.json" tolerance
expect_eq "--json: the tolerance" 0.25 "$(cat "$T/out")"
expect_status "validate --json unwritable" 2 "$BOUNCE" validate --quick --cpu x460-8way --threads 1 --json "$T/no/such/v.json"
[ ! -e "$T/no/such/v.json" ] && ok "unwritable --json: nothing written" || bad "unwritable --json written"
# A model from cpus/ (no calibration).
expect_status "validate --cpu x460-8way" 0 "$BOUNCE" validate --quick --cpu x460-8way --threads 1
expect_grep "names the model" '"x460-8way"' "$T/out"
expect_status "validate --threads 0" 2 "$BOUNCE" validate --threads 0
expect_status "validate --threads beyond the CPUs" 2 "$BOUNCE" validate --quick --cpu x460-8way --threads $((ncpu + 1))
expect_grep "says why" "online CPUs" "$T/err"
# Without --cpu validate calibrates first (6 s and 1.2 GB on a 2-CPU
# host), so --threads is checked against the CPUs before that: well under
# a second.
# (online CPUs, not nproc's CPUs this process may use: validate counts those)
online=$(getconf _NPROCESSORS_ONLN)
start=$(date +%s%N)
expect_status "validate --threads beyond the CPUs, calibrating" 2 "$BOUNCE" validate --threads $((online + 1))
ms=$((($(date +%s%N) - start) / 1000000))
expect_grep "calibrating: says why" "^bounce: validate: --threads: $((online + 1)) is more than this host's $online online CPUs\$" "$T/err"
expect_eq "calibrating: one line of message" 1 "$(wc -l <"$T/err")"
[ "$ms" -lt 1500 ] && ok "calibrating: refused in $ms ms, before calibrating" || bad "calibrating: refused after $ms ms"
expect_status "validate --cpu unknown" 2 "$BOUNCE" validate --cpu no-such-model
finish

#!/bin/sh
# Signals: a sweep's first SIGINT (or SIGTERM, SIGHUP) stops its worker
# threads within half a second, exit 130, no CSV and no temporary file
# left; a second signal exits at once, same cleanup; a SIGHUP ignored when
# bounce started (nohup) stays ignored. `run` stops within half a second
# too. Progress: on stderr with --progress, nothing on a pipe without it.
. "$top_srcdir/tests/lib.sh"

cat >"$T/spin.s" <<'S'
.data
counter: .quad 0
.text
worker:
again:
    lock inc qword ptr [counter]
    mark op
    jmp again
S
# Hours of simulation at 64 cores: only a signal ends it.
cat >"$T/spin.json" <<'S'
{"name": "spin", "cpu": "manycore-1024", "cores": 8, "program": ["spin.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "stop": {"cycles": 1000000000000}}
S
mkdir "$T/tmp"
export TMPDIR="$T/tmp"

now() { date +%s%N; }
threads() { ls "/proc/$1/task" 2>/dev/null | wc -l; }
# start_sweep [PREFIX...]: a 2-job sweep in the background; sets pid once
# its two workers run beside the main thread.
start_sweep() {
	"$@" "$BOUNCE" sweep "$T/spin.json" --set cores=64,128 --jobs 2 --csv "$T/sw.csv" 2>"$T/sw.err" &
	pid=$!
	i=0
	while [ $i -lt 100 ] && [ "$(threads "$pid")" -lt 3 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sleep 0.5 # inside the simulation loop
}
# interrupted WHAT MAX_MS: process $pid ended with status 130 within MAX_MS
# of t0 (watched at most 10 s, then reaped).
interrupted() {
	while kill -0 "$pid" 2>/dev/null && [ $(( ($(now) - t0) / 1000000 )) -lt 10000 ]; do sleep 0.01; done
	ms=$(( ($(now) - t0) / 1000000 ))
	reap "$pid" 0
	expect_eq "$1: exit status" 130 "$?"
	[ "$ms" -le "$2" ] && ok "$1: gone in $ms ms (<= $2)" || bad "$1: took $ms ms (> $2)"
}
# stopped WHAT MAX_MS: the sweep was interrupted, nothing is left in
# TMPDIR, no CSV.
stopped() {
	interrupted "$1" "$2"
	expect_eq "$1: temporary files left" "" "$(ls -A "$T/tmp")"
	[ -e "$T/sw.csv" ] && bad "$1: CSV written" || ok "$1: no CSV"
	rm -rf "${T:?}/tmp/"* "$T/sw.csv.partial"
}

start_sweep
expect_eq "two worker threads beside the main one" 3 "$(threads "$pid")"
expect_eq "no worker processes" "" "$(ps -o pid= --ppid "$pid")"
t0=$(now); kill -INT "$pid"; stopped "one SIGINT" 500
expect_grep "says so" "sweep interrupted; no CSV written" "$T/sw.err"

start_sweep
t0=$(now); kill -INT "$pid"; sleep 0.2; kill -INT "$pid" 2>/dev/null; stopped "two SIGINTs 0.2 s apart" 500
# The second before the workers stopped: the process leaves at once.
start_sweep
t0=$(now); kill -INT "$pid"; kill -INT "$pid"; stopped "two SIGINTs at once" 500

start_sweep
t0=$(now); kill -TERM "$pid"; stopped "SIGTERM" 500
# Run from a shell that ignores SIGHUP itself (under nohup), bounce
# inherits that, and keeping it ignored is right: the nohup case below.
if [ $((0x$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status) & 1)) -eq 1 ]; then
	echo "skip SIGHUP stops a sweep: this test's shell ignores SIGHUP (nohup?)"
else
	start_sweep
	t0=$(now); kill -HUP "$pid"; stopped "SIGHUP" 500
	expect_grep "SIGHUP: says so" "sweep interrupted; no CSV written" "$T/sw.err"
fi

# Under nohup a hangup is ignored: the sweep runs on, and SIGINT still stops it.
start_sweep nohup
kill -HUP "$pid"
sleep 0.5
kill -0 "$pid" 2>/dev/null && ok "nohup: SIGHUP ignored" || bad "nohup: SIGHUP ended the sweep"
t0=$(now); kill -INT "$pid"; stopped "nohup: then SIGINT" 500

# run: the simulation loop checks for signals too.
"$BOUNCE" run "$T/spin.json" --cores 64 --json "$T/run.json" 2>"$T/run.err" &
pid=$!
sleep 1.5
t0=$(now); kill -INT "$pid"; interrupted "run: SIGINT" 500
[ -e "$T/run.json" ] && bad "run: report written" || ok "run: no report"

# run --jobs 2: both variants on threads; SIGINT stops both at once.
cat >"$T/spin2.json" <<'S'
{"name": "spin2", "cpu": "manycore-1024", "cores": 8, "program": ["spin.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "stop": {"cycles": 1000000000000},
 "variants": [{"name": "a", "cores": 64}, {"name": "b", "cores": 32}]}
S
"$BOUNCE" run "$T/spin2.json" --jobs 2 --json "$T/run2.json" 2>"$T/run2.err" &
pid=$!
sleep 1.5
t0=$(now); kill -INT "$pid"; interrupted "run --jobs 2: SIGINT" 500
expect_grep "run --jobs 2: says so" "interrupted with 0 of 2 variants done; no report written" "$T/run2.err"
[ -e "$T/run2.json" ] && bad "run --jobs 2: report written" || ok "run --jobs 2: no report"

# Progress: asked for on a pipe, it shows points done/total and a rate.
# A run prints its line at the end too, however short it was, so these
# runs are kept short: at 100 M cycles the 512-core one took 14 s under
# the sanitizers with the checker on, the slowest part of this test.
cat >"$T/short.json" <<'S'
{"name": "short", "cpu": "manycore-1024", "cores": 8, "program": ["spin.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "stop": {"cycles": 5000000}}
S
expect_status "sweep --progress" 0 "$BOUNCE" sweep "$T/short.json" --set cores=128,256,127,255 --jobs 1 \
	--progress --csv "$T/p.csv"
expect_grep "progress: points done/total" "sweep: [0-9]/4 points" "$T/err"
expect_grep "progress: a last line that stays" "sweep: 4/4 points (4 variant runs) in [0-9.]* s$" "$T/err"
# not a terminal: plain lines, no carriage returns or erase sequences
expect_eq "progress on a pipe: plain lines" "" "$(tr -d -c '\r\033' <"$T/err")"
expect_status "sweep on a pipe" 0 "$BOUNCE" sweep "$T/short.json" --set cores=128,256 --jobs 1 --csv "$T/p.csv"
expect_eq "no progress on a pipe" "" "$(cat "$T/err")"
expect_status "run --progress" 0 "$BOUNCE" run "$T/short.json" --cores 256 --set cores=512 --progress --quiet
expect_grep "run progress: instructions, ops, simulated time, rate" \
	"default: [0-9.]*[kMG]* instructions, [0-9.]*[kMG]* ops, [0-9.]* [mu]s simulated, [0-9.]*[kMG]* instr/s" "$T/err"
# The time left comes only after 1 s and 5% of the run: on a pipe (a line
# at most every 5 s) this short run's only estimate can be the 0 of its end
# (a fast build: its one line is the last), never one from its first 0.25 s.
expect_eq "run progress: no early ETA" "" "$(grep 'ETA' "$T/err" | grep -v 'ETA 0 us$')"
expect_eq "run progress on a pipe: plain lines" "" "$(tr -d -c '\r\033' <"$T/err")"
sed 's/"cycles": 1000000000000/"cycles": 5000000/; s/"cores": 64/"cores": 256/; s/"cores": 32/"cores": 128/' \
	"$T/spin2.json" >"$T/short2.json"
expect_status "run --jobs 2 --progress" 0 "$BOUNCE" run "$T/short2.json" --progress --quiet --jobs 2
expect_grep "run --jobs 2: progress over both variants" "run: [0-9]/2 variants, [0-9.]*[kMG]* instructions, [0-9.]*[kMG]* ops, [0-9.]*[kMG]* instr/s" "$T/err"
expect_status "run on a pipe" 0 "$BOUNCE" run "$T/short.json" --cores 256 --quiet
expect_eq "run: no progress on a pipe" "" "$(cat "$T/err")"

# replay: the same. Four cores storing to one line, 30 M records each
# (gzip keeps the files small): seconds of replay, stopped by SIGINT within
# half a second, exit 130, no report; with --progress a line of records,
# rate and what is left of the input, and nothing on a pipe without it.
yes "1 1000" | head -n 30000000 | gzip -1 >"$T/st_0.data.gz"
for c in 1 2 3; do cp "$T/st_0.data.gz" "$T/st_$c.data.gz"; done
"$BOUNCE" replay --quiet --json "$T/replay.json" "$T"/st_?.data.gz 2>"$T/replay.err" &
pid=$!
sleep 1
t0=$(now); kill -INT "$pid"; interrupted "replay: SIGINT" 500
[ -e "$T/replay.json" ] && bad "replay: report written" || ok "replay: no report"
expect_grep "replay: says so" "replay interrupted; no report written" "$T/replay.err"
yes "0 1000" | head -n 1000 >"$T/small_0.data"
expect_status "replay --progress" 0 "$BOUNCE" replay --quiet --progress "$T/small_0.data"
expect_grep "replay progress: records, simulated time, rate, input read, ETA" \
	"replay: [0-9.]*[kMG]* records, [0-9.]* [mu]s simulated, [0-9.]*[kMG]* records/s, 100% of the input read, ETA" "$T/err"
expect_status "replay on a pipe" 0 "$BOUNCE" replay --quiet "$T/small_0.data"
expect_eq "replay: no progress on a pipe" "" "$(cat "$T/err")"
finish

#!/bin/sh
# Sweeps: the product of --set lists, identical with --jobs 2, and a
# sharded sweep run through GNU parallel then merged equals the plain one.
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
sets="--set cores=1,2,4,8 --set ROUNDS=10,20"
expect_status "sweep" 0 "$BOUNCE" sweep "$T/inc.json" $sets --csv "$T/plain.csv"
expect_eq "header + 8 points" 9 "$(wc -l <"$T/plain.csv")"
expect_grep "point column first" "^point,cores,ROUNDS,scenario,variant" "$T/plain.csv"
expect_grep "last point is 8 cores x 20" '^7,8,20,"inc","default",8,' "$T/plain.csv"
expect_status "sweep --jobs 2" 0 "$BOUNCE" sweep "$T/inc.json" $sets --jobs 2 --csv "$T/jobs.csv"
cmp -s "$T/plain.csv" "$T/jobs.csv" && ok "--jobs 2 equals --jobs 1" || bad "--jobs 2 differs"

if command -v parallel >/dev/null 2>&1; then
	parallel --will-cite "$BOUNCE" sweep "$T/inc.json" $sets --shard {}/3 --csv "$T/part{}.csv" ::: 1 2 3
	expect_status "merge" 0 "$BOUNCE" merge "$T/part3.csv" "$T/part1.csv" "$T/part2.csv" --csv "$T/merged.csv"
	cmp -s "$T/plain.csv" "$T/merged.csv" && ok "sharded+merged equals plain" || bad "sharded+merged differs"
else
	bad "GNU parallel is not installed (setup.sh installs it)"
fi
printf 'point,other\n0,1\n' >"$T/alien.csv"
expect_status "merge refuses another sweep's part" 2 "$BOUNCE" merge "$T/plain.csv" "$T/alien.csv" --csv "$T/x.csv"
expect_status "sweep without --set" 2 "$BOUNCE" sweep "$T/inc.json"
expect_status "sweep with a bad value" 2 "$BOUNCE" sweep "$T/inc.json" --set cores=1,0
finish

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
# The CSV may replace no input: not the scenario, its program, nor a part;
# one that cannot be created is refused before any point runs.
cp "$T/inc.json" "$T/keep.json"
expect_status "sweep --csv the scenario" 2 "$BOUNCE" sweep "$T/keep.json" $sets --csv "$T/keep.json"
expect_grep "sweep --csv the scenario: message" "keep.json: --csv names the scenario" "$T/err"
cmp -s "$T/inc.json" "$T/keep.json" && ok "the scenario is unchanged" || bad "sweep replaced its scenario"
expect_status "sweep --csv the program" 2 "$BOUNCE" sweep "$T/inc.json" $sets --csv "$T/inc.s"
expect_grep "sweep --csv the program: message" "inc.s: --csv names the program" "$T/err"
expect_status "sweep --csv in a missing directory" 2 "$BOUNCE" sweep "$T/inc.json" --set ROUNDS=100000000 --csv "$T/nodir/x.csv"
expect_grep "sweep --csv in a missing directory: refused before running" "x.csv: cannot create output file" "$T/err"
cp "$T/plain.csv" "$T/part.csv"
expect_status "merge --csv a part" 2 "$BOUNCE" merge "$T/part.csv" --csv "$T/part.csv"
expect_grep "merge --csv a part: message" "part.csv: --csv names a part" "$T/err"
cmp -s "$T/plain.csv" "$T/part.csv" && ok "the part is unchanged" || bad "merge replaced a part"
printf 'point,other\n0,1\n' >"$T/alien.csv"
expect_status "merge refuses another sweep's part" 2 "$BOUNCE" merge "$T/plain.csv" "$T/alien.csv" --csv "$T/x.csv"
expect_status "sweep --jobs 1" 0 "$BOUNCE" sweep "$T/inc.json" $sets --jobs 1 --csv "$T/one.csv"
cmp -s "$T/plain.csv" "$T/one.csv" && ok "default jobs equals --jobs 1" || bad "default jobs differs from --jobs 1"

# merge checks that the parts are one whole sweep: exit 2 naming file:row.
# Two variants, so a point is two rows.
cat >"$T/two.json" <<'S'
{"name": "two", "cpu": "x460-8way", "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "variants": [{"name": "a", "seed": 2}, {"name": "b", "seed": 3}]}
S
for k in 1 2 3; do
	"$BOUNCE" sweep "$T/two.json" $sets --shard $k/3 --csv "$T/s$k.csv"
done
"$BOUNCE" sweep "$T/two.json" $sets --csv "$T/s.csv"
expect_status "merge of the three shards" 0 "$BOUNCE" merge "$T/s2.csv" "$T/s3.csv" "$T/s1.csv" --csv "$T/m.csv"
cmp -s "$T/s.csv" "$T/m.csv" && ok "merged equals the plain sweep" || bad "merged differs"
# A part whose last row lost its newline (an editor, head -c) merges alike.
head -c -1 "$T/s1.csv" >"$T/s1nonl.csv"
expect_status "merge: a part without its last newline" 0 "$BOUNCE" merge "$T/s2.csv" "$T/s3.csv" "$T/s1nonl.csv" --csv "$T/m2.csv"
cmp -s "$T/s.csv" "$T/m2.csv" && ok "merge: without the newline, equals the plain sweep" ||
	bad "merge: a part without its last newline: $(cat "$T/m2.csv")"
merge_bad() { # WHAT PATTERN PARTS...
	what=$1 pat=$2
	shift 2
	rm -f "$T/m.csv"
	expect_status "merge: $what" 2 "$BOUNCE" merge "$@" --csv "$T/m.csv"
	expect_grep "merge: $what: message" "$pat" "$T/err"
	[ -e "$T/m.csv" ] && bad "merge: $what: output written" || ok "merge: $what: no output"
}
merge_bad "a part twice" "s1.csv:2:1: point 0, variant \"a\" again (also .*s1.csv:2): every point must appear once" \
	"$T/s1.csv" "$T/s1.csv" "$T/s2.csv" "$T/s3.csv"
merge_bad "a shard missing" "s1.csv:4:1: point 3 follows point 1 (.*s2.csv:3): no part has point 2" "$T/s1.csv" "$T/s2.csv"
merge_bad "the first shard missing" "s2.csv:2:1: the first point is 1: no part has point 0" "$T/s2.csv" "$T/s3.csv"
# The last shard holds only the last point: found by counting the parameters' values.
for k in 1 2 3 4 5 6 7 8; do "$BOUNCE" sweep "$T/two.json" $sets --shard $k/8 --csv "$T/e$k.csv"; done
merge_bad "the last point missing" "e7.csv:2:1: point 6 has cores=8, which 1 point has where cores=1 is in 2" \
	"$T/e1.csv" "$T/e2.csv" "$T/e3.csv" "$T/e4.csv" "$T/e5.csv" "$T/e6.csv" "$T/e7.csv"
grep -v '^4,.*"b"' "$T/s2.csv" >"$T/rows.csv"
merge_bad "a row missing" "rows.csv:4:1: point 4 has 1 row, point 0 has 2 (one per variant)" \
	"$T/s1.csv" "$T/rows.csv" "$T/s3.csv"
sed 's/"two"/"other"/' "$T/s2.csv" >"$T/other.csv"
merge_bad "another scenario" "other.csv:2:1: scenario \"other\", but .*s1.csv:2 is \"two\": parts of different sweeps" \
	"$T/s1.csv" "$T/other.csv" "$T/s3.csv"
"$BOUNCE" sweep "$T/two.json" --set cores=1,2,4,8 --set ROUNDS=10,30 --shard 2/3 --csv "$T/p30.csv"
merge_bad "another sweep's values" "p30.csv:2:1: point 1 has ROUNDS=30, which 2 points have where ROUNDS=10 is in 4" \
	"$T/s1.csv" "$T/p30.csv" "$T/s3.csv"
# The same values in another order: refused, though which part is the odd
# one cannot be told (it blames the rarest value's first row).
"$BOUNCE" sweep "$T/two.json" --set cores=8,4,2,1 --set ROUNDS=10,20 --shard 2/3 --csv "$T/rev.csv"
merge_bad "another order" "s3.csv:4:1: point 5 has cores=4, which 1 point has where cores=1 is in 2: not one whole sweep" \
	"$T/s1.csv" "$T/rev.csv" "$T/s3.csv"
# Equal counts, product right, order wrong: the order check names the point.
awk -F, 'BEGIN{OFS=","} NR>1&&$1==1{$1=2; print; next} NR>1&&$1==2{$1=1} {print}' "$T/s.csv" >"$T/swap.csv"
merge_bad "values swapped between points" "swap.csv:6:1: point 1 has cores=2 where the sweep's order puts 1" "$T/swap.csv"
"$BOUNCE" sweep "$T/inc.json" $sets --shard 2/3 --csv "$T/v2.csv"
merge_bad "another scenario's shard" "v2.csv:2:1: scenario \"inc\", but .*s1.csv:2 is \"two\"" "$T/s1.csv" "$T/v2.csv" "$T/s3.csv"
"$BOUNCE" sweep "$T/two.json" --set cores=1,2,4,8 --set seed=1,2 --shard 2/3 --csv "$T/h2.csv"
merge_bad "another sweep's parameters" "h2.csv:1:1: header differs from .*s1.csv's" "$T/s1.csv" "$T/h2.csv" "$T/s3.csv"
"$BOUNCE" run "$T/two.json" --quiet --csv "$T/run.csv"
merge_bad "a run's CSV" "run.csv:1:1: not a sweep CSV" "$T/run.csv"
printf '%s\n' "$(head -1 "$T/s1.csv")" 'x,1,10,"two","a"' >"$T/junk.csv"
merge_bad "a row without its point" "junk.csv:2:1: expected a sweep row" "$T/junk.csv"
# A row whose last field was cut off: refused, not copied on with a column missing.
sed '3s/,[^,]*$//' "$T/s1.csv" >"$T/cut.csv"
merge_bad "a row cut short" "cut.csv:3:1: [0-9]* fields where the header has [0-9]*: a damaged part" \
	"$T/cut.csv" "$T/s2.csv" "$T/s3.csv"
expect_status "sweep without --set" 2 "$BOUNCE" sweep "$T/inc.json"
expect_status "sweep with a bad value" 2 "$BOUNCE" sweep "$T/inc.json" --set cores=1,0
# Every point is assembled before any runs: point 1's .space is too big, and
# point 0, an endless loop with a 10^12-cycle stop, is never started.
printf '.equ N, 8\n.data\nbuf: .space N\n.text\nworker:\n l: jmp l\n' >"$T/late.s"
printf '{"name": "late", "cpu": "x460-8way", "cores": 1, "program": ["late.s"],\n "threads": [{"cpus": "all", "entry": "worker"}], "stop": {"cycles": 1000000000000}}\n' >"$T/late.json"
expect_status "sweep: a point that cannot assemble, refused first" 2 timeout 20 "$BOUNCE" sweep "$T/late.json" \
	--set N=8,99999999999 --jobs 1 --csv "$T/late.csv"
expect_grep "sweep: a point that cannot assemble: message" "late.s:3:" "$T/err"
# Workers failing at run time at once print one message, the lowest point's.
printf '.equ K, 0\n.text\nworker:\n    mov rax, qword ptr [K]\n    hlt\n' >"$T/fault.s"
printf '{"name": "fault", "cpu": "x460-8way", "cores": 1, "program": ["fault.s"],\n "threads": [{"cpus": "all", "entry": "worker"}]}\n' >"$T/fault.json"
expect_status "sweep: two workers fail" 2 "$BOUNCE" sweep "$T/fault.json" --set K=0,8 --jobs 2 --csv "$T/fault.csv"
expect_eq "sweep: two workers fail: one message" 1 "$(wc -l <"$T/err")"
expect_grep "sweep: two workers fail: point 0's" "fault.s:4:.*0x0\b" "$T/err"
# The lowest point's failure even when a later point fails first on the
# clock: point 0 loops 4.5 M times before its fault, point 1 0.5 M; the
# later failure stops only the points after it.
printf '.equ K, 0\n.text\nworker:\n    mov rcx, (9 - K) * 500000\nl:  dec rcx\n    jnz l\n    mov rax, qword ptr [K]\n    hlt\n' >"$T/slow.s"
sed 's/fault\.s/slow.s/' "$T/fault.json" >"$T/slow.json"
for i in 1 2 3; do
	expect_status "sweep: a later point fails first ($i)" 2 "$BOUNCE" sweep "$T/slow.json" --set K=0,8 --jobs 2 --csv "$T/slow.csv"
	expect_grep "sweep: a later point fails first ($i): point 0's" "slow.s:7:.*0x0\b" "$T/err"
done
# Lists whose product wraps a 64-bit count (2^64 + 418 points) are too many,
# not 418: seven defines (inc.s has none to spare, so a program of its own).
printf '.equ B0, 0\n.equ B1, 0\n.equ B2, 0\n.equ B3, 0\n.equ B4, 0\n.equ B5, 0\n.equ B6, 0\n.text\nworker:\n    hlt\n' >"$T/b.s"
printf '{"name": "b", "cpu": "x460-8way", "cores": 1, "program": ["b.s"], "threads": [{"cpus": "all", "entry": "worker"}]}\n' >"$T/b.json"
list() { seq -s, 1 "$1"; }
expect_status "sweep: a product past 2^64" 2 "$BOUNCE" sweep "$T/b.json" --set cores=1,2 --set B0="$(list 7)" \
	--set B1="$(list 31)" --set B2="$(list 673)" --set B3="$(list 853)" --set B4="$(list 1669)" \
	--set B5="$(list 5821)" --set B6="$(list 7621)" --csv "$T/wrap.csv"
expect_grep "sweep: a product past 2^64: message" "more points than a 64-bit count holds" "$T/err"
[ -e "$T/wrap.csv" ] && bad "sweep: a product past 2^64: output written" || ok "sweep: a product past 2^64: no output"
# A value listed twice would make two points alike, whose shards merge
# could not join: refused at the sweep.
expect_status "sweep: a value listed twice" 2 "$BOUNCE" sweep "$T/b.json" --set cores=1,2,1 --csv "$T/twice.csv"
expect_grep "sweep: a value listed twice: message" "--set cores: value '1' is listed twice (expected each value once)" "$T/err"
[ -e "$T/twice.csv" ] && bad "sweep: a value listed twice: output written" || ok "sweep: a value listed twice: no output"
# merge reads regular files only: a directory, a FIFO without a writer and
# a device are refused before they are read, and nothing blocks.
mkdir "$T/adir"
mkfifo "$T/pf"
merge_bad "a directory" "adir: is a directory (expected a sweep CSV)" "$T/adir"
expect_status "merge: a FIFO" 2 timeout 20 "$BOUNCE" merge "$T/pf" --csv "$T/m.csv"
expect_grep "merge: a FIFO: message" "pf: is a FIFO (expected a sweep CSV)" "$T/err"
merge_bad "a device" "/dev/zero: is a character device (expected a sweep CSV)" /dev/zero
# A header of many figure columns is not "too many parameters".
awk 'BEGIN { printf "point,K,scenario,variant"; for (i = 0; i < 1000; i++) printf ",f%d", i; print "" }' >"$T/wide.csv"
merge_bad "1000 figure columns" "wide.csv:1:1: not a sweep CSV: more than [0-9]* columns" "$T/wide.csv"
# 100,000 points with a value each: linear (a search over the values seen
# made it 46 s), and the merge equals its input.
awk 'BEGIN { print "point,cores,scenario,variant,ops"; for (i = 0; i < 100000; i++) printf "%d,%d,\"t\",\"a\",1\n", i, i + 1 }' >"$T/big.csv"
start=$(date +%s)
expect_status "merge: 100,000 points" 0 timeout 60 "$BOUNCE" merge "$T/big.csv" --csv "$T/bigm.csv"
took=$(($(date +%s) - start))
[ "$took" -le 10 ] && ok "merge: 100,000 points in $took s" || bad "merge: 100,000 points took $took s"
cmp -s "$T/big.csv" "$T/bigm.csv" && ok "merge: 100,000 points: equals its one part" || bad "merge: 100,000 points differ"
# A point's variants are checked through a hash of point 0's, not a scan
# of the point's rows: 200,000 variants of one point took 439 s.
awk 'BEGIN { print "point,cores,scenario,variant,ops"; for (i = 0; i < 200000; i++) printf "0,1,\"t\",\"v%d\",1\n", i }' >"$T/wide200k.csv"
start=$(date +%s)
expect_status "merge: 200,000 variants of a point" 0 timeout 60 "$BOUNCE" merge "$T/wide200k.csv" --csv "$T/wide200km.csv"
took=$(($(date +%s) - start))
[ "$took" -le 10 ] && ok "merge: 200,000 variants in $took s" || bad "merge: 200,000 variants took $took s"
printf 'point,cores,scenario,variant,ops\n0,1,"t","a",1\n0,1,"t","b",1\n1,2,"t","a",1\n1,2,"t","a",1\n' >"$T/again.csv"
merge_bad "a variant again in a later point" 'again.csv:5:1: point 1, variant "a" again (also .*again.csv:4)' "$T/again.csv"
# merge honours SIGINT while it reads (it ran a 100,000-row part to its
# end and wrote the CSV): 10^6 rows take it a couple of seconds.
awk 'BEGIN { print "point,cores,scenario,variant,ops"; for (i = 0; i < 1000000; i++) printf "%d,%d,\"t\",\"a\",1\n", i, i + 1 }' >"$T/huge.csv"
expect_interrupt "merge: SIGINT while reading" 0.3 5 "$BOUNCE" merge "$T/huge.csv" --csv "$T/hugem.csv"
[ -e "$T/hugem.csv" ] && bad "merge: SIGINT: output written" || ok "merge: SIGINT: no output"
finish

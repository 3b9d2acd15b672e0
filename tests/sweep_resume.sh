#!/bin/sh
# Resumable sweeps: a sweep --csv F keeps each finished point in F.partial;
# SIGINT leaves it (exit 130, no F); --resume runs only the points it lacks
# and writes F byte for byte as an uninterrupted sweep does; a journal of
# another sweep (scenario, parameters) is refused with the reason; a record
# cut short by a kill is dropped, not read.
. "$top_srcdir/tests/lib.sh"

# Four points of a few milliseconds, then one of seconds: an interrupt at
# 1.5 s lands in the last, whatever the host's load within reason. The
# last is 256 cores (3.5 s on a 2-core host), 128 in the sanitizer build
# (4 s there; 256 takes 25 s and this test runs it three times).
big=256
if sanitized; then big=128; fi
cp "$top_srcdir/scenarios/scaling.json" "$T/s.json"
sed -i "s|\"lib/|\"$top_srcdir/scenarios/lib/|; s|\"scaling.s\"|\"$top_srcdir/scenarios/scaling.s\"|" "$T/s.json"
# (a function would run in a subshell under expect_interrupt, which a
# non-interactive shell starts with SIGINT ignored)
sweep() { "$BOUNCE" sweep "$T/s.json" --variant local_t_flip --set cores=1,2,4,8,$big --jobs 1 "$@"; }

expect_status "uninterrupted sweep" 0 sweep --csv "$T/full.csv"
[ -e "$T/full.csv.partial" ] && bad "a finished sweep left its journal" || ok "a finished sweep removes its journal"

expect_interrupt "sweep: SIGINT" 1.5 10 "$BOUNCE" sweep "$T/s.json" --variant local_t_flip --set cores=1,2,4,8,$big \
	--jobs 1 --csv "$T/r.csv" --no-progress
[ -e "$T/r.csv" ] && bad "an interrupted sweep wrote its CSV" || ok "an interrupted sweep writes no CSV"
expect_grep "the message names the journal" "kept in $T/r.csv.partial (the same sweep with --resume continues it)" "$T/err"
expect_eq "points kept" 4 "$(grep -c '^#end ' "$T/r.csv.partial")"
cp "$T/r.csv.partial" "$T/kept.partial"

# Another sweep's journal: refused, left as it was.
expect_status "--resume with another --seed" 2 sweep --csv "$T/r.csv" --seed 9 --resume
expect_grep "says the parameters differ" "r.csv.partial:4:1: this journal is of a sweep with other parameters" "$T/err"
cp "$T/s.json" "$T/s.orig"
sed -i 's/"seed": 1/"seed": 2/' "$T/s.json"
expect_status "--resume after the scenario changed" 2 sweep --csv "$T/r.csv" --resume
expect_grep "says the inputs differ" "r.csv.partial:3:1: this journal is of a sweep whose scenario, CPU model or programs have changed" "$T/err"
cp "$T/s.orig" "$T/s.json"
cmp -s "$T/r.csv.partial" "$T/kept.partial" && ok "a refused journal is left as it was" || bad "a refused journal changed"
expect_status "--resume without --csv" 2 sweep --resume
expect_grep "--resume needs --csv" "sweep: --resume needs --csv F" "$T/err"
expect_status "--resume with no journal" 2 sweep --csv "$T/none.csv" --resume
expect_grep "no journal" "none.csv.partial: no journal to resume" "$T/err"

# Resumed: the fifth point only, then the CSV of the uninterrupted sweep.
expect_status "--resume" 0 sweep --csv "$T/r.csv" --resume
cmp -s "$T/r.csv" "$T/full.csv" && ok "resumed CSV is byte-identical" || bad "resumed CSV differs"
[ -e "$T/r.csv.partial" ] && bad "the resumed sweep left its journal" || ok "the resumed sweep removes its journal"

# A record cut short (a worker killed in its write): that point runs again.
head -c -20 "$T/kept.partial" >"$T/c.csv.partial"
expect_status "--resume over a record cut short" 0 sweep --csv "$T/c.csv" --resume --jobs 2
cmp -s "$T/c.csv" "$T/full.csv" && ok "its CSV is byte-identical" || bad "its CSV differs"
# Not a journal at all.
echo "point,cores" >"$T/n.csv.partial"
expect_status "--resume over a file that is no journal" 2 sweep --csv "$T/n.csv" --resume
expect_grep "says so" "n.csv.partial:1:1: this journal is not a sweep journal" "$T/err"
finish

#!/bin/sh
# `bounce replay` end to end: the same two traces as plain files, gzip and a
# zip archive give the same counts (the hand-derived ones of check_replay's
# mesi_dirty_line); reading the traces on a thread of their own gives the
# same report; a bad record is file:line:col, exit 2, no output file.
. "$top_srcdir/tests/lib.sh"
F=$top_srcdir/tests/fixtures/replay

expect_status "plain traces" 0 "$BOUNCE" replay --json "$T/plain.json" --csv "$T/plain.csv" \
	"$F/pair_0.data" "$F/pair_1.data"
expect_eq "cpu by default" teaching-4core "$(jget "$T/plain.json" replay.cpu)"
expect_eq "format" teaching "$(jget "$T/plain.json" replay.traces.1.format)"
expect_eq "core 0 cycles" 101 "$(jget "$T/plain.json" cores.0.cycles)"
expect_eq "core 1 cycles" 330 "$(jget "$T/plain.json" cores.1.cycles)"
expect_eq "machine cycles" 330 "$(jget "$T/plain.json" totals.cycles)"
expect_eq "GETS" 2 "$(jget "$T/plain.json" totals.gets)"
expect_eq "UPGRADE" 1 "$(jget "$T/plain.json" totals.upgrades)"
expect_eq "bus broadcasts" 3 "$(jget "$T/plain.json" totals.bus_broadcasts)"
expect_eq "bytes from memory" 32 "$(jget "$T/plain.json" totals.bytes_memory)"
expect_eq "bytes cache to cache" 32 "$(jget "$T/plain.json" totals.bytes_c2c)"
expect_eq "bytes written back" 32 "$(jget "$T/plain.json" totals.bytes_writeback)"
expect_eq "shared accesses" 2 "$(jget "$T/plain.json" totals.shared_accesses)"
expect_eq "store misses" 1 "$(jget "$T/plain.json" cores.1.store_misses)"
expect_eq "CSV rows" 4 "$(wc -l <"$T/plain.csv")"
expect_grep "CSV total row" '^total,5,330,200,230,' "$T/plain.csv"
expect_grep "summary" '^upgrades ' "$T/out"

gzip -c "$F/pair_0.data" >"$T/pair_0.data.gz"
gzip -c "$F/pair_1.data" >"$T/pair_1.data.gz"
expect_status "gzip traces" 0 "$BOUNCE" replay --quiet --csv "$T/gz.csv" "$T/pair_0.data.gz" "$T/pair_1.data.gz"
expect_eq "gzip = plain" "$(cat "$T/plain.csv")" "$(cat "$T/gz.csv")"
expect_status "zip archive" 0 "$BOUNCE" replay --quiet --csv "$T/zip.csv" "$F/pair.zip"
expect_eq "zip (members out of order) = plain" "$(cat "$T/plain.csv")" "$(cat "$T/zip.csv")"

# reading the traces on a thread of their own changes nothing: 3 cores,
# 60 k records each (the reader's rings wrap many times), gzip and plain
sh "$top_srcdir/tests/replay_gen.sh" 3 60000 "$T/gen"
gzip -c "$T/gen_2.data" >"$T/gen_2.data.gz"
expect_status "one thread" 0 "$BOUNCE" replay --jobs 1 --json "$T/j1.json" "$T/gen_0.data" "$T/gen_1.data" "$T/gen_2.data.gz"
expect_status "a reader thread" 0 "$BOUNCE" replay --jobs 2 --json "$T/j2.json" "$T/gen_0.data" "$T/gen_1.data" "$T/gen_2.data.gz"
expect_eq "reader thread: same report" "$(cat "$T/j1.json")" "$(cat "$T/j2.json")"
expect_eq "reader thread: every record" 180000 "$(jget "$T/j2.json" totals.records)"
expect_status "--jobs 0" 2 "$BOUNCE" replay --jobs 0 "$T/gen_0.data"
expect_grep "--jobs 0: message" "--jobs: '0' is not an integer in 1..256" "$T/err"

printf '0 0x1000\n7 0x1000\n' | gzip -c >"$T/bad.data.gz"
expect_status "bad record" 2 "$BOUNCE" replay --json "$T/bad.json" "$T/bad.data.gz"
expect_grep "bad record: where and what" "bad.data.gz:2:1: expected a label 0 (load), 1 (store) or 2" "$T/err"
expect_eq "bad record: no output" no "$([ -e "$T/bad.json" ] && echo yes || echo no)"
# A gzip trace cut short or corrupt is refused where its readable data ends,
# not replayed as far as it reads (gzread ends a cut stream like a whole one).
head -c 4000 "$T/gen_2.data.gz" >"$T/cut.data.gz"
expect_status "cut gzip" 2 "$BOUNCE" replay --json "$T/cut.json" "$T/cut.data.gz"
expect_grep "cut gzip: where and what" \
	"cut.data.gz:[1-9][0-9]*:[1-9][0-9]*: cannot read the trace from here on: unexpected end of file" "$T/err"
expect_eq "cut gzip: no output" no "$([ -e "$T/cut.json" ] && echo yes || echo no)"
# the first deflate block's header (byte 10 when, from stdin, the gzip
# header names no file) set to 0xff: a reserved block type
gzip -c <"$T/gen_2.data" >"$T/corrupt.data.gz"
printf '\377' | dd of="$T/corrupt.data.gz" bs=1 seek=10 conv=notrunc 2>/dev/null
expect_status "corrupt gzip" 2 "$BOUNCE" replay --jobs 2 "$T/gen_0.data" "$T/corrupt.data.gz"
expect_grep "corrupt gzip: where and what" "corrupt.data.gz:1:1: cannot read the trace from here on: invalid block type" "$T/err"
# Bytes after the last gzip member that start no other are refused, as
# `gzip -t` refuses them (zlib's gzread dropped them unsaid); members one
# after another read as one trace.
{ gzip -c <"$T/gen_2.data"; echo garbage; } >"$T/trail.data.gz"
expect_status "gzip with trailing garbage" 2 "$BOUNCE" replay --json "$T/trail.json" "$T/trail.data.gz"
expect_grep "gzip with trailing garbage: where and what" \
	"trail.data.gz:[1-9][0-9]*:1: cannot read the trace from here on: trailing data after the gzip data" "$T/err"
expect_eq "gzip with trailing garbage: no output" no "$([ -e "$T/trail.json" ] && echo yes || echo no)"
head -n 30000 "$T/gen_2.data" | gzip -c >"$T/two.data.gz"
tail -n +30001 "$T/gen_2.data" | gzip -c >>"$T/two.data.gz"
expect_status "two gzip members" 0 "$BOUNCE" replay --quiet --csv "$T/two.csv" "$T/two.data.gz"
expect_status "the same trace plain" 0 "$BOUNCE" replay --quiet --csv "$T/one.csv" "$T/gen_2.data"
cmp -s "$T/two.csv" "$T/one.csv" && ok "two gzip members = plain" || bad "two gzip members differ from plain"
# A NUL byte ends a line for the parsers: what follows it is refused, not skipped.
printf '0 1000\n1 2000\000garbage\n' >"$T/nul.data"
expect_status "a NUL byte" 2 "$BOUNCE" replay --jobs 1 "$T/nul.data"
expect_grep "a NUL byte: where" "nul.data:2:7: NUL byte in the trace" "$T/err"
# A FIFO (or pipe) is refused before it is opened: nothing blocks, and no
# trace is half read by the look for a zip signature.
mkfifo "$T/fifo.data"
expect_status "a FIFO" 2 timeout 20 "$BOUNCE" replay --json "$T/fifo.json" "$T/fifo.data"
expect_grep "a FIFO: message" "fifo.data: is a FIFO (expected a trace file" "$T/err"
expect_status "missing trace" 2 "$BOUNCE" replay "$T/none.data"
expect_grep "missing trace: message" "none.data: cannot open the trace" "$T/err"
expect_status "no trace" 2 "$BOUNCE" replay
expect_status "unknown model" 2 "$BOUNCE" replay --cpu no-such-model "$F/pair_0.data"
# The outputs may replace no trace nor each other, and are written
# together or not at all.
cp "$F/pair_0.data" "$T/in.data"
expect_status "--json the trace" 2 "$BOUNCE" replay "$T/in.data" --json "$T/in.data"
expect_grep "--json the trace: message" "in.data: --json names the trace" "$T/err"
cmp -s "$F/pair_0.data" "$T/in.data" && ok "the trace is unchanged" || bad "replay replaced its trace"
expect_status "--json and --csv one file" 2 "$BOUNCE" replay "$T/in.data" --json "$T/r.out" --csv "$T/r.out"
expect_grep "--json and --csv one file: message" "name the same file" "$T/err"
expect_status "--csv in a missing directory" 2 "$BOUNCE" replay "$T/in.data" --json "$T/r.json" --csv "$T/nodir/r.csv"
[ -e "$T/r.json" ] && bad "--json written although --csv failed" || ok "no --json when --csv cannot be created"
for i in 0 1 2 3 4 5 6 7 8; do cp "$F/pair_0.data" "$T/t$i.data"; done
expect_status "more traces than the model's CPUs" 2 "$BOUNCE" replay --cpu x460-8way "$T"/t?.data
expect_grep "more traces than CPUs: message" "9 traces on the CPU model 'x460-8way', a core each: cores: 9 is more than the 8 logical CPUs" "$T/err"
printf 'PK\003\004junk' >"$T/broken.zip"
expect_status "broken zip" 2 "$BOUNCE" replay "$T/broken.zip"
expect_grep "broken zip: message" "broken.zip: cannot open the zip archive" "$T/err"
# A signal is polled while the readers read, not only per record: 3 GB of
# blank lines (300 gzip members of 10 MB each) yield no record, and SIGINT
# took 28 s to be honoured; here within a few seconds, with and without
# the read-ahead thread.
head -c 10000000 /dev/zero | tr '\0' '\n' | gzip -1 >"$T/nl.gz"
for i in $(seq 300); do cat "$T/nl.gz"; done >"$T/blank.data.gz"
for jobs in 1 2; do
	expect_interrupt "SIGINT amid blank lines, --jobs $jobs" 1 5 \
		"$BOUNCE" replay --jobs $jobs --json "$T/blank.json" "$T/blank.data.gz"
	[ -e "$T/blank.json" ] && bad "SIGINT amid blank lines: report written" || ok "SIGINT amid blank lines: no report"
done
# A zip is opened once, not once per member: 1024 members beside 10,000
# other entries took 46 s and 3.3 GB.
mkdir "$T/many"
awk 'BEGIN { for (i = 0; i < 10000; i++) print "other" i ".txt" }' | (cd "$T/many" && xargs touch)
awk -v dir="$T/many" 'BEGIN { for (i = 0; i < 1024; i++) { f = dir "/t_" i ".data"; print "0 10" >f; close(f) } }' </dev/null
(cd "$T/many" && zip -q ../many.zip ./*)
start=$(date +%s)
expect_status "zip of 1024 members and 10,000 other entries" 0 timeout 60 "$BOUNCE" replay --quiet --cpu manycore-1024 --csv "$T/many.csv" "$T/many.zip"
took=$(($(date +%s) - start))
[ "$took" -le 10 ] && ok "zip of 1024 members: $took s" || bad "zip of 1024 members took $took s"
expect_eq "zip of 1024 members: 1024 cores" 1024 "$(grep -c "^[0-9]" "$T/many.csv")"
# Out of descriptors is the machine's limit, said with its reason (exit 3).
(ulimit -n 30 && exec "$BOUNCE" replay --quiet --cpu manycore-1024 "$T"/many/t_*.data) >"$T/out" 2>"$T/err"
expect_eq "out of descriptors: exit status" 3 "$?"
expect_grep "out of descriptors: the reason" "cannot open the trace: Too many open files" "$T/err"
finish

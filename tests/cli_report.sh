#!/bin/sh
# What `bounce run` prints and writes besides the JSON: the summary (each
# variant's machine, columns aligned for any name), the CSV's cpu and seed
# columns, the c2c report with the instructions behind each line's HITMs,
# and where each core is when a run stops at its limit.
. "$top_srcdir/tests/lib.sh"

# Variants on different machines, one with a long name.
cat >"$T/inc.s" <<'S'
.data
counter: .quad 0
.text
worker:
    mov rcx, 20
again:
    lock inc qword ptr [counter]   ; the shared line
    mark op
    dec rcx
    jnz again
    hlt
S
cat >"$T/two.json" <<'S'
{"name": "two machines", "cpu": "x460-8way", "cores": 4, "seed": 3, "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "variants": [{"name": "small", "cores": 8},
              {"name": "a_variant_name_longer_than_sixteen", "cpu": "xeon-2s-icx", "cores": 16}]}
S
expect_status "two machines" 0 "$BOUNCE" run "$T/two.json" --csv "$T/two.csv" --json "$T/two.json.out" --c2c
sed -n '2,4p' "$T/out" >"$T/table"
expect_grep "row of the first variant: its machine" '^small  *x460-8way  *8 ' "$T/table"
expect_grep "row of the second: its own" '^a_variant_name_longer_than_sixteen  *xeon-2s-icx  *16 ' "$T/table"
expect_eq "table rows equally long (aligned)" 1 "$(awk '{ print length($0) }' "$T/table" | sort -u | wc -l)"
col() { awk -v w="$1" 'NR>1 { print index($0, w) }' "$T/table" | sort -u | wc -l; }
expect_eq "stopped column starts at one place" 1 "$(col halted)"
expect_grep "footprint has a unit" ' 8 B  *halted' "$T/table"
expect_grep "header has cpu and cores" '^variant  *cpu  *cores  *cycles' "$T/table"

# CSV: the variant's cpu and the seed, last.
expect_grep "csv header ends in cpu,seed,notes" ',stopped,cpu,seed,notes$' "$T/two.csv"
expect_eq "csv header, every column" "scenario,variant,core_count,cycles,seconds,instructions,ops,ops_per_sec,\
bounces_per_op,bounces,hitm,hitm_remote,c2c_transfers,invalidations,locked_ops,locked_cycles,mem_reads,writebacks,\
max_error,footprint,stopped,cpu,seed,notes" "$(sed -n 1p "$T/two.csv")"
# A variant's figures as the JSON report has them, in the CSV's order.
csv_figures() {
	r="\"two machines\",\"$1\""
	for k in core_count cycles seconds instructions ops ops_per_sec bounces_per_op totals.bounces totals.hitm \
		totals.hitm_remote totals.c2c_transfers totals.invalidations totals.locked_ops totals.locked_cycles \
		totals.mem_reads totals.writebacks; do
		r="$r,$(jget "$T/two.json.out" "variants.$1.$k")"
	done
	echo "$r"
}
expect_eq "csv row of the small variant, every column the JSON's" \
	"$(csv_figures small),,8,halted,\"x460-8way\",3," "$(sed -n 2p "$T/two.csv")"
expect_eq "csv row of the long variant, every column the JSON's" \
	"$(csv_figures a_variant_name_longer_than_sixteen),,8,halted,\"xeon-2s-icx\",3," "$(sed -n 3p "$T/two.csv")"

# The c2c report: the counter's line, and the instruction behind it.
v=variants.small.lines.0
expect_eq "JSON: one instruction behind the line" 1 "$(jget "$T/two.json.out" $v.instructions)"
expect_eq "JSON: its place" "inc.s:7" "$(jget "$T/two.json.out" $v.instructions.0.at)"
expect_eq "JSON: its text" "lock inc qword ptr [counter]" "$(jget "$T/two.json.out" $v.instructions.0.insn)"
expect_eq "JSON: all the line's HITMs are its" "$(jget "$T/two.json.out" $v.hitm)" \
	"$(jget "$T/two.json.out" $v.instructions.0.hitm)"
expect_eq "JSON: all the line's bounces are its" "$(jget "$T/two.json.out" $v.bounces)" \
	"$(jget "$T/two.json.out" $v.instructions.0.bounces)"
expect_grep "c2c section per variant" '^c2c: variant small (x460-8way, 8 cores): 1 shared line, those several cores write first, then by HITM$' "$T/out"
expect_grep "c2c names the line's symbol" '#1 line 0x[0-9a-f]* (data: counter):' "$T/out"
expect_grep "c2c offset row with writer ranges" 'counter+0  *8 .* 0-7  *0-7$' "$T/out"
expect_grep "c2c code row" ' inc.s:7  *lock inc qword ptr \[counter\]$' "$T/out"

# proto_inuse's unpadded array: false sharing, three instructions (the inc,
# the final sum's add and the dec) whose HITMs add up to the line's (the
# model fixes them exactly; ties in HITM go to the instruction with more
# bounces).
P=$top_srcdir/scenarios/proto_inuse.json
expect_status "proto_inuse --c2c" 0 "$BOUNCE" run "$P" --json "$T/pi.json" --c2c
l=variants.unpadded.lines.1
expect_eq "line hitm" 4262 "$(jget "$T/pi.json" $l.hitm)"
expect_eq "first instruction" "lib/proto_inuse.s:77 inc dword ptr [rdi + rax*4] 4256 4091" \
	"$(jget "$T/pi.json" $l.instructions.0.at) $(jget "$T/pi.json" $l.instructions.0.insn) $(jget "$T/pi.json" $l.instructions.0.hitm) $(jget "$T/pi.json" $l.instructions.0.bounces)"
expect_eq "second instruction" "lib/proto_inuse.s:91 4 0" \
	"$(jget "$T/pi.json" $l.instructions.1.at) $(jget "$T/pi.json" $l.instructions.1.hitm) $(jget "$T/pi.json" $l.instructions.1.bounces)"
expect_eq "third instruction" "lib/proto_inuse.s:83 2" \
	"$(jget "$T/pi.json" $l.instructions.2.at) $(jget "$T/pi.json" $l.instructions.2.hitm)"
expect_eq "no fourth instruction" 3 "$(jget "$T/pi.json" $l.instructions)"
expect_grep "c2c says false sharing" '4262 HITM (1089 remote), 4154 bounces, 7280 invalidations, 8 cores write it, FALSE SHARING' "$T/out"
expect_grep "c2c shows the busiest instruction" '4256  *1088  *4091  lib/proto_inuse.s:77 inc dword ptr \[rdi + rax\*4\]' "$T/out"

# A line read dirty from its writer's cache and never written by another
# core has HITMs but no bounce or invalidation (CPU 0 summing the other
# CPUs' per-CPU copies): it is in the shared-line table, so that the lines'
# HITMs add up to the variant's, as the report's definition of the table
# says. CPUs 1-3 each write their copy once; CPU 0 then reads the three.
cat >"$T/sum.s" <<'S'
.data
.align 64
done: .quad 0
.percpu
.align 64
mine: .quad 0
.text
worker:
    mov rax, CPU
    test rax, rax
    jz reader
    mov qword ptr gs:[mine], 1      ; this CPU's copy, in M in its cache
    lock inc qword ptr [done]
    hlt
reader:
    cmp qword ptr [done], NR_CPUS - 1
    jne reader
    mov rcx, 1
sum:
    mov rdx, qword ptr [__per_cpu_offset + rcx*8]
    add rax, qword ptr [rdx + mine]  ; read dirty from its writer: a HITM
    inc rcx
    cmp rcx, NR_CPUS
    jl sum
    hlt
S
cat >"$T/sum.json" <<'S'
{"name": "per-CPU sum", "cpu": "x460-8way", "cores": 4, "program": ["sum.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["mine", "done"]}
S
expect_status "per-CPU sum --c2c" 0 "$BOUNCE" run "$T/sum.json" --json "$T/sum.out" --c2c
v=variants.default
expect_eq "variant HITM: 3 on done, 1 on each of 3 copies" 6 "$(jget "$T/sum.out" $v.totals.hitm)"
expect_eq "the copies' HITMs" 3 "$(jget "$T/sum.out" $v.symbols.mine.hitm)"
expect_eq "lines: done's and the three copies'" 4 "$(jget "$T/sum.out" $v.lines)"
for i in 1 2 3; do
	expect_eq "line $i: CPU $i's copy, 1 HITM, no bounce" "percpu mine+0@cpu$i 1 0 sum.s:21" \
		"$(jget "$T/sum.out" $v.lines.$i.region) $(jget "$T/sum.out" $v.lines.$i.offsets.0.at) $(jget "$T/sum.out" $v.lines.$i.hitm) $(jget "$T/sum.out" $v.lines.$i.bounces) $(jget "$T/sum.out" $v.lines.$i.instructions.0.at)"
done
expect_grep "c2c counts them" '^c2c: variant default (x460-8way, 4 cores): 4 shared lines, those several cores write first, then by HITM$' "$T/out"

# A thread starts at a cycle the seed draws in 0..100 (docs/report-format.md):
# a lone hlt on one core halts there, and its core accounts no cycle.
printf '.text\nworker:\n    hlt\n' >"$T/hlt.s"
cat >"$T/hlt.json" <<'S'
{"cpu": "x460-8way", "cores": 1, "seed": 0, "program": "hlt.s", "threads": [{"cpus": "all", "entry": "worker"}]}
S
expect_status "a lone hlt" 0 "$BOUNCE" run "$T/hlt.json" --json "$T/hlt.out"
expect_eq "variant cycles: the start of seed 0's thread" 85 "$(jget "$T/hlt.out" variants.default.cycles)"
expect_eq "the core's cycles: none" "0 0 0" "$(jget "$T/hlt.out" variants.default.cores.0.cycles.busy) $(jget "$T/hlt.out" variants.default.cores.0.cycles.l1_hit) $(jget "$T/hlt.out" variants.default.cores.0.cycles.sb_stall)"

# --c2c ranks what a user would fix: the lines several cores write first;
# per-CPU copies a sum read once are counted, not listed.
expect_status "c2c ranking" 0 "$BOUNCE" run "$top_srcdir/scenarios/scaling.json" --variant percpu_counter \
	--cores 32 --c2c -q
expect_grep "c2c: the shared counter first" '^  #1 line 0x[0-9a-f]* (data: counter_fbc): .*, 32 cores write it$' "$T/out"
# The queued spinlock's node lines (several waiters write each) come next;
# the 32 per-CPU copies the final sum reads once are never among the ten.
expect_grep "c2c: the waiters' nodes next" '^  #3 line 0x[0-9a-f]* (percpu: qnodes): ' "$T/out"
if grep -q 'counter_fbc_pcpu' "$T/out"; then bad "c2c: a per-CPU copy listed"; else ok "c2c: per-CPU copies summed up, not listed"; fi
expect_grep "c2c: the rest counted" '^  \.\.\. [0-9]* more lines' "$T/out"
expect_eq "c2c: no per-CPU copy listed" 0 "$(grep -c '^  #.*percpu: counter_fbc_pcpu' "$T/out")"

# Six instructions behind one line: five shown, "1 more instruction".
# (inc.s with its locked increment written six times)
awk '/lock inc/ { for (i = 0; i < 6; i++) print; next } { print }' "$T/inc.s" >"$T/six.s"
cat >"$T/six.json" <<'S'
{"name": "six", "cpu": "x460-8way", "cores": 4, "program": ["six.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"]}
S
expect_status "six instructions" 0 "$BOUNCE" run "$T/six.json" --c2c -q
expect_grep "c2c: one more instruction, singular" '^      \.\.\. 1 more instruction (--json has them all)$' "$T/out"

# Notes: what a reader must know before trusting a figure, with its
# numbers, under the summary and in the JSON, CSV, Markdown and JUnit.
# A percpu_counter whose batch (2000) is more than the 1000 adds each CPU
# makes (NR_UPDATES, which the scenario otherwise scales with the batch) never folds: every read that is off returns 0.
S=$top_srcdir/scenarios
# (The scenario's own expectations on the final error then fail: exit 1.)
expect_status "never folded" 1 "$BOUNCE" run "$S/percpu_accuracy.json" --variant cores8 --set FBC_BATCH=2000 --set NR_UPDATES=1000 \
	--json "$T/fold.json" --csv "$T/fold.csv" --markdown "$T/fold.md" --junit "$T/fold.xml"
expect_eq "never folded: the note" never_folded "$(jget "$T/fold.json" variants.cores8.notes.0.kind)"
expect_eq "never folded: its symbol" fbc "$(jget "$T/fold.json" variants.cores8.notes.0.symbol)"
expect_eq "never folded: every off read blind" "$(jget "$T/fold.json" variants.cores8.notes.0.evidence.off_reads)" \
	"$(jget "$T/fold.json" variants.cores8.notes.0.evidence.blind_reads)"
expect_eq "never folded: max error the whole count, 8 x 1000" 8000 \
	"$(jget "$T/fold.json" variants.cores8.notes.0.evidence.max_error)"
expect_grep "never folded: under the summary" '^note cores8: fbc: every approximate read that was off (.* returned 0' "$T/out"
expect_grep "never folded: the CSV's notes column" ',never_folded$' "$T/fold.csv"
expect_grep "never folded: Markdown" '^- `cores8`: fbc: every approximate read' "$T/fold.md"
expect_grep "never folded: JUnit system-out" '<system-out>note cores8: fbc: ' "$T/fold.xml"
expect_status "folding" 0 "$BOUNCE" run "$S/percpu_accuracy.json" --variant cores8 --json "$T/fold32.json"
expect_eq "folding (batch 32): no note" "" "$(jget "$T/fold32.json" variants.cores8.notes.0.kind 2>/dev/null)"
# Fewer operations than cores; a run that is mostly first touches.
# lines_of NAME...: a .data section of one quad on a line of its own each
lines_of() { printf '.data\n'; for n in "$@"; do printf '.align 64\n%s: .quad 0\n' "$n"; done; }
{ lines_of a b; cat <<'S'
.text
worker:
    mov rax, qword ptr [a]
    mov rax, qword ptr [b]
    cmp rax, CPU
    jne done
    mark op
done:
    hlt
S
} >"$T/touch.s"
# scenario_of FILE CORES PROGRAM: every CPU runs worker, symbol a reported
scenario_of() {
	printf '{"name": "t", "cpu": "x460-8way", "cores": %s, "program": ["%s"],\n "threads": [{"cpus": "all", "entry": "worker"}], "report": ["a"]}\n' \
		"$2" "$3" >"$1"
}
scenario_of "$T/touch.json" 4 touch.s
expect_status "few ops" 0 "$BOUNCE" run "$T/touch.json" --json "$T/touch.out"
expect_eq "few ops: the note" "few_ops 1 4" "$(jget "$T/touch.out" variants.default.notes.0.kind) $(jget "$T/touch.out" variants.default.notes.0.evidence.ops) $(jget "$T/touch.out" variants.default.notes.0.evidence.cores)"
expect_grep "few ops: says so" '^note default: 1 operation on 4 cores, fewer than one per core' "$T/out"
expect_eq "few ops: no other note (2 lines touched: 14% of the cycles)" "" \
	"$(jget "$T/touch.out" variants.default.notes.1.kind 2>/dev/null)"
{ lines_of a b c d; cat <<'S'
.text
worker:
    mov rax, qword ptr [a]
    mov rax, qword ptr [b]
    mov rax, qword ptr [c]
    mov rax, qword ptr [d]
    mark op
    hlt
S
} >"$T/cold.s"
scenario_of "$T/cold.json" 1 cold.s
expect_status "warm-up" 0 "$BOUNCE" run "$T/cold.json" --json "$T/cold.out"
expect_eq "warm-up: the note" warm_up "$(jget "$T/cold.out" variants.default.notes.0.kind)"
expect_eq "warm-up: 4 lines touched, 700 cycles each" "4 700" \
	"$(jget "$T/cold.out" variants.default.notes.0.evidence.lines_touched) $(jget "$T/cold.out" variants.default.notes.0.evidence.lat_mem_local)"
expect_grep "warm-up: says the share" \
	"^note default: the first touch of its 4 lines, a fetch from memory of 700 cycles or more each, is 99% of the cores' 2817 cycles, over 25%" "$T/out"
# Eight cores queueing on one test-and-set lock held for 2000 cycles: on
# the x460 (pause 10 cycles) a fifth of their cycles are pause and half
# are misses on the lock's line.
cat >"$T/lock.s" <<'S'
.text
worker:
    mov rbx, 4
again:
    lea rdi, [lock]
    call spin_lock
    work 2000
    lea rdi, [lock]
    call spin_unlock
    mark op
    dec rbx
    jnz again
    hlt
.data
lock: .long 0
S
cat >"$T/lock.json" <<'S'
{"name": "lock", "cpu": "x460-8way", "cores": 8, "program": ["lib/spinlock.s", "lock.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["lock"]}
S
expect_status "spinning" 0 "$BOUNCE" run "$T/lock.json" --json "$T/lock.out"
expect_eq "spinning: the note" spinning "$(jget "$T/lock.out" variants.default.notes.0.kind)"
expect_grep "spinning: says the shares" \
	"^note default: its cores spun (pause, in lock wait loops) 21% of their [0-9]* cycles and stalled on misses 53% .*, 74% in all" "$T/out"
expect_eq "spinning: evidence" "203140 524464" \
	"$(jget "$T/lock.out" variants.default.notes.0.evidence.spin_cycles) $(jget "$T/lock.out" variants.default.notes.0.evidence.miss_stall_cycles)"
# The same contention on a locked increment, no lock and no pause: no note.
expect_status "no lock" 0 "$BOUNCE" run "$T/six.json" --json "$T/six.out"
expect_eq "no lock: no spinning note" "" "$(jget "$T/six.out" variants.default.notes.0.kind 2>/dev/null)"

# A run stopped at its limit says where each unfinished core is.
cat >"$T/spin.s" <<'S'
.data
flag: .quad 0
.text
worker:
    mov rbx, CPU
    cmp rbx, 3
    je done
spin:                           ; one fused op: every spinning core is at it,
    cmp qword ptr [flag], 0     ; whenever its load missed; nobody sets flag
    je spin
done:
    hlt
S
cat >"$T/spin.json" <<'S'
{"name": "spin", "cpu": "x460-8way", "cores": 8, "program": ["spin.s"],
 "stop": {"cycles": 100000, "halt": true}, "threads": [{"cpus": "0-6", "entry": "worker"}]}
S
expect_status "stopped at the limit" 0 "$BOUNCE" run "$T/spin.json"
expect_grep "says so" "stopped at limit (100000 cycles) before every thread halted" "$T/err"
expect_grep "where the spinning cores are" '^  cores 0-2,4-6 ([a-z_]*): spin.s:[0-9]*  ' "$T/err"
expect_eq "one line for them, none for the halted core" 1 "$(grep -c '^  core' "$T/err")"
finish

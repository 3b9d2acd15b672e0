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
expect_grep "csv header ends in cpu,seed" ',stopped,cpu,seed$' "$T/two.csv"
expect_grep "csv row of the small variant" '^"two machines","small",8,.*,halted,"x460-8way",3$' "$T/two.csv"
expect_grep "csv row of the long variant" '^"two machines","a_variant_name_longer_than_sixteen",16,.*,"xeon-2s-icx",3$' "$T/two.csv"

# The c2c report: the counter's line, and the instruction behind it.
v=variants.small.lines.0
expect_eq "JSON: one instruction behind the line" 1 "$(jget "$T/two.json.out" $v.instructions)"
expect_eq "JSON: its place" "inc.s:7" "$(jget "$T/two.json.out" $v.instructions.0.at)"
expect_eq "JSON: its text" "lock inc qword ptr [counter]" "$(jget "$T/two.json.out" $v.instructions.0.insn)"
expect_eq "JSON: all the line's HITMs are its" "$(jget "$T/two.json.out" $v.hitm)" \
	"$(jget "$T/two.json.out" $v.instructions.0.hitm)"
expect_eq "JSON: all the line's bounces are its" "$(jget "$T/two.json.out" $v.bounces)" \
	"$(jget "$T/two.json.out" $v.instructions.0.bounces)"
expect_grep "c2c section per variant" '^c2c: variant small (x460-8way, 8 cores): 1 shared line, by HITM$' "$T/out"
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
expect_grep "c2c says false sharing" '4262 HITM (1089 remote), 4154 bounces, 7280 invalidations, FALSE SHARING' "$T/out"
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
expect_grep "c2c counts them" '^c2c: variant default (x460-8way, 4 cores): 4 shared lines, by HITM$' "$T/out"

# A thread starts at a cycle the seed draws in 0..100 (docs/report-format.md):
# a lone hlt on one core halts there, and its core accounts no cycle.
printf '.text\nworker:\n    hlt\n' >"$T/hlt.s"
cat >"$T/hlt.json" <<'S'
{"cpu": "x460-8way", "cores": 1, "seed": 0, "program": "hlt.s", "threads": [{"cpus": "all", "entry": "worker"}]}
S
expect_status "a lone hlt" 0 "$BOUNCE" run "$T/hlt.json" --json "$T/hlt.out"
expect_eq "variant cycles: the start of seed 0's thread" 85 "$(jget "$T/hlt.out" variants.default.cycles)"
expect_eq "the core's cycles: none" "0 0 0" "$(jget "$T/hlt.out" variants.default.cores.0.cycles.busy) $(jget "$T/hlt.out" variants.default.cores.0.cycles.l1_hit) $(jget "$T/hlt.out" variants.default.cores.0.cycles.sb_stall)"

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

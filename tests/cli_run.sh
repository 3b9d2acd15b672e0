#!/bin/sh
# Batch mode end to end on the built-in default and on small scenarios whose
# counts the model defines exactly: report shape, determinism, every output
# format, expectation exit statuses, and atomic output under SIGINT.
. "$top_srcdir/tests/lib.sh"

# The built-in default: the seed's memory_allocated, atomic_t vs percpu_counter.
expect_status "default scenario" 0 "$BOUNCE" run --json "$T/a.json" --csv "$T/a.csv" \
	--junit "$T/a.xml" --markdown "$T/a.md" --trace "$T/a.trace"
expect_grep "summary names both variants" "percpu" "$T/out"
expect_eq "report has two variants" 2 "$(jget "$T/a.json" variants)"
for k in bounces hitm hitm_remote c2c_transfers invalidations locked_ops locked_cycles mem_reads writebacks; do
	jget "$T/a.json" "variants.atomic.totals.$k" >/dev/null && ok "totals.$k present" || bad "totals.$k missing"
done
atomic_b=$(jget "$T/a.json" variants.atomic.symbols.tcp_memory_allocated.bounces)
percpu_b=$(jget "$T/a.json" variants.percpu.symbols.tcp_memory_allocated.bounces)
if [ "${atomic_b%.*}" -gt $(( ${percpu_b%.*} * 5 )) ]; then ok "atomic bounces ($atomic_b) >> percpu ($percpu_b)"
else bad "atomic bounces $atomic_b not >> percpu $percpu_b"; fi
jget "$T/a.trace" . >/dev/null && ok "trace is valid JSON" || bad "trace is not valid JSON"
expect_grep "trace has core tracks" '"core 7"' "$T/a.trace"
expect_grep "junit has test cases" "<testcase" "$T/a.xml"
expect_grep "csv has the header" "^scenario,variant,core_count,cycles" "$T/a.csv"
expect_eq "csv has a row per variant" 3 "$(wc -l <"$T/a.csv")"
expect_grep "markdown table" "| atomic |" "$T/a.md"

# Determinism: same scenario and seed, byte-identical JSON; another seed differs.
"$BOUNCE" run --quiet --json "$T/b.json"
cmp -s "$T/a.json" "$T/b.json" && ok "same seed: identical JSON" || bad "same seed: JSON differs"
"$BOUNCE" run --quiet --seed 7 --json "$T/c.json"
cmp -s "$T/a.json" "$T/c.json" && bad "another seed gave identical JSON" || ok "another seed: different JSON"

# Exact counts: 8 cores each do one locked increment of one shared line.
cat >"$T/inc.s" <<'S'
.equ ROUNDS, 1
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
{"name": "inc", "cpu": "x460-8way", "cores": 8, "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "defines": {"ROUNDS": 100},
 "expect": [{"metric": "variants.default.symbols.counter.value", "equals": 800},
            {"metric": "variants.default.totals.locked_ops", "equals": 800}]}
S
expect_status "exact locked increments" 0 "$BOUNCE" run "$T/inc.json" --json "$T/inc.out.json" --junit "$T/inc.xml"
expect_eq "final value" 800 "$(jget "$T/inc.out.json" variants.default.symbols.counter.value)"
expect_eq "ops" 800 "$(jget "$T/inc.out.json" variants.default.ops)"
expect_eq "expectations ok" true "$(jget "$T/inc.out.json" expectations.0.ok)"
# A failing expectation: exit 1, the report still written, JUnit shows the failure.
expect_status "failed expectation" 1 "$BOUNCE" run "$T/inc.json" --set ROUNDS=50 --json "$T/inc.fail.json" --junit "$T/inc.fail.xml"
expect_eq "failed expectation recorded" false "$(jget "$T/inc.fail.json" expectations.0.ok)"
expect_grep "junit failure" "<failure" "$T/inc.fail.xml"
expect_grep "summary says FAIL" "FAIL" "$T/out"

# --check runs the invariant checker after every transaction.
expect_status "--check" 0 "$BOUNCE" run "$T/inc.json" --check --quiet

# An interrupt is taken only between instructions: a locked add that
# waited for its line is made before a handler can run and let the line
# go. 64 cores of manycore-1024 each do one lock xadd on one line under a
# softirq every 1000 cycles (a fuzzer's case): each core waits about 64
# transfers, so a softirq is nearly always pending when its line comes.
# Taken there, it let a forwarded snoop take the line first, the add
# missed again, and 4 of the 64 were done when the run stopped at its
# default limit of 125 M cycles. The figures are the model's for seed 0.
cat >"$T/xadd_irq.s" <<'S'
.data
.align 64
counter: .quad 0
.percpu
.align 64
fetched: .quad 0
.text
worker:
    mov rax, 1
    lock xadd qword ptr [counter], rax
    mov qword ptr gs:[fetched], rax
    hlt
softirq:
    ret
S
cat >"$T/xadd_irq.json" <<'S'
{"name": "xadd_irq", "cpu": "manycore-1024", "cores": 64, "program": ["xadd_irq.s"],
 "threads": [{"cpus": "all", "entry": "worker"}],
 "interrupts": [{"cpus": "all", "kind": "soft", "handler": "softirq", "every": 1000}],
 "report": ["counter", "fetched"]}
S
expect_status "locked adds under softirqs" 0 "$BOUNCE" run "$T/xadd_irq.json" --json "$T/xadd_irq.out.json"
xi() { jget "$T/xadd_irq.out.json" "variants.default.$1"; }
expect_eq "softirqs: every thread halted" halted "$(xi stopped)"
expect_eq "softirqs: locked ops" 64 "$(xi totals.locked_ops)"
expect_eq "softirqs: final counter" 64 "$(xi symbols.counter.value)"
expect_eq "softirqs: fetched values 0..63" 2016 "$(xi symbols.fetched.value)"
expect_eq "softirqs: handlers run" 128 "$(xi totals.irqs)"
expect_eq "softirqs: instructions (4 a thread, a ret a handler)" 384 "$(xi instructions)"
expect_eq "softirqs: cycles" 8802 "$(xi cycles)"
expect_status "locked adds under softirqs, --check" 0 "$BOUNCE" run "$T/xadd_irq.json" --check --json "$T/xadd_irq.check.json"
cmp -s "$T/xadd_irq.out.json" "$T/xadd_irq.check.json" && ok "softirqs: --check gives the same report" ||
	bad "softirqs: --check changed the report"

# SIGINT on a long run: it stops, says how far it got, and writes no report.
cat >"$T/forever.s" <<'S'
.data
counter: .quad 0
.text
worker:
    lock inc qword ptr [counter]
    jmp worker
S
cat >"$T/forever.json" <<'S'
{"name": "forever", "cpu": "x460-8way", "cores": 8, "program": ["forever.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "stop": {"cycles": 1000000000000}}
S
for sig in INT TERM; do
	rm -f "$T/forever.out.json"
	"$BOUNCE" run "$T/forever.json" --json "$T/forever.out.json" 2>"$T/forever.err" >/dev/null &
	pid=$!
	sleep 1
	kill -$sig $pid
	reap $pid 60
	st=$?
	expect_eq "SIG$sig: exit status" 130 "$st"
	expect_grep "SIG$sig: says how far it got" "interrupted .* at cycle" "$T/forever.err"
	if [ -e "$T/forever.out.json" ]; then bad "SIG$sig: partial report"; else ok "SIG$sig: no report file"; fi
	leftovers=$(ls "$T" | grep -c 'forever.out.json.tmp' || true)
	expect_eq "SIG$sig: no temporary left" 0 "$leftovers"
done
# --cpu replaces the scenario's model: the core count must fit the new model
# (x460-8way has 8 CPUs, the 8-socket Xeon 448), and only it.
v="$top_srcdir/scenarios/validate.json"
expect_status "--cpu with more cores than the scenario's own model" 0 \
	"$BOUNCE" run "$v" --cpu xeon-8176-8s --cores 16 --set NR_OPS=50 --quiet --json "$T/big.json"
expect_eq "it ran on the override" 16 "$(jget "$T/big.json" cores)"
expect_status "--cores beyond the override's CPUs" 2 "$BOUNCE" run "$v" --cpu x460-8way --cores 16
expect_grep "names the limit" "more than the 8 logical CPUs" "$T/err"
# docs/scenario-format.md's complete example runs as shown, saved anywhere
# (its programs are the catalogue's), and meets its expectations.
sed -n '/^## Complete example/,/^## Keys/p' "$top_srcdir/docs/scenario-format.md" |
	sed -n '/^```json$/,/^```$/p' | sed '1d;$d' >"$T/example.json"
expect_status "scenario-format.md's complete example" 0 "$BOUNCE" run "$T/example.json" --json "$T/example.out"
expect_eq "the example: three variants" 3 "$(jget "$T/example.out" variants)"
expect_eq "the example: its third variant's own machine" 96 "$(jget "$T/example.out" variants.bh_disable-epyc.core_count)"
# A `work N` is charged whole, so it can take the core's clock past the fill
# its buffered store waits for; the hlt that drains the buffer then must not
# take the clock back to the fill. One core on x460-8way starts at cycle 85
# (seed 0); the store's line comes from memory at 789, long before the work
# ends: the core halts at 85 + 2000, every cycle of it in one category.
cat >"$T/ahead.s" <<'S'
.data
.align 64
x: .quad 0
.text
worker:
    mov qword ptr [x], 1
    work 2000
    hlt
S
cat >"$T/ahead.json" <<'S'
{"cpu": "x460-8way", "cores": 1, "program": "ahead.s", "threads": [{"cpus": "all", "entry": "worker"}]}
S
expect_status "store, long work, hlt" 0 "$BOUNCE" run "$T/ahead.json" --json "$T/ahead.out"
v=variants.default
expect_eq "halted after the work" 2085 "$(jget "$T/ahead.out" $v.cycles)"
expect_eq "no store-buffer stall: the line came during the work" 0 "$(jget "$T/ahead.out" $v.cores.0.cycles.sb_stall)"
expect_eq "busy: the work" 2000 "$(jget "$T/ahead.out" $v.cores.0.cycles.busy)"

finish

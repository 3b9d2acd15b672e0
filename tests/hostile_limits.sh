#!/bin/sh
# Inputs that parse but would exhaust the machine: cores, cycles, memory,
# caches the host cannot hold, endless loops, interrupt sources, wall-clock
# limits. Each is refused with exit 2 and one clear message that points at
# it, or bounded, quickly. hostile_input.sh has the inputs that are
# malformed or not files we can read, hostile_lists.sh the long lists; they
# are three files so that make check -j runs them side by side.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/hostile_lib.sh"

# ---- resources ----
scen "$T/cores.json" 1000000 good.s
refuse "check: a million cores" 'cores.json:1:[0-9]*: \$.cores: .*out of range' check "$T/cores.json"

scen "$T/stop.json" 8 good.s ',
 "stop": {"cycles": 1000000000000000}'
refuse "a 10^15-cycle stop" 'stop.json:4:[0-9]*: \$.stop.cycles: .*maximum stop of 1000000000000' \
	check "$T/stop.json"
scen "$T/stop_ok.json" 8 good.s ',
 "stop": {"cycles": 1000000000000, "halt": true}'
expect_status "a 10^12-cycle stop is allowed" 0 "$BOUNCE" check "$T/stop_ok.json" --quiet

# Memory is sparse: a 1 GiB .space of zeros is allowed, 4 GiB or 64 MiB
# filled with a non-zero value are not.
printf '.data\nbuf: .space 1073741824\n.text\nworker:\n    hlt\n' >"$T/space1g.s"
scen "$T/space1g.json" 8 space1g.s
expect_status "a 1 GiB .space of zeros is allowed" 0 "$BOUNCE" check "$T/space1g.json" --quiet
printf '.data\nbuf: .space 4294967296\n.text\nworker:\n    hlt\n' >"$T/space.s"
scen "$T/space.json" 8 space.s
refuse "a 4 GiB .space" 'space.s:2:[0-9]*: 4294967296 more bytes would make .data 4294967296 bytes, over its limit of 2147483648 (2 GiB)' check "$T/space.json"
printf '.data\nbuf: .space 100000000, 1\n.text\nworker:\n    hlt\n' >"$T/fill.s"
scen "$T/fill.json" 8 fill.s
refuse "a 100 MB non-zero .space" 'fill.s:2:[0-9]*: .space fills more than' check "$T/fill.json"

# Small per CPU, too much times 1024 CPUs: refused, not an out-of-memory.
printf '.percpu\nbuf: .space 1048576\n.text\nworker:\n    hlt\n' >"$T/percpu.s"
printf '{"name": "t", "cpu": "manycore-1024", "program": ["percpu.s"],\n "threads": [{"cpus": "0", "entry": "worker"}]}\n' >"$T/percpu.json"
refuse "1 MiB .percpu times 1024 CPUs" 'percpu.s:2:[0-9]*: 1048576 more bytes of .percpu would make the simulated memory .* bytes beyond .data (1024 per-CPU copies of .percpu, stacks), over its limit of 268435456 (256 MiB): [0-9]* more bytes of .percpu fit' check "$T/percpu.json"

# Caches the host cannot hold: a model whose L1s (and LLCs) on its cores
# would take more than the 4 GiB host budget is refused at load, at the key,
# for check, run and sweep alike, as bad input (exit 2), not as an internal
# out-of-memory error (or AddressSanitizer's abort) while building it.
# bigcpu FILE CORES L1_SIZE: 16-byte lines, direct-mapped, no LLC
bigcpu() {
	printf '{"name": "big", "ghz": 1, "cores": %s, "cores_per_socket": 16, "line_size": 16,\n "l1_size": %s, "l1_assoc": 1,\n "lat_l1_hit": 1, "lat_c2c_local": 10, "lat_c2c_remote": 10, "lat_mem_local": 100, "lat_mem_remote": 100,\n "lat_locked_op": 0, "lat_mfence": 0, "lat_pause": 0, "sb_entries": 1, "fabric": "directory", "protocol": "MESI"}\n' \
		"$2" "$3" >"$1"
}
bigcpu "$T/l1big.json" 1024 16777216
printf '{"name": "t", "cpu": "l1big.json", "program": ["good.s"], "threads": [{"cpus": "0", "entry": "worker"}]}\n' >"$T/l1big_s.json"
refuse "16 MiB L1s on 1024 cores" 'l1big.json:2:13: \$.l1_size: the caches of 1024 cores (L1s of 16777216 bytes, in 16-byte lines) would take 41985 MiB of host memory, over the limit of 4096 MiB (99 of these cores fit)' \
	run "$T/l1big_s.json" --json "$T/l1big.out.json"
[ -e "$T/l1big.out.json" ] && bad "16 MiB L1s: report written" || ok "16 MiB L1s: no report written"
bigcpu "$T/l1big32.json" 1024 33554432
sed 's/l1big/l1big32/' "$T/l1big_s.json" >"$T/l1big32_s.json"
refuse "32 MiB L1s on 1024 cores (2^31 lines)" 'l1big32.json:2:13: .*would take 83969 MiB of host memory, over the limit of 4096 MiB (49 of these cores fit)' \
	check "$T/l1big32_s.json"
# 2 MiB L1s: 799 cores fit, and the scenario's cores, --cores or a sweep's
# cores past them are refused at the scenario's "cpu"
bigcpu "$T/l1mid.json" 4 2097152
printf '{"name": "t", "cpu": "l1mid.json", "cores": 800, "program": ["good.s"], "threads": [{"cpus": "0", "entry": "worker"}]}\n' >"$T/l1mid800.json"
refuse "2 MiB L1s on 800 cores" 'l1mid800.json:1:22: \$.cpu: CPU model "big" with 800 cores: l1_size: the caches of 800 cores (L1s of 2097152 bytes, in 16-byte lines) would take 4101 MiB of host memory, over the limit of 4096 MiB (799 of these cores fit)' \
	check "$T/l1mid800.json"
sed 's/"cores": 800/"cores": 799/' "$T/l1mid800.json" >"$T/l1mid799.json"
# A count from the command line past the budget is named as the option
# that gave it, with the scenario's model or the --cpu file's.
refuse "--cores 800 past the budget" '^bounce: --cores 800: CPU model "big" of the scenario: l1_size: .*(799 of these cores fit)' \
	run "$T/l1mid799.json" --cores 800 --json "$T/l1mid.out.json"
[ -e "$T/l1mid.out.json" ] && bad "--cores 800: report written" || ok "--cores 800: no report written"
refuse "a sweep's cores past the budget" '^bounce: --set cores=1024: CPU model "big" of the scenario: l1_size: .*(799 of these cores fit)' \
	sweep "$T/l1mid799.json" --set cores=1,1024 --csv "$T/l1mid.csv"
[ -e "$T/l1mid.csv" ] && bad "sweep past the budget: CSV written" || ok "sweep past the budget: no CSV written"
refuse "--cpu FILE --cores 800 past the budget" '^bounce: --cores 800: CPU model "big" (--cpu): l1_size: the caches of 800 cores .*(799 of these cores fit)' \
	run "$T/l1mid799.json" --cpu "$T/l1mid.json" --cores 800 --json "$T/l1mid.out.json"
[ -e "$T/l1mid.out.json" ] && bad "--cpu FILE --cores 800: report written" || ok "--cpu FILE --cores 800: no report written"
refuse "--cpu FILE in a sweep past the budget" '^bounce: --set cores=1024: CPU model "big" (--cpu): l1_size: the caches of 1024 cores .*(799 of these cores fit)' \
	sweep "$T/l1mid799.json" --cpu "$T/l1mid.json" --set cores=1,1024 --csv "$T/l1mid.csv"
# Just under it, the machine is built (check builds it). The sanitizer
# build writes all 4 GiB of it (27 s, 4.7 GB resident): there the unit test
# (check_coherence.c, host_budget_refused_at_the_key) holds the edge.
if sanitized; then
	echo "     (799 cores of 2 MiB L1s not built: sanitizer build)"
else
	start=$(date +%s)
	expect_status "2 MiB L1s on 799 cores are built" 0 timeout 60 "$BOUNCE" check "$T/l1mid799.json" --quiet
	echo "     (799 cores of 2 MiB L1s took $(($(date +%s) - start)) s)"
fi

printf '.include "b.s"\n' >"$T/a.s"
printf '.include "a.s"\n.text\nworker:\n    hlt\n' >"$T/b.s"
scen "$T/cycle.json" 8 a.s
refuse ".include cycle" 'b.s:1:10: include cycle: .*a.s -> .*b.s -> .*a.s' check "$T/cycle.json"
printf '.include "self.s"\n' >"$T/self.s"
scen "$T/self.json" 8 self.s
refuse ".include of itself" 'self.s:1:10: include cycle' check "$T/self.json"

# An endless loop without "stop" ends at the default limit and says so.
printf '.text\nworker:\n    pause\n    jmp worker\n' >"$T/spin.s"
scen "$T/spin.json" 8 spin.s
start=$(date +%s)
expect_status "endless loop, no stop: ends" 0 timeout 300 "$BOUNCE" run "$T/spin.json" --json "$T/spin.out.json"
expect_grep "endless loop: stopped at limit" "stopped at limit" "$T/err"
expect_eq "endless loop: report says limit" limit "$(jget "$T/spin.out.json" variants.default.stopped)"
echo "     (the default limit took $(($(date +%s) - start)) s)"

# ---- bounded runs ----
scen "$T/irq1.json" 8 good.s ',
 "interrupts": [{"cpus": "all", "kind": "hard", "handler": "worker", "every": 1}]'
refuse "an interrupt every cycle" '\$.interrupts\[0\].every: an interrupt every 1 cycles is more often than the floor of one every 1000 cycles' check "$T/irq1.json"
scen "$T/irqp.json" 8 good.s ',
 "interrupts": [{"cpus": "all", "kind": "soft", "handler": "worker", "every": 999, "poisson": true}]'
refuse "a poisson mean below the floor" 'every 999 cycles is more often than the floor' check "$T/irqp.json"
# Interrupt sources: 65,535 entries at most, refused at the one past it
# (the driver refused them with no position); and 65,536 (source, CPU)
# pairs over the CPUs that run threads, refused at the entry that goes past
# (65,535 sources on 1024 CPUs took 776 MB, 5000 without "stop" 15 minutes).
# irqs FILE CPU N [CORES]: N soft sources on every CPU, one per line from line 3
irqs() {
	awk -v cpu="$2" -v n="$3" -v cores="${4:-0}" 'BEGIN { printf "{\"name\": \"t\", \"cpu\": \"%s\", %s\"program\": [\"good.s\"], \"threads\": [{\"cpus\": \"all\", \"entry\": \"worker\"}],\n \"interrupts\": [\n", cpu, cores ? "\"cores\": " cores ", " : ""
		for (i = 0; i < n; i++) printf "  {\"cpus\": \"all\", \"kind\": \"soft\", \"handler\": \"worker\", \"every\": 1000}%s\n", i < n - 1 ? "," : ""
		print "]}" }' >"$1"
}
irqs "$T/irq65536.json" x460-8way 65536
refuse "65,536 interrupt sources" 'irq65536.json:65538:3: \$.interrupts\[65535\]: interrupt source 65536 of 65536 is over the limit of 65535' check "$T/irq65536.json"
irqs "$T/irq65535.json" x460-8way 65535 1
expect_status "65,535 interrupt sources on 1 CPU are accepted" 0 timeout 60 "$BOUNCE" check "$T/irq65535.json" --quiet
irqs "$T/irq65.json" manycore-1024 65
refuse "65 interrupt sources on 1024 CPUs" 'irq65.json:67:12: \$.interrupts\[64\].cpus: interrupt sources 0..64 target 66560 (source, CPU) pairs of the 1024 CPUs that run threads, over the limit of 65536 (64 sources on each of 1024 CPUs)' \
	run "$T/irq65.json" --json "$T/irq65.out.json"
[ -e "$T/irq65.out.json" ] && bad "65 sources on 1024 CPUs: report written" || ok "65 sources on 1024 CPUs: no report written"
irqs "$T/irq64.json" manycore-1024 64
expect_status "64 interrupt sources on 1024 CPUs are accepted" 0 timeout 60 "$BOUNCE" check "$T/irq64.json" --quiet
irqs "$T/irq65c.json" manycore-1024 65 1000
expect_status "65 interrupt sources on 1000 CPUs are accepted" 0 timeout 60 "$BOUNCE" check "$T/irq65c.json" --quiet
refuse "--cores 1024 makes the pairs too many" 'irq65c.json:67:12: \$.interrupts\[64\].cpus: interrupt sources 0..64 target 66560 (source, CPU) pairs of the 1024 CPUs' \
	run "$T/irq65c.json" --cores 1024 --json "$T/irq65c.out.json"
[ -e "$T/irq65c.out.json" ] && bad "--cores 1024: report written" || ok "--cores 1024: no report written"
printf '{"name": "t", "cpu": "x460-8way", "cores": 8, "program": ["spin.s"], "threads": [{"cpus": "all", "entry": "worker"}],\n "variants": [{"name": "a", "cores": 8}, {"name": "b", "cores": 4}]}\n' >"$T/spin2.json"
start=$(date +%s)
# One job: the second variant starts only after the first, when the limit has passed.
expect_status "--max-seconds 2 on an endless loop" 0 timeout 60 "$BOUNCE" run "$T/spin2.json" --jobs 1 --max-seconds 2 --json "$T/wall.json"
took=$(($(date +%s) - start))
[ "$took" -le 10 ] && ok "--max-seconds 2: ended in $took s" || bad "--max-seconds 2: took $took s"
expect_grep "--max-seconds: says so" "variant 'a' stopped at wall-clock limit (2 s)" "$T/err"
expect_grep "--max-seconds: names the variant not run" "variant 'b' not run: the wall-clock limit of 2 s was reached" "$T/err"
expect_eq "--max-seconds: the report says wall-clock" wall-clock "$(jget "$T/wall.json" variants.a.stopped)"
# Two jobs, twelve endless variants: the two running stop at the limit, the
# others are not started, and the pool neither waits for them nor deadlocks
# on the room they leave (it did: every variant not run must wake a worker).
awk 'BEGIN { printf "{\"name\": \"t\", \"cpu\": \"x460-8way\", \"cores\": 2, \"program\": [\"spin.s\"], \"threads\": [{\"cpus\": \"all\", \"entry\": \"worker\"}], \"variants\": [";
	for (i = 0; i < 12; i++) printf "%s{\"name\": \"v%d\", \"seed\": %d}", i ? "," : "", i, i + 2; print "]}" }' >"$T/spin12.json"
expect_status "--max-seconds 1 --jobs 2, twelve endless variants" 0 timeout 30 "$BOUNCE" run "$T/spin12.json" --jobs 2 --max-seconds 1 --quiet
expect_grep "--jobs 2: the later variants are not run" "variant 'v11' not run: the wall-clock limit of 1 s was reached" "$T/err"
refuse "--max-seconds 0" "--max-seconds: '0' is not a number of seconds" run "$T/spin2.json" --max-seconds 0


finish

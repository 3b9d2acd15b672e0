#!/bin/sh
# Bad input never crashes and never leaves a partial report: each case gets
# exit status 2, one message naming file:line:col, and no output file.
. "$top_srcdir/tests/lib.sh"

# run_bad NAME PATTERN ARGS...: exit 2, PATTERN in stderr, no $T/out.json
# (asked for with --json when the command is run).
run_bad() {
	name=$1 pat=$2
	shift 2
	rm -f "$T/out.json"
	# --json belongs to run: check refuses it.
	[ "$1" = run ] && set -- "$@" --json "$T/out.json"
	expect_status "$name" 2 "$BOUNCE" "$@" --quiet
	expect_grep "$name: message" "$pat" "$T/err"
	if [ -e "$T/out.json" ]; then bad "$name: partial output left behind"; else ok "$name: no output file"; fi
	lines=$(wc -l <"$T/err")
	expect_eq "$name: one line of message" 1 "$lines"
}

cat >"$T/good.s" <<'S'
.data
counter: .quad 0
.text
worker:
    lock inc qword ptr [counter]
    hlt
S
scen() { # scen FILE CORES PROGRAM
	printf '{"name": "t", "cpu": "x460-8way", "cores": %s,\n "program": ["%s"],\n "threads": [{"cpus": "all", "entry": "worker"}]}\n' "$2" "$3" >"$1"
}

run_bad "missing scenario" "nope.json" run "$T/nope.json"
mkdir "$T/dir.json"
run_bad "directory as scenario" "dir.json" run "$T/dir.json"
printf '' >"$T/empty.json"
run_bad "empty scenario" "empty.json" run "$T/empty.json"
printf '{"name": "x",, }\n' >"$T/syntax.json"
run_bad "JSON syntax error" "syntax.json:1:14:" run "$T/syntax.json"
printf '{"name": "\377"}\n' >"$T/utf8.json"
run_bad "non-UTF-8 scenario" "utf8.json:1:" run "$T/utf8.json"

scen "$T/huge.json" 1000000 good.s
run_bad "a million cores" 'huge.json:1:[0-9]*: \$.cores' run "$T/huge.json"
scen "$T/ok.json" 8 good.s
run_bad "--cores 100000" "cores" run "$T/ok.json" --cores 100000
run_bad "unknown CPU model" "no-such-cpu" run "$T/ok.json" --cpu no-such-cpu
# A count is blamed where it came from: the option, or the scenario's
# "cores" (a --cpu model alone holds its own count).
run_bad "--cores past --cpu's CPUs: the option" \
	'^bounce: --cores 500: CPU model "xeon-8176-8s" (--cpu): cores: 500 is more than the 448 logical CPUs' \
	run "$T/ok.json" --cpu xeon-8176-8s --cores 500
run_bad "--cores past the scenario model's CPUs: the option" \
	'^bounce: --cores 9: CPU model "x460-8way" of the scenario: cores: 9 is more than the 8 logical CPUs' \
	run "$T/ok.json" --cores 9
run_bad "--set cores past the CPUs: the option" '^bounce: --set cores=9: ' sweep "$T/ok.json" --set cores=2,9
printf '{"name": "t", "cpu": "xeon-2s-icx", "cores": 16,\n "program": ["good.s"],\n "threads": [{"cpus": "all", "entry": "worker"}]}\n' >"$T/icx16.json"
run_bad "the scenario's cores past --cpu's CPUs: the scenario" \
	'icx16.json:1:[0-9]*: \$.cores: 16 cores on CPU model "x460-8way" (--cpu): cores: 16 is more than the 8 logical CPUs' \
	run "$T/icx16.json" --cpu "$top_srcdir/cpus/x460-8way.json"

# An unknown key lists every key the object takes, to the last: the
# pattern ends with the last three, so a list cut short fails.
printf '{"name": "x", "bogus_key": 1}\n' >"$T/badkey.json"
run_bad "unknown key in a CPU model" 'badkey.json:1:15: \$.bogus_key: unknown key "bogus_key" (expected one of name, .*, c2c_clean, c2c_via_agent, sb_entries, fabric, protocol)$' \
	run "$T/ok.json" --cpu "$T/badkey.json"

scen "$T/missing_prog.json" 8 missing.s
run_bad "missing program file" 'missing_prog.json:2:[0-9]*: \$.program\[0\]' run "$T/missing_prog.json"

printf '.text\nworker:\n    movx rax, 1\n    hlt\n' >"$T/mnemonic.s"
scen "$T/mnemonic.json" 8 mnemonic.s
run_bad "unknown mnemonic" "mnemonic.s:3:5: " run "$T/mnemonic.json"

printf '.text\nworker:\n    jmp nowhere\n' >"$T/label.s"
scen "$T/label.json" 8 label.s
run_bad "undefined label" "label.s:3:9: " run "$T/label.json"
printf '{"name": "t", "cpu": "x460-8way", "cores": 2, "program": ["good.s"],\n "threads": [{"cpus": "all", "entry": "worker"}],\n "expect": [{"metric": "variants.default.cycles", "min": 1, "stopped": "yes"}]}\n' >"$T/stopped.json"
run_bad "an expectation's \"stopped\" not a boolean" 'stopped.json:3:[0-9]*: \$.expect\[0\].stopped: ' check "$T/stopped.json"
# A counter-library routine called without its file: the message names it.
printf '.text\nworker:\n    call spin_lock\n    hlt\n' >"$T/nolib.s"
scen "$T/nolib.json" 2 nolib.s
run_bad "library routine without its file" \
	"nolib.s:3:10: undefined label 'spin_lock' (the counter library's lib/spinlock.s defines it: list \"lib/spinlock.s\" in the scenario's \"program\")" \
	run "$T/nolib.json"

# A define that names no .equ: where it was set, and the .equ it meant.
printf '.equ FBC_BATCH, 32\n.text\nworker:\n    hlt\n' >"$T/equ.s"
printf '{"name": "t", "cpu": "x460-8way", "cores": 2, "program": ["equ.s"],\n "defines": {"FBC_BACTH": 8},\n "threads": [{"cpus": "all", "entry": "worker"}]}\n' >"$T/equ.json"
run_bad "scenario define naming no .equ" \
	"equ.json:2:14: define 'FBC_BACTH' names no .equ in the program (did you mean 'FBC_BATCH'?)" run "$T/equ.json"
scen "$T/equ2.json" 2 equ.s
run_bad "--set naming no .equ" \
	"^bounce: --set BATCH=64: names no .equ in the program (did you mean 'FBC_BATCH'?)" run "$T/equ2.json" --set BATCH=64
printf '{"name": "t", "cpu": "x460-8way", "cores": 2, "program": ["equ.s"],\n "threads": [{"cpus": "all", "entry": "wroker"}]}\n' >"$T/entry.json"
run_bad "misspelt entry" "entry.json:2:.*entry label 'wroker' is not defined in the program (did you mean 'worker'?)" \
	run "$T/entry.json"

# A "report" name that is no data symbol: found before the run, where it is
# written, with the symbol it meant; a label or an .equ is named as such.
printf '{"name": "t", "cpu": "x460-8way", "cores": 2, "program": ["good.s"],\n "report": ["counter", "countr"],\n "threads": [{"cpus": "all", "entry": "worker"}]}\n' >"$T/report.json"
run_bad "misspelt report symbol" \
	"report.json:2:24: \\$.report\\[1\\]: 'countr' is not a .data or .percpu symbol of the program (did you mean 'counter'?)" \
	run "$T/report.json"
sed 's/"countr"/"worker"/' "$T/report.json" >"$T/report2.json"
run_bad "check: label as report symbol" "report2.json:2:24: .*'worker' .*(it names code)" check "$T/report2.json"

printf '.text\nworker:\n    mov rax, qword ptr [0]\n    hlt\n' >"$T/fault.s"
scen "$T/fault.json" 2 fault.s
run_bad "access to an unmapped address" "fault.s:3:" run "$T/fault.json"

sed 's/"entry": "worker"/"entry": "wrker"/' "$T/ok.json" >"$T/entry.json"
run_bad "undefined entry label" 'entry.json:3:[0-9]*: \$.threads\[0\].entry' run "$T/entry.json"

printf '{"name": "t", "cpu": {"ghz": 1, "cores": 4, "cores_per_socket": 4, "l1_size": 32768, "l1_assoc": 8,\n "line_size": 48, "lat_l1_hit": 4, "lat_c2c_local": 60, "lat_c2c_remote": 100, "lat_mem_local": 200,\n "lat_mem_remote": 300, "lat_locked_op": 20, "lat_mfence": 30, "lat_pause": 10, "lat_bus": 8, "sb_entries": 8,\n "fabric": "bus", "protocol": "MESI"}, "program": ["good.s"], "threads": [{"cpus": "all", "entry": "worker"}]}\n' >"$T/cpu.json"
run_bad "impossible CPU model" 'cpu.json:2:[0-9]*: \$.cpu.line_size' run "$T/cpu.json"

# An inline model in the topology form whose hop matrix has a short row.
printf '{"name": "t", "cpu": {"ghz": 1, "cores": 12,\n "topology": {"sockets": 3, "cores_per_socket": 4, "c2c": {"socket": 60},\n  "hops": [[0, 1, 1], [1, 0], [1, 1, 0]], "c2c_hops": [100]},\n "l1_size": 32768, "l1_assoc": 8, "line_size": 64, "lat_l1_hit": 4, "lat_mem_local": 200,\n "lat_mem_remote": 300, "lat_locked_op": 20, "lat_mfence": 30, "lat_pause": 10, "lat_bus": 8, "sb_entries": 8,\n "fabric": "bus", "protocol": "MESI"}, "program": ["good.s"], "threads": [{"cpus": "all", "entry": "worker"}]}\n' >"$T/hops.json"
run_bad "check: hop matrix not square" 'hops.json:3:23: \$.cpu.topology.hops\[1\]: row 1 has 2 entries; the matrix must be square (3 x 3)' check "$T/hops.json"
run_bad "run: hop matrix not square" 'hops.json:3:23: \$.cpu.topology.hops\[1\]' run "$T/hops.json"

run_bad "unknown option" "unknown option" run "$T/ok.json" --frobnicate
run_bad "unknown variant" "no variant named" run "$T/ok.json" --variant nope
run_bad "check: missing scenario" "nope.json" check "$T/nope.json"

# The good scenario runs: the harness itself is not what fails above.
expect_status "the good scenario runs" 0 "$BOUNCE" run "$T/ok.json" --quiet --json "$T/out.json"
expect_eq "8 locked increments" 8 "$(jget "$T/out.json" variants.default.totals.locked_ops)"
finish

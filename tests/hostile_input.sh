#!/bin/sh
# Inputs that parse but would exhaust the machine (cores, cycles, memory,
# include cycles, nesting, huge strings, endless loops) and inputs that are
# not files we can read: each is refused with exit 2 and one clear message
# that points at it, quickly. cli_bad_input.sh covers the basic bad inputs.
. "$top_srcdir/tests/lib.sh"

# refuse NAME PATTERN ARGS...: exit 2 within 60 s, PATTERN in a one-line message.
refuse() {
	name=$1 pat=$2
	shift 2
	expect_status "$name" 2 timeout 60 "$BOUNCE" "$@" --quiet
	expect_grep "$name: message" "$pat" "$T/err"
	expect_eq "$name: one line of message" 1 "$(wc -l <"$T/err")"
}
# scen FILE CORES PROGRAM [EXTRA JSON MEMBERS]
scen() {
	printf '{"name": "t", "cpu": "x460-8way", "cores": %s,\n "program": ["%s"],\n "threads": [{"cpus": "all", "entry": "worker"}]%s}\n' \
		"$2" "$3" "${4:-}" >"$1"
}
printf '.text\nworker:\n    hlt\n' >"$T/good.s"

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
printf '.data\nbuf: .space 4294967296\n.text\nworker:\n    hlt\n' >"$T/space.s"
scen "$T/space.json" 8 space.s
refuse "a 4 GiB .space" 'space.s:2:[0-9]*: .data larger than' check "$T/space.json"
printf '.data\nbuf: .space 100000000, 1\n.text\nworker:\n    hlt\n' >"$T/fill.s"
scen "$T/fill.json" 8 fill.s
refuse "a 100 MB non-zero .space" 'fill.s:2:[0-9]*: .space fills more than' check "$T/fill.json"

# Small per CPU, too much times 1024 CPUs: refused, not an out-of-memory.
printf '.percpu\nbuf: .space 1048576\n.text\nworker:\n    hlt\n' >"$T/percpu.s"
printf '{"name": "t", "cpu": "manycore-1024", "program": ["percpu.s"],\n "threads": [{"cpus": "0", "entry": "worker"}]}\n' >"$T/percpu.json"
refuse "1 MiB .percpu times 1024 CPUs" 'percpu.s:2:[0-9]*: .percpu of .* times 1024 CPUs' check "$T/percpu.json"

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

# ---- nesting and size ----
awk 'BEGIN { printf "{\"name\": "; for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "}" }' >"$T/deep.json"
refuse "deep JSON nesting" 'deep.json:1:[0-9]*: nesting deeper than' check "$T/deep.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "" }' >"$T/deepcpu.json"
scen "$T/usedeep.json" 8 good.s
sed -i 's|"cpu": "x460-8way"|"cpu": "deepcpu.json"|' "$T/usedeep.json"
refuse "deep nesting in a CPU model file" 'deepcpu.json:1:[0-9]*: nesting deeper than' check "$T/usedeep.json"

awk 'BEGIN { printf "{\"name\": \""; for (i = 0; i < 1100000; i++) printf "xxxxxxxxxxxxxxxx"; print "\"}" }' >"$T/big.json"
refuse "a 17 MiB scenario" 'big.json: file is larger than' check "$T/big.json"
awk 'BEGIN { printf "{\"name\": \""; for (i = 0; i < 500000; i++) printf "xxxxxxxxxxxxxxxx"; print "\"}" }' >"$T/longname.json"
refuse "an 8 MB name string" 'longname.json:1:10: \$.name: string of 8000000 bytes is too long' check "$T/longname.json"
awk 'BEGIN { printf ".text\nworker:\n    mov rax, "; for (i = 0; i < 100000; i++) printf "xxxxxxxxxx"; print "\n    hlt" }' >"$T/longsym.s"
scen "$T/longsym.json" 8 longsym.s
refuse "a 1 MB name in assembly" 'longsym.s:3:14: name of 1000000 characters is longer than the limit' check "$T/longsym.json"

# ---- files that are not readable text: the scenario, a program, a CPU model ----
mkdir "$T/dir.s"
scen "$T/dirprog.json" 8 dir.s
refuse "program is a directory" 'dirprog.json:2:[0-9]*: \$.program\[0\]: .*is a directory' check "$T/dirprog.json"
printf '.include "dir.s"\n.text\nworker:\n    hlt\n' >"$T/incdir.s"
scen "$T/incdir.json" 8 incdir.s
refuse ".include of a directory" 'incdir.s:1:10: .*not a regular file' check "$T/incdir.json"
printf '.include "nope.s"\n' >"$T/incmissing.s"
scen "$T/incmissing.json" 8 incmissing.s
refuse ".include of a missing file" "incmissing.s:1:10: cannot find include file 'nope.s'" check "$T/incmissing.json"
: >"$T/empty.s"
scen "$T/empty.json" 8 empty.s
refuse "empty program" 'empty.s: empty file' check "$T/empty.json"
printf '.text\nworker:\n    hlt ; caf\351\n' >"$T/latin1.s"
scen "$T/latin1.json" 8 latin1.s
refuse "non-UTF-8 program" 'latin1.s:3:[0-9]*: invalid UTF-8 byte 0xe9' check "$T/latin1.json"

: >"$T/emptycpu.json"
scen "$T/c8.json" 8 good.s
sed 's|"cpu": "x460-8way"|"cpu": "emptycpu.json"|' "$T/c8.json" >"$T/useempty.json"
refuse "empty CPU model file" 'emptycpu.json: .*empty' check "$T/useempty.json"
mkdir "$T/dircpu.json"
sed 's|"cpu": "x460-8way"|"cpu": "dircpu.json"|' "$T/c8.json" >"$T/usedir.json"
refuse "CPU model is a directory" 'dircpu.json.*directory' check "$T/usedir.json"

# chmod 000 stops nobody when the tests run as root (CI containers do).
if [ "$(id -u)" -eq 0 ]; then
	echo "SKIP unreadable files: running as root, which reads them anyway"
else
	scen "$T/noread.json" 8 good.s
	chmod 000 "$T/noread.json"
	refuse "unreadable scenario" 'noread.json: .*[Pp]ermission denied' check "$T/noread.json"
	cp "$T/good.s" "$T/noread.s"
	chmod 000 "$T/noread.s"
	scen "$T/noreadprog.json" 8 noread.s
	refuse "unreadable program" 'noread.s.*[Pp]ermission denied' check "$T/noreadprog.json"
fi
finish

#!/bin/sh
# Inputs that are malformed or not what they claim (deep nesting, huge
# strings, include cycles, files that are not readable text, outputs that
# must not be replaced, inputs that would block, signals at every stage,
# values past what JSON or 64 bits carry): each is refused with exit 2 and
# one clear message that points at it, quickly. hostile_limits.sh and
# hostile_lists.sh have the inputs that would exhaust the machine or take
# it long; cli_bad_input.sh the basic bad inputs.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/hostile_lib.sh"

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
awk 'BEGIN { printf ".data\nx: .quad 1"; for (i = 0; i < 600000; i++) printf ",1"; printf "\n.text\nworker:\n    hlt\n" }' >"$T/longline.s"
scen "$T/longline.json" 1 longline.s
refuse "2^20 tokens on one assembly line" 'longline.s:2:1048583: more than 1048576 tokens on one line' check "$T/longline.json"

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
refuse "empty program" 'empty.s:1:1: empty file' check "$T/empty.json"
printf '.text\nworker:\n    hlt ; caf\351\n' >"$T/latin1.s"
scen "$T/latin1.json" 8 latin1.s
refuse "non-UTF-8 program" 'latin1.s:3:[0-9]*: invalid UTF-8 byte 0xe9' check "$T/latin1.json"

: >"$T/emptycpu.json"
scen "$T/c8.json" 8 good.s
sed 's|"cpu": "x460-8way"|"cpu": "emptycpu.json"|' "$T/c8.json" >"$T/useempty.json"
refuse "empty CPU model file" 'emptycpu.json:1:1: file is empty' check "$T/useempty.json"
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
# ---- output files: never replace a device, a FIFO, a symlink or an input ----
scen "$T/out.json" 1 good.s
expect_status "--json /dev/null: written through" 0 "$BOUNCE" run "$T/out.json" --json /dev/null --csv /dev/null --quiet
[ -c /dev/null ] && ok "/dev/null is still a character device" || bad "/dev/null was replaced"
mkfifo "$T/fifo.out"
cat "$T/fifo.out" >"$T/fifo.got" &
expect_status "--json FIFO: written through" 0 timeout 60 "$BOUNCE" run "$T/out.json" --json "$T/fifo.out" --quiet
wait
[ -p "$T/fifo.out" ] && ok "the FIFO is still a FIFO" || bad "the FIFO was replaced"
expect_eq "the FIFO's reader got the report" t "$(jget "$T/fifo.got" scenario)"
echo old >"$T/target.out"
ln -s target.out "$T/link.out"
expect_status "--json symlink" 0 "$BOUNCE" run "$T/out.json" --json "$T/link.out" --quiet
[ -L "$T/link.out" ] && ok "the symlink is still a symlink" || bad "the symlink was replaced"
expect_eq "the symlink's target holds the report" t "$(jget "$T/target.out" scenario)"
ln -s new.out "$T/dangling.out"
expect_status "--json dangling symlink: its target created" 0 "$BOUNCE" run "$T/out.json" --json "$T/dangling.out" --quiet
expect_eq "the dangling symlink's target holds the report" t "$(jget "$T/new.out" scenario)"
expect_status "--csv /dev/stdout: the process's stdout" 0 "$BOUNCE" run "$T/out.json" --csv /dev/stdout --quiet
expect_eq "--csv /dev/stdout: header and one row on stdout" 2 "$(wc -l <"$T/out")"
printf 'x\n' >"$T/keep.out"
chmod 640 "$T/keep.out"
"$BOUNCE" run "$T/out.json" --json "$T/keep.out" --quiet
expect_eq "a replaced file keeps its mode" 640 "$(stat -c %a "$T/keep.out")"
refuse "--json a directory" 'is a directory' run "$T/out.json" --json "$T"
cp "$T/out.json" "$T/in.json"
refuse "--json the scenario itself" "--json names the scenario .*in.json', an input of this run" run "$T/in.json" --json "$T/in.json"
cmp -s "$T/in.json" "$T/out.json" && ok "the scenario is unchanged" || bad "the scenario was overwritten"
refuse "--csv the program" "--csv names the program .*good.s', an input" run "$T/out.json" --csv "$T/good.s"
printf '.include "good.s"\n' >"$T/incl.s"
scen "$T/incl.json" 1 incl.s
refuse "--markdown an .include file" "--markdown names the program file .*good.s', an input" run "$T/incl.json" --markdown "$T/good.s"
# Every command checks its outputs against every file it read, the
# .include files at any depth and a variant's own programs among them, by
# device and inode: sweep and view once replaced an included program.
printf '.include "incl.s"\n' >"$T/incl2.s"
scen "$T/incl2.json" 1 incl2.s
cp "$T/good.s" "$T/good.keep"
refuse "sweep --csv an .include file" "--csv names the program file .*good.s', an input" sweep "$T/incl.json" --set cores=1,2 --csv "$T/good.s"
refuse "sweep --csv an .include two levels deep" "--csv names the program file .*good.s', an input" sweep "$T/incl2.json" --set cores=1,2 --csv "$T/good.s"
ln "$T/good.s" "$T/good.hard"
refuse "sweep --csv a hard link to an .include file" "--csv names the program file .*good.s', an input" sweep "$T/incl.json" --set cores=1,2 --csv "$T/good.hard"
printf '{"name": "t", "cpu": "x460-8way", "cores": 1, "program": ["good.s"],\n "threads": [{"cpus": "all", "entry": "worker"}],\n "variants": [{"name": "a", "seed": 2}, {"name": "b", "program": ["incl2.s"]}]}\n' >"$T/varprog.json"
refuse "sweep --csv an .include of a variant's own program" "--csv names the program file .*incl.s', an input" sweep "$T/varprog.json" --set cores=1,2 --csv "$T/incl.s"
refuse "run --json an .include of a variant's own program" "--json names the program file .*incl.s', an input" run "$T/varprog.json" --json "$T/incl.s"
if grep -q "^#define HAVE_UI 1" "$top_builddir/config.h" 2>/dev/null; then
	ln "$T/good.s" "$T/good.png"
	refuse "view --screenshot an .include file" "--screenshot names the program file .*good.s', an input" view "$T/incl2.json" --screenshot "$T/good.png" --frames 1
fi
cmp -s "$T/good.s" "$T/good.keep" && ok "the included program is unchanged" || bad "the included program was overwritten"
printf '{"name": "cpu copy", "cores": 1}\n' >"$T/mycpu.json"
sed 's|"cpu": "x460-8way"|"cpu": "mycpu.json"|' "$T/out.json" >"$T/usecpu.json"
"$BOUNCE" check "$T/usecpu.json" >/dev/null 2>&1 &&
	refuse "--json the CPU model file" "--json names the CPU model .*mycpu.json', an input" run "$T/usecpu.json" --json "$T/mycpu.json"
refuse "--json and --csv the same file" '--json and --csv name the same file' run "$T/out.json" --json "$T/same.out" --csv "$T/same.out"
[ -e "$T/same.out" ] && bad "same.out written" || ok "nothing written when two outputs clash"
ln -s same.out "$T/same.lnk"
refuse "--json and --trace the same file through a symlink" '--json and --trace name the same file' run "$T/out.json" --json "$T/same.out" --trace "$T/same.lnk"
# An output that fails (one that cannot be created, a full disk) leaves
# none of the others: they are committed together or not at all.
refuse "--json in a missing directory, with --trace" "nodir/o.json: cannot create output file" run "$T/out.json" --trace "$T/t1.trace" --json "$T/nodir/o.json"
[ -e "$T/t1.trace" ] && bad "the trace was written although --json failed" || ok "no trace when --json cannot be created"
if [ -c /dev/full ]; then
	refuse "--csv on a full disk" "/dev/full: cannot write output: No space left on device" run "$T/out.json" --json "$T/t1.json" --trace "$T/t1.trace" --csv /dev/full
	[ -e "$T/t1.json" ] || [ -e "$T/t1.trace" ] && bad "--json or --trace written although --csv failed" || ok "no --json or --trace when --csv fails"
fi

# ---- inputs that would block, signals at every stage ----
mkfifo "$T/fifo.json" "$T/fifo.s" "$T/fifocpu.json"
refuse "a FIFO as the scenario" 'fifo.json: is a FIFO (expected a JSON file)' check "$T/fifo.json"
scen "$T/fifoprog.json" 1 fifo.s
refuse "a FIFO as the program" '\$.program\[0\]: program "fifo.s" is a FIFO' check "$T/fifoprog.json"
printf '.include "fifo.s"\n' >"$T/incfifo.s"
scen "$T/incfifo.json" 1 incfifo.s
refuse "a FIFO as an .include" "incfifo.s:1:10: .*fifo.s' is not a regular file (it is a FIFO)" check "$T/incfifo.json"
sed 's|"cpu": "x460-8way"|"cpu": "fifocpu.json"|' "$T/out.json" >"$T/usefifocpu.json"
refuse "a FIFO as the CPU model" 'fifocpu.json: is a FIFO' check "$T/usefifocpu.json"
refuse "a character device as the scenario" '/dev/zero: is a character device' check /dev/zero

# 300,000 variants on one line (13 MiB): loading is linear (it was
# quadratic in the nodes of a line) and a signal stops it.
awk 'BEGIN { printf "{\"name\": \"many\", \"cpu\": \"x460-8way\", \"cores\": 1, \"program\": [\"good.s\"], \"threads\": [{\"cpus\": \"all\", \"entry\": \"worker\"}], \"variants\": [";
	for (i = 0; i < 300000; i++) printf "%s{\"name\": \"v%d\", \"cores\": 1}", i ? "," : "", i; print "]}" }' >"$T/many.json"
refuse "300,000 variants on one line load within 60 s" "no variant named 'nope'" run "$T/many.json" --variant nope
send_int "SIGINT while checking 300,000 variants" 130 1 "$BOUNCE" check "$T/many.json"
expect_grep "SIGINT while checking: says so" 'interrupted; no output written' "$T/err"


send_int "SIGINT while waiting for a FIFO output's reader" 130 1 "$BOUNCE" run "$T/out.json" --json "$T/fifo.out" --quiet
expect_grep "SIGINT at the FIFO: says so" 'interrupted' "$T/err"

# ---- exact 64-bit integers: seeds, .quad values, equals ----
printf '.data\nbig: .quad 9007199254740993\nlim: .quad 9223372036854775807\nneg: .quad -9223372036854775807 - 1\n.text\nworker:\n    hlt\n' >"$T/big.s"
bigscen() { # bigscen FILE SEED EXPECT
	printf '{"name": "big", "cpu": "x460-8way", "cores": 1, "seed": %s, "program": ["big.s"],\n "threads": [{"cpus": "all", "entry": "worker"}], "report": ["big", "lim", "neg"],\n "expect": [%s]}\n' "$2" "$3" >"$1"
}
bigscen "$T/seed63.json" 9223372036854775807 '{"metric": "variants.default.symbols.big.value", "equals": 9007199254740993}'
expect_status "seed 2^63-1, equals 2^53+1: passes" 0 "$BOUNCE" run "$T/seed63.json" --json "$T/seed63.out" --csv "$T/seed63.csv" --markdown "$T/seed63.md"
expect_eq "seed 2^63-1 in the report" 9223372036854775807 "$(jget "$T/seed63.out" seed)"
expect_grep "seed 2^63-1 in the summary" 'seed 9223372036854775807)' "$T/out"
expect_grep "seed 2^63-1 in the markdown" 'seed 9223372036854775807\.' "$T/seed63.md"
expect_eq "seed 2^63-1 in the CSV" 9223372036854775807 "$(tail -n 1 "$T/seed63.csv" | awk -F, '{print $(NF - 1)}')"
expect_status "sweep over seeds past 2^53" 0 "$BOUNCE" sweep "$T/seed63.json" --set seed=9223372036854775807,9007199254740993 --csv "$T/seeds.csv"
expect_eq "sweep: the report's seed column equals the --set column" "0 9223372036854775807 9223372036854775807
1 9007199254740993 9007199254740993" "$(awk -F, 'NR > 1 {print $1, $2, $(NF - 1)}' "$T/seeds.csv")"
expect_eq ".quad 2^53+1 in the report" 9007199254740993 "$(jget "$T/seed63.out" variants.default.symbols.big.value)"
expect_eq ".quad INT64_MAX in the report" 9223372036854775807 "$(jget "$T/seed63.out" variants.default.symbols.lim.value)"
expect_eq ".quad INT64_MIN in the report" -9223372036854775808 "$(jget "$T/seed63.out" variants.default.symbols.neg.value)"
expect_grep "report text holds the exact integer" '"value":	9007199254740993,' "$T/seed63.out"
bigscen "$T/eq52.json" 1 '{"metric": "variants.default.symbols.big.value", "equals": 9007199254740992}'
expect_status "equals 2^53 against 2^53+1: fails" 1 "$BOUNCE" run "$T/eq52.json" --json "$T/eq52.out"
expect_grep "equals 2^53: the message shows the exact value" 'value = 9007199254740993, expected == 9007199254740992' "$T/out"
bigscen "$T/eqmax.json" 1 '{"metric": "variants.default.symbols.lim.value", "equals": 9223372036854775807}, {"metric": "variants.default.symbols.neg.value", "equals": -9223372036854775808}'
expect_status "equals at the int64 limits: passes" 0 "$BOUNCE" run "$T/eqmax.json" --quiet
bigscen "$T/seed64.json" 9223372036854775808 '{"metric": "variants.default.symbols.big.value", "min": 0}'
refuse "seed 2^63: out of range at its position" 'seed64.json:1:57: \$.seed: 9223372036854775808 is out of range (expected 0..9223372036854775807)' check "$T/seed64.json"
bigscen "$T/seed1e19.json" 1e19 '{"metric": "variants.default.symbols.big.value", "min": 0}'
refuse "seed 1e19: out of range, not 'not a whole number'" '\$.seed: 1e19 is out of range' check "$T/seed1e19.json"
"$BOUNCE" run "$T/seed63.json" --seed 9007199254740992 --json "$T/s52.out" --quiet
"$BOUNCE" run "$T/seed63.json" --seed 9007199254740993 --json "$T/s53.out" --quiet
expect_eq "--seed 2^53 reported exactly" 9007199254740992 "$(jget "$T/s52.out" seed)"
expect_eq "--seed 2^53+1 reported exactly" 9007199254740993 "$(jget "$T/s53.out" seed)"

# ---- strings and numbers JSON cannot carry into C ----
for k in 'program' 'entry' 'cpu'; do
	case $k in
	program) sed 's|"program": \["good.s"\]|"program": ["good.s\\u0000../../etc/passwd"]|' "$T/out.json" >"$T/nul-$k.json" ;;
	entry) sed 's|"entry": "worker"|"entry": "worker\\u0000zz"|' "$T/out.json" >"$T/nul-$k.json" ;;
	cpu) sed 's|"cpu": "x460-8way"|"cpu": "x460-8way\\u0000junk"|' "$T/out.json" >"$T/nul-$k.json" ;;
	esac
	refuse "\\u0000 in $k" "nul-$k.json:[0-9]*:[0-9]*: \\\\u0000 (a NUL character) in a string" check "$T/nul-$k.json"
done
sed 's|"name": "t"|"name": "\\ud800"|' "$T/out.json" >"$T/surrogate.json"
refuse "a lone surrogate" 'surrogate.json:1:11: \\ud800 is a lone UTF-16 surrogate' check "$T/surrogate.json"
sed 's|"cores": 1|"cores": 1e400|' "$T/out.json" >"$T/e400.json"
refuse "cores 1e400" '\$.cores: 1e400 is out of range' check "$T/e400.json"
awk 'BEGIN { printf "{\"name\": \"t\", \"cores\": "; for (i = 0; i < 100; i++) printf "9"; print "}" }' >"$T/digits.json"
refuse "a 100-digit number" 'digits.json:1:24: number of 100 characters is too long' check "$T/digits.json"

# ---- positions, byte-order marks, other files' contents ----
printf '\357\273\277.text\nworker:\n    hlt\n' >"$T/bom.s"
scen "$T/bom.json" 1 bom.s
printf '\357\273\277' | cat - "$T/bom.json" >"$T/bom2.json"
expect_status "a BOM in .s and in JSON: accepted alike" 0 "$BOUNCE" check "$T/bom2.json" --quiet
printf '\357\273\277 bad\n.text\nworker:\n    hlt\n' >"$T/bombad.s"
scen "$T/bombad.json" 1 bombad.s
refuse "a BOM does not shift the column on line 1" "bombad.s:1:2: unknown instruction 'bad'" check "$T/bombad.json"
printf 'root:$6$secretsalt$hash:19000:0:99999:7:::\n' >"$T/shadow"
printf '.include "shadow"\n.text\nworker:\n    hlt\n' >"$T/incshadow.s"
scen "$T/incshadow.json" 1 incshadow.s
refuse ".include of a non-workload file" "incshadow.s:1:10: .*shadow' is not a workload file" check "$T/incshadow.json"
grep -q secretsalt "$T/err" && bad ".include shadow: message quotes the file" || ok ".include shadow: message quotes nothing of it"
scen "$T/progshadow.json" 1 /etc/shadow
refuse "a program that is not a workload file" '\$.program\[0\]: program "/etc/shadow" is not a workload file' check "$T/progshadow.json"
printf '.data\nx: .quad 1\nbuf: .space 2147483584\n.text\nworker:\n    hlt\n' >"$T/space2.s"
scen "$T/space2.json" 8 space2.s
refuse ".space just over: says what is left" 'space2.s:3:[0-9]*: 2147483584 more bytes would make .data 2147483656 bytes, over its limit of 2147483648 (2 GiB): 2147483576 bytes are left' check "$T/space2.json"

# ---- values past the 64-bit signed range ----
# A ghost counter and a per-CPU symbol's sum wrap at 64 bits as the adds
# they stand for do: the two cores' copies of pc, 2^63 - 1 each, sum to -2,
# and the four ghost adds of 2^63 - 1 to x to -4 (summed in int64_t they
# would overflow, which UBSan, the suite's second build, stops at).
printf '.data\nx: .quad 0\n.percpu\npc: .quad 0x7fffffffffffffff\n.text\nworker:\n    mov rax, 0x7fffffffffffffff\n    ghost_add [x], rax\n    ghost_add [x], rax\n    hlt\n' >"$T/wrap.s"
scen "$T/wrap.json" 2 wrap.s ',
 "report": ["x", "pc"]'
expect_status "64-bit wrap: runs" 0 "$BOUNCE" run "$T/wrap.json" --quiet --json "$T/wrap.out.json"
expect_eq "64-bit wrap: the ghost counter" -4 "$(jget "$T/wrap.out.json" variants.default.symbols.x.accuracy.exact)"
expect_eq "64-bit wrap: the per-CPU sum" -2 "$(jget "$T/wrap.out.json" variants.default.symbols.pc.value)"

finish

#!/bin/sh
# What the view says, read from the strings it draws (ui_driver --textlog):
# the figures panel gives the JSON report's numbers once a run has finished
# (the same final cycle), a step names its transaction and the source line
# of the instruction behind it, and split view draws two machines.
set -u
. "${top_srcdir:-.}/tests/ui_common.sh"
trap 'rm -rf "$tmp"' EXIT INT TERM
unset DISPLAY
DRIVER=$top_builddir/tests/ui_driver
SCEN=${top_srcdir:-.}/scenarios

# A number in a symbol's block of a one-variant report: the first KEY after
# the line opening "SYM": {.
json_num() {
	awk -v sym="\"$2\":" -v key="\"$3\":" \
		'index($0, sym) && /\{$/ {on = 1} on && index($0, key) {gsub(/[^0-9-]/, "", $2); print $2; exit}' "$1"
}
# The string drawn `off` lines after LABEL in the figures panel's counters
# (the hot-line table above it names the same symbols).
# drawn FILE SYM OFF, or drawn FILE SYM OFF ROWLABEL for a row of SYM's block.
drawn() {
	awk -v sym="$2" -v off="$3" -v row="${4:-}" 'found && ++n == off {print; exit}
		/^counters / {panel = 1}
		panel && !insym && $0 == sym {insym = 1; if (row == "") found = 1; next}
		insym && row != "" && $0 == row {found = 1}' "$1"
}

# Every variant of proto_inuse run to its end (frames of 10^9 cycles), in a
# window big enough for every counter and its full name.
"$DRIVER" "$SCEN/proto_inuse.json" --speed 1e9 --frames 3 --size 1800x1100 --screenshot "$tmp/f.png" \
	--textlog "$tmp/f.txt" || fail "ui_driver exited $?"
grep -q "finished" "$tmp/f.txt" || fail "the run did not finish in the view"
i=0
for v in padded percpu unpadded; do
	i=$((i + 1))
	# One variant alone misses the cross-variant expectations: status 1.
	"$BOUNCE" run "$SCEN/proto_inuse.json" --variant "$v" --json "$tmp/$v.json" --quiet
	rc=$?
	[ $rc -le 1 ] && [ -s "$tmp/$v.json" ] || fail "bounce run --variant $v exited $rc"
	case $v in
	padded) sym=tcp_prot_stats ;;
	percpu) sym=tcp_prot_inuse ;;
	unpadded) sym=tcp_prot_stats_unpadded ;;
	esac
	exact=$(json_num "$tmp/$v.json" "$sym" exact)
	maxerr=$(json_num "$tmp/$v.json" "$sym" max_error)
	final=$(json_num "$tmp/$v.json" final_inuse value)
	[ -n "$exact" ] && [ -n "$maxerr" ] && [ -n "$final" ] || fail "$v: figures missing from the report"
	got=$(drawn "$tmp/f.txt" "$sym" "$i")
	[ "$got" = "$exact" ] || fail "$v: $sym exact drawn '$got', report says $exact"
	got=$(drawn "$tmp/f.txt" "$sym" "$i" "max |err| of reads")
	[ "$got" = "$maxerr" ] || fail "$v: $sym max error drawn '$got', report says $maxerr"
	got=$(drawn "$tmp/f.txt" "final_inuse" "$i")
	[ "$got" = "$final" ] || fail "$v: final_inuse drawn '$got', report says $final"
done
# Columns are by symbol: padded's column is empty for percpu's counter.
[ "$(drawn "$tmp/f.txt" tcp_prot_inuse 1)" = "·" ] || fail "padded shows a value for tcp_prot_inuse"
echo "ok: figures panel matches the report"

# A step: the transaction, and "for FILE:LINE  TEXT" where TEXT is that line.
"$DRIVER" "$SCEN/scaling.json" --frames 20 --steps 1 --screenshot "$tmp/s.png" \
	--textlog "$tmp/s.txt" || fail "ui_driver --steps exited $?"
grep -Eq '^cpu[0-9]+ (GETS|GETM|UPGRADE) ' "$tmp/s.txt" || fail "the step names no transaction"
grep -Eq ' from (cpu[0-9]+ \([MEOFS]\)|memory|the LLC), [0-9]+ cycles, (bounce|no bounce)' "$tmp/s.txt" ||
	fail "the step does not say where the line came from and what it cost"
why=$(grep '^for ' "$tmp/s.txt" | head -n 1)
[ -n "$why" ] || fail "the step names no instruction"
file=$(echo "$why" | sed 's/^for \([^:]*\):.*/\1/')
line=$(echo "$why" | sed 's/^for [^:]*:\([0-9]*\) .*/\1/')
text=$(echo "$why" | sed 's/^for [^ ]*  //')
src=$(find "$SCEN" -name "$file" | head -n 1)
[ -n "$src" ] || fail "step names $file, not a scenario source"
# the instruction as the reports show it: past a label, before the comment
want=$(sed -n "${line}p" "$src" | tr '\t' ' ' | sed 's/^ *//; s/^[A-Za-z0-9_.]*://; s/;.*//; s/  */ /g; s/^ *//; s/ *$//')
[ "$text" = "$want" ] || fail "step shows '$text' for $file:$line, whose instruction reads '$want'"
echo "ok: a step names its transaction and $file:$line"

# Split view: two machines, each titled with its variant, and each with its
# own hot-line table and timeline.
"$DRIVER" "$SCEN/proto_inuse.json" --split --frames 30 --screenshot "$tmp/split.png" \
	--textlog "$tmp/split.txt" || fail "ui_driver --split exited $?"
grep -qx "padded  ·  8 cores" "$tmp/split.txt" || fail "split view: no machine titled padded"
grep -qx "percpu  ·  8 cores" "$tmp/split.txt" || fail "split view: no machine titled percpu"
[ "$(grep -cx "Timeline" "$tmp/split.txt")" -eq 2 ] || fail "split view: not two timelines"
[ "$(grep -cx "Hot lines" "$tmp/split.txt")" -eq 2 ] || fail "split view: not two hot-line tables"
[ "$(grep -cx "cpu7" "$tmp/split.txt")" -ge 2 ] || fail "split view: cpu7 not drawn twice"
grep -q "^variants padded | percpu" "$tmp/split.txt" || fail "split view: header does not name both variants"
echo "ok: split view draws two machines"

# Notes: the current variant's notes stand under its figures, as the
# reports state them (validate.json's padded variant is mostly warm-up).
"$DRIVER" "$SCEN/validate.json" --variant padded --speed 1e9 --frames 3 --screenshot "$tmp/n.png" \
	--textlog "$tmp/n.txt" || fail "ui_driver (notes) exited $?"
"$BOUNCE" run "$SCEN/validate.json" --variant padded >"$tmp/n.out" 2>&1
want=$(sed -n 's/^note padded: //p' "$tmp/n.out" | cut -c1-40)
[ -n "$want" ] || fail "bounce run states no note on validate.json's padded variant"
grep -q "^note: $want" "$tmp/n.txt" || fail "the view does not state the note '$want...'"
echo "ok: the view states the run's notes"

#!/bin/sh
# JSON from every command, held to its schema (scenarios/*.schema.json,
# described in docs/report-format.md): every catalogue scenario, the
# validation page's probes (docs/validation/) and every CPU model against
# the scenario schema, `list --json`, and `check --json` on
# every catalogue scenario (validate's and calibrate's outputs are checked
# in cli_host.sh, where they are made). A schema that no longer matches
# what bounce writes fails here, and so does a broken file the schema
# should refuse.
. "$top_srcdir/tests/lib.sh"
schemas="$top_srcdir/scenarios"
valid() { # WHAT SCHEMA [--def NAME] FILE...
	what=$1
	shift
	if python3 "$top_srcdir/tests/json_schema_check.py" "$@" >"$T/why" 2>&1; then
		ok "$what"
	else
		bad "$what:"
		sed 's/^/    /' "$T/why" | head -5
	fi
}

for f in "$top_srcdir"/scenarios/*.json "$top_srcdir"/docs/validation/*.json; do
	case $f in *.schema.json) continue ;; esac
	b=$(basename "$f" .json)
	valid "scenario $b" "$schemas/scenario.schema.json" "$f"
	expect_status "check --json $b" 0 "$BOUNCE" check "$f" --json "$T/check-$b.json"
	valid "check --json $b" "$schemas/check.schema.json" "$T/check-$b.json"
done
valid "every CPU model" "$schemas/scenario.schema.json" --def cpu "$top_srcdir"/cpus/*.json

expect_status "list --json" 0 "$BOUNCE" list --json "$T/list.json"
valid "list --json" "$schemas/list.schema.json" "$T/list.json"
expect_eq "list --json: every CPU model" "$(ls "$top_srcdir"/cpus/*.json | wc -l)" \
	"$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cpus"]))' "$T/list.json")"
# the text and the JSON come from one document: the same models, in order
expect_status "list" 0 "$BOUNCE" list
expect_eq "list: the text names the JSON's models" \
	"$(python3 -c 'import json,sys; print(" ".join(c["name"] for c in json.load(open(sys.argv[1]))["cpus"]))' "$T/list.json")" \
	"$(sed -n '/^CPU models/,/^$/p' "$T/out" | awk '/^  [a-z0-9]/ { printf "%s%s", n++ ? " " : "", $1 } END { print "" }')"
expect_status "list --json -" 0 "$BOUNCE" list --json -
valid "list --json - (stdout, no text)" "$schemas/list.schema.json" "$T/out"

# check --json: one variant, its figures; a failing check writes nothing
expect_status "check --json --variant" 0 "$BOUNCE" check "$top_srcdir/scenarios/c_counters.json" --variant percpu_asm \
	--json "$T/one.json"
expect_eq "check --json: one variant" percpu_asm "$(jget "$T/one.json" variants.0.name)"
expect_eq "check --json: its expectations" 5 "$(jget "$T/one.json" expectations)"
printf '{"name": "x", "cpu": "x460-8way", "program": ["nope.s"], "threads": [{"cpus": "all", "entry": "w"}]}\n' >"$T/bad.json"
expect_status "check --json of a broken scenario" 2 "$BOUNCE" check "$T/bad.json" --json "$T/bad-check.json"
[ -e "$T/bad-check.json" ] && bad "a refused check wrote its JSON" || ok "a refused check writes no JSON"
expect_status "check --json naming the scenario" 2 "$BOUNCE" check "$T/bad.json" --json "$T/bad.json"

# The schemas refuse what bounce would not write.
echo '{"datadir": "/x", "cpus": [{"name": "a"}], "scenarios": [], "library": []}' >"$T/l.json"
if python3 "$top_srcdir/tests/json_schema_check.py" "$schemas/list.schema.json" "$T/l.json" >/dev/null; then
	bad "list schema: a CPU model without its figures passes"
else
	ok "list schema: a CPU model without its figures is refused"
fi
finish

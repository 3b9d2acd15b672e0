# Helpers of hostile_input.sh and hostile_limits.sh, which make scenarios
# that bounce must refuse or bound: sourced after lib.sh.
# refuse NAME PATTERN ARGS...: exit 2 within 60 s, PATTERN in a one-line message.
refuse() {
	refuse_within 60 "$@"
}
# refuse_within SECONDS NAME PATTERN ARGS...: the same within SECONDS.
refuse_within() {
	limit=$1 name=$2 pat=$3
	shift 3
	expect_status "$name" 2 timeout "$limit" "$BOUNCE" "$@" --quiet
	expect_grep "$name: message" "$pat" "$T/err"
	expect_eq "$name: one line of message" 1 "$(wc -l <"$T/err")"
}
# scen FILE CORES PROGRAM [EXTRA JSON MEMBERS]
scen() {
	printf '{"name": "t", "cpu": "x460-8way", "cores": %s,\n "program": ["%s"],\n "threads": [{"cpus": "all", "entry": "worker"}]%s}\n' \
		"$2" "$3" "${4:-}" >"$1"
}
# send_int NAME STATUS SECONDS CMD...: SIGINT after SECONDS; expect STATUS.
send_int() {
	name=$1 want=$2 after=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err" &
	pid=$!
	sleep "$after"
	kill -INT "$pid" 2>/dev/null
	reap "$pid" 60
	expect_eq "$name: exit status" "$want" "$?"
}
# The program most of their scenarios run: it halts at once.
printf '.text\nworker:\n    hlt\n' >"$T/good.s"

# Shared helpers for the shell tests: a scratch directory removed on exit,
# and assertions that print what was expected and what came.
set -u
: "${BOUNCE:?run through make check}"
: "${top_srcdir:?}"
: "${top_builddir:?}"
JSON_GET=$top_builddir/tests/json_get
T=$(mktemp -d "${TMPDIR:-/tmp}/bounce-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0
passes=0

ok() { passes=$((passes + 1)); echo "ok   $*"; }
bad() { fails=$((fails + 1)); echo "FAIL $*"; }

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1 = $2"; else bad "$1: expected '$2', got '$3'"; fi
}
# expect_status WHAT EXPECTED CMD...
expect_status() {
	what=$1 want=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" = "$want" ]; then ok "$what: exit $want"; else
		bad "$what: expected exit $want, got $got"; sed 's/^/    /' "$T/err" | head -5
	fi
}
# expect_grep WHAT PATTERN FILE
expect_grep() {
	if grep -q -- "$2" "$3"; then ok "$1"; else bad "$1: no '$2' in:"; sed 's/^/    /' "$3" | head -5; fi
}
# reap PID SECONDS: wait for a background PID that was sent a signal; if it
# still runs SECONDS later, kill it (status 137), so that a signal bounce
# missed fails the test instead of hanging the suite.
reap() {
	reap_i=0
	while kill -0 "$1" 2>/dev/null && [ "$reap_i" -lt $(($2 * 10)) ]; do
		sleep 0.1
		reap_i=$((reap_i + 1))
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"
}
# expect_interrupt WHAT AFTER LIMIT CMD...: SIGINT to CMD AFTER seconds
# into it; it must exit 130 within LIMIT seconds of its start.
expect_interrupt() {
	what=$1 after=$2 limit=$3
	shift 3
	start=$(date +%s)
	"$@" >"$T/out" 2>"$T/err" &
	pid=$!
	sleep "$after"
	kill -INT "$pid"
	reap "$pid" $((limit + 60))
	expect_eq "$what: exit status" 130 "$?"
	took=$(($(date +%s) - start))
	[ "$took" -le "$limit" ] && ok "$what: honoured in $took s" || bad "$what: took $took s"
}
jget() { "$JSON_GET" "$@"; }
# True in the AddressSanitizer build, where bounce runs several times slower
# and a test may run a smaller set of the same inputs (the plain build of
# the same suite runs them all).
sanitized() { [ "${BOUNCE_SANITIZED:-0}" = 1 ] || grep -q __asan_init "$BOUNCE"; }
finish() {
	echo "$passes passed, $fails failed"
	[ "$fails" -eq 0 ]
}

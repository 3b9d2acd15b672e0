# Shared by the UI tests: find the programs, skip (77) only when this build
# has no visualizer, and give each test a scratch directory removed on exit.
: "${top_builddir:=.}"
: "${BOUNCE:=$top_builddir/bounce}"

if ! grep -q '^#define HAVE_UI 1' "$top_builddir/config.h" 2>/dev/null; then
	echo "SKIP: bounce was built without the SDL2 visualizer"
	exit 77
fi
PNGCHECK=$top_builddir/tests/ui_pngcheck
[ -x "$PNGCHECK" ] || { echo "FAIL: $PNGCHECK not built"; exit 1; }

fail() {
	echo "FAIL: $*"
	exit 1
}

# interrupted WHAT SECONDS MESSAGE CMD...: CMD, which writes $tmp/int.png,
# gets SIGINT after SECONDS: exit 130, MESSAGE on stderr, and no int.png
# nor a temporary of it left.
interrupted() {
	what=$1 after=$2 msg=$3
	shift 3
	"$@" 2>"$tmp/err" &
	sleep "$after"
	kill -INT $!
	wait $!
	rc=$?
	[ $rc -eq 130 ] || fail "SIGINT during $what: exit $rc, expected 130"
	[ -z "$(ls -a "$tmp" | grep 'int\.png')" ] || fail "SIGINT during $what: left $(ls -a "$tmp" | grep 'int\.png')"
	grep -q "$msg" "$tmp/err" || fail "SIGINT during $what: message: $(cat "$tmp/err")"
}

# The legend's MESI colours (ui/view/ui_color.c): M E S I.
MESI_COLOURS="e03131 f08c00 2f9e44 3a414b"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bounce-ui.XXXXXX")

#!/bin/sh
# The real window under Xvfb: start `bounce view`, find its window, send
# pause, step, speed and screenshot keys with xdotool, quit with q, and
# check that it exits 0 and that the screenshot was written.
set -u
. "${top_srcdir:-.}/tests/ui_common.sh"
command -v Xvfb >/dev/null || fail "Xvfb not installed (setup.sh installs xvfb)"
command -v xdotool >/dev/null || fail "xdotool not installed (setup.sh installs it)"

xpid= vpid=
cleanup() {
	[ -n "$vpid" ] && kill "$vpid" 2>/dev/null
	[ -n "$xpid" ] && kill "$xpid" 2>/dev/null && wait "$xpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A free display number: no lock file and no socket.
n=90
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do
	n=$((n + 1))
	[ $n -lt 200 ] || fail "no free X display number"
done
# -noreset: an X server resets when its last client leaves, so without it
# the view could connect while the server regenerates after the xdotool
# probe below disconnected, fail, and fall back to SDL's offscreen driver.
Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp -noreset >"$tmp/xvfb.log" 2>&1 &
xpid=$!
export DISPLAY=":$n"
i=0
until xdotool getmouselocation >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
	kill -0 "$xpid" 2>/dev/null || fail "Xvfb exited: $(cat "$tmp/xvfb.log")"
	sleep 0.1
done

# The view's window, once shown: it shows it when it has a renderer, and
# the windows SDL made and destroyed before then were never mapped.
view_window() {
	xdotool search --onlyvisible --name '^bounce' 2>/dev/null | head -n 1
}

(cd "$tmp" && exec "$BOUNCE" view) >"$tmp/view.out" 2>&1 &
vpid=$!
wid=
i=0
while [ -z "$wid" ]; do
	wid=$(view_window)
	[ -n "$wid" ] && break
	i=$((i + 1))
	[ $i -lt 150 ] || fail "no window named bounce: $(cat "$tmp/view.out")"
	if ! kill -0 "$vpid" 2>/dev/null; then
		wait "$vpid"
		fail "view exited early with status $?: $(cat "$tmp/view.out") [Xvfb :$n $(kill -0 "$xpid" 2>/dev/null && echo running || echo gone): $(cat "$tmp/xvfb.log")]"
	fi
	sleep 0.1
done

key() {
	xdotool windowfocus --sync "$wid" key --window "$wid" "$@" 2>"$tmp/xdotool.err" ||
		fail "xdotool key $* (window $wid; view $(kill -0 "$vpid" 2>/dev/null && echo running || echo gone)): $(cat "$tmp/xdotool.err") $(cat "$tmp/view.out")"
	sleep 0.3
}
sleep 0.5
key space           # pause
key period          # step one coherence transaction
key period
key bracketright    # faster
key space           # resume
sleep 0.5
key s               # screenshot into the working directory
i=0
until [ -s "$tmp/bounce-0000.png" ]; do
	i=$((i + 1))
	[ $i -lt 50 ] || fail "the s key wrote no screenshot: $(cat "$tmp/view.out")"
	sleep 0.1
done
# q closes the window, so xdotool may fail its last request on it; what
# counts is that the view exits, checked below.
xdotool windowfocus --sync "$wid" key --window "$wid" q 2>/dev/null || true

i=0
while kill -0 "$vpid" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "view did not quit on q"
	sleep 0.1
done
wait "$vpid"
rc=$?
vpid=
[ $rc -eq 0 ] || fail "view exited $rc: $(cat "$tmp/view.out")"
"$PNGCHECK" size "$tmp/bounce-0000.png" 1280 800 || fail "screenshot has the wrong size"
"$PNGCHECK" colors "$tmp/bounce-0000.png" $MESI_COLOURS || fail "screenshot lacks the legend colours"
echo "ok: window under Xvfb on :$n"

# SIGTERM closes the window as q does, with the interrupted status (130).
(cd "$tmp" && exec "$BOUNCE" view) >"$tmp/view2.out" 2>&1 &
vpid=$!
i=0
until [ -n "$(view_window)" ]; do
	i=$((i + 1))
	[ $i -lt 150 ] || fail "second view: no window: $(cat "$tmp/view2.out")"
	sleep 0.1
done
kill -TERM "$vpid"
i=0
while kill -0 "$vpid" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "view ignored SIGTERM"
	sleep 0.1
done
wait "$vpid"
rc=$?
vpid=
[ $rc -eq 130 ] || fail "view after SIGTERM exited $rc, expected 130: $(cat "$tmp/view2.out")"
echo "ok: SIGTERM closes the window"

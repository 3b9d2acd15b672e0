#!/bin/sh
# Live frame rate of `bounce view` under Xvfb with the software renderer, at
# 8, 64 and 1024 cores of one scenario (default scenarios/scaling.json, all
# six variants). A benchmark, not a test: the figures depend on the host.
# Usage: bench/ui_fps.sh [BOUNCE] [SECONDS] [SCENARIO]
set -u
bounce=${1:-./bounce}
secs=${2:-10}
scen=${3:-$(dirname "$0")/../scenarios/scaling.json}
command -v Xvfb >/dev/null || { echo "ui_fps: Xvfb not installed" >&2; exit 1; }
n=150
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null' EXIT
# Wait for the server's socket: on a busy host a fixed sleep can end first,
# and the first case would be lost.
i=0
while [ ! -e "/tmp/.X11-unix/X$n" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
for cores in 8 64 1024; do
	DISPLAY=":$n" SDL_RENDER_DRIVER=software BOUNCE_UI_STATS=1 \
		timeout -s INT "$secs" "$bounce" view "$scen" --cores "$cores" 2>&1 >/dev/null |
		sed "s/^/$cores cores: /"
done

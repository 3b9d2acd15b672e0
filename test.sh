#!/bin/sh
# The test suite: build (installing what is missing), run the Check unit
# tests, the scenario tests and the UI tests, then static analysis; then,
# in a separate AddressSanitizer+UBSan build with the invariant checker on,
# the tests that feed bounce hostile and broken input and fail its
# allocations, where a memory error is likeliest to hide.
#   ./test.sh --sanitize-all   the whole suite in the sanitizer build
#                              (4.3 minutes there instead of one, on 2
#                              cores; we run it before a change is submitted)
# With the whole suite in both builds a run took 13 to 15 minutes, past the
# 10 the suite is meant to take; so by default the sanitizer build runs
# the part that targets memory safety.
set -eu
cd "$(dirname "$0")"
san_target=check-memory  # tests/hardening.am names its tests
case "${1:-}" in
--sanitize-all) san_target=check ;;
"") ;;
*) echo "usage: ./test.sh [--sanitize-all]" >&2; exit 2 ;;
esac
./setup.sh
run_suite() { # BUILD_DIR [TARGET]
	# test-suite.log holds the logs of exactly the tests that failed.
	make -C "$1" -j"$(nproc)" "${2:-check}" || { cat "$1/test-suite.log"; exit 1; }
}
run_suite build
# Static analysis (cppcheck, clang-tidy: tests/lint.sh), about two minutes,
# while the sanitizer build is configured and built: configure runs one
# process at a time, and lint keeps the other core busy meanwhile.
sanitize=1
[ "${BOUNCE_SKIP_SANITIZERS:-0}" != 1 ] || sanitize=0
if [ "$sanitize" = 1 ]; then
	BUILD_DIR=build-san CONFIGURE_FLAGS="--enable-sanitizers --disable-ui" ./setup.sh >build-san.log 2>&1 &
	san_pid=$!
fi
lint=0
make -C build lint || lint=$?
if [ "$sanitize" = 1 ] && ! wait "$san_pid"; then
	cat build-san.log
	echo "test.sh: the sanitizer build failed" >&2
	exit 1
fi
[ "$lint" -eq 0 ] || exit "$lint"

if [ "$sanitize" = 1 ]; then
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	export BOUNCE_CHECK=1
	run_suite build-san "$san_target"
fi

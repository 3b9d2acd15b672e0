#!/bin/sh
# The whole test suite: build (installing what is missing), run the Check
# unit tests, the scenario tests and the UI tests; then the same suite again
# in a separate AddressSanitizer+UBSan build.
set -eu
cd "$(dirname "$0")"
./setup.sh
run_suite() {
	# test-suite.log holds the logs of exactly the tests that failed.
	make -C "$1" -j"$(nproc)" check || { cat "$1/test-suite.log"; exit 1; }
}
run_suite build
# Static analysis (cppcheck, clang-tidy: tests/lint.sh), about a minute.
make -C build lint

# The same suite under ASan+UBSan, with the invariant checker on in every run.
if [ "${BOUNCE_SKIP_SANITIZERS:-0}" != 1 ]; then
	BUILD_DIR=build-san CONFIGURE_FLAGS="--enable-sanitizers --disable-ui" ./setup.sh >/dev/null
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	BOUNCE_CHECK=1 run_suite build-san
fi

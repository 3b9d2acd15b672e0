#!/bin/sh
# Install what is missing on a fresh Debian machine, then configure and build
# bounce out of tree in build/ (or $BUILD_DIR). Safe to run again: it skips
# what is already there.
set -eu
cd "$(dirname "$0")"

pkgs="autoconf automake libtool pkg-config make gcc libsdl2-dev libcjson-dev check
      libsdl2-ttf-dev libsdl2-image-dev fonts-dejavu-core fontconfig xvfb xdotool parallel valgrind
      cppcheck clang-tidy libhwloc-dev zlib1g-dev libzip-dev time clang python3 python3-jsonschema"
# python3-jsonschema is the tests' (each command's JSON against its schema).
# C workloads are compiled by the user's compiler: GCC and Clang are both
# supported and tested. The fuzz build (CONFIGURE_FLAGS=--enable-fuzzing)
# also needs libFuzzer; bounce itself is built by gcc.
case " ${CONFIGURE_FLAGS:-} " in *" --enable-fuzzing "*) pkgs="$pkgs libclang-rt-dev" ;; esac
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	SUDO=
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

top=$(pwd)
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
build=${BUILD_DIR:-build}
mkdir -p "$build"
cd "$build"
[ -f Makefile ] && [ config.status -nt "$top/configure" ] || "$top/configure" ${CONFIGURE_FLAGS:-}
make -j"$(nproc)"

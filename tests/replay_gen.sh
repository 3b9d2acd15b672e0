#!/bin/sh
# Write a synthetic teaching-format trace per core, for volume: `replay_gen.sh
# CORES RECORDS PREFIX [OWN_BYTES [SHARED_PERCENT]]` writes PREFIX_0.data ...
# with RECORDS records each, a deterministic mix (fixed LCG): 20% computation,
# loads and stores to the core's own OWN_BYTES (default 3072: mostly hits in
# a 4 KiB L1) and SHARED_PERCENT (default 3) to 1 KiB shared by all cores.
set -eu
cores=$1 records=$2 prefix=$3 own=${4:-3072} shared=${5:-3}
c=0
while [ "$c" -lt "$cores" ]; do
	awk -v core="$c" -v n="$records" -v own_bytes="$own" -v shared="$shared" 'BEGIN {
		x = 12345 + core * 7919
		own = 65536 * (core + 1)
		for (i = 0; i < n; i++) {
			x = (x * 69069 + 1) % 4294967296   # exact in the doubles of awk
			h = int(x / 65536)                  # the better bits of the LCG
			k = h % 100
			if (k < 20)
				printf "2 0x%x\n", 1 + h % 7
			else if (k < 100 - shared)
				printf "%d 0x%x\n", (k < 75 ? 0 : 1), own + int(x / 4096) % own_bytes
			else
				printf "%d 0x%x\n", (k < 99 ? 0 : 1), 4096 + int(x / 4096) % 1024
		}
	}' > "${prefix}_$c.data"
	c=$((c + 1))
done

#!/usr/bin/env bash
# The Results screen's library on a folder of 100,000 results (tests/bench_library.c):
# the time to list the folder and read the first screen of rows, as the TUI does when it
# opens, and the peak resident set, in the same run. Reading every file (as the library
# did before it listed lazily) took 16 s and 1 GB there.
#   LIBRARY_RESULTS=100000 scripts/bench_library.sh
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
if [ ! -x "$BUILD/tests/bench_library" ]; then
	echo "bench: $BUILD/tests/bench_library is not built (make bench builds it); skipped"
	exit 0
fi
"$BUILD/tests/bench_library" "${LIBRARY_RESULTS:-100000}"

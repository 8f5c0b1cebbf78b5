#!/usr/bin/env bash
# Runs every test: the Check unit tests (build/tests/check_*), then the integration and
# TUI scripts (tests/t_*.sh). Prints one closing line: "N passed, N failed, N skipped".
# TESTS="check_hist t_run" runs only those.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD DRIVEBENCH="$PWD/$BUILD/drivebench" CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-120}
# the program built here reads the tree's presets, themes and specs (src/base/datadir.h)
export DRIVEBENCH_DATADIR=${DRIVEBENCH_DATADIR:-$PWD}
passed=0 failed=0 skipped=0 failures=""

want() { [ -z "${TESTS:-}" ] || [[ " $TESTS " == *" $1 "* ]]; }

for bin in "$BUILD"/tests/check_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	want "$name" || continue
	t0=$SECONDS
	out=$("$bin" 2>&1)
	rc=$?
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n 1)
	n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
	f=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
	e=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
	printf '%s\n' "$out" | grep -E '^(SKIP|NOTE)' || true
	if [ -z "$line" ]; then
		echo "FAIL: $name crashed or printed no summary (exit $rc)"
		printf '%s\n' "$out" | tail -n 20
		failed=$((failed + 1)) failures="$failures $name"
		continue
	fi
	echo "$name: $line ($((SECONDS - t0)) s)"
	[ "$f$e" = "00" ] || printf '%s\n' "$out" | grep -E ':[EF]:' | head -n 20
	passed=$((passed + n - f - e))
	failed=$((failed + f + e))
	[ "$f$e" = "00" ] && [ "$rc" -eq 0 ] || failures="$failures $name"
done

for t in tests/t_*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	want "$name" || continue
	t0=$SECONDS
	out=$(bash "$t" 2>&1)
	rc=$?
	p=$(grep -c '^PASS: ' <<<"$out")
	f=$(grep -c '^FAIL: ' <<<"$out")
	s=$(grep -c '^SKIP: ' <<<"$out")
	grep -E '^(FAIL|SKIP): ' <<<"$out"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: $name exited $rc"
		printf '%s\n' "$out" | tail -n 20
		f=1
	fi
	[ "$f" -gt 0 ] && printf '%s\n' "$out" | grep -vE '^(PASS|SKIP): ' | tail -n 30
	echo "$name: $p passed, $f failed, $s skipped ($((SECONDS - t0)) s)"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -eq 0 ] || failures="$failures $name"
done

[ -z "$failures" ] || echo "failing:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

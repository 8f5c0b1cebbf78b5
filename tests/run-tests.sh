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

# Suites run JOBS at a time (default 2), each into its own file, reported in the order they
# start. Those that change or read the machine's block devices as a whole (device-mapper,
# md, partitions, the drive list) run first, one after another in a lane of their own;
# beside that lane run only the BESIDE suites, which make no block device, mount nothing
# and list no drives (a drive list opens devices a dm or md test is about to remove). Then
# the longest (about a minute each), so that no long one is left running by itself at the
# end. JOBS=1 runs them all one after another.
JOBS=${JOBS:-2}
ALONE=" t_stacks t_safety t_list t_erase "
BESIDE=" t_signals check_workload check_runner t_compare t_layers "
LONG=" t_tui t_fio t_article t_app t_defs t_presets t_run t_hostile "
out_dir=$(mktemp -d /tmp/drivebench-run-tests.XXXXXX)
trap 'rm -rf "$out_dir"' EXIT
trap 'exit 130' INT TERM

all=()
# (a test program whose source is gone, left in the build directory by a rename, is not run)
for bin in "$BUILD"/tests/check_*; do
	[ -x "$bin" ] && [ -f "tests/$(basename "$bin").c" ] && want "$(basename "$bin")" &&
		all+=("$bin")
done
for t in tests/t_*.sh; do
	[ -f "$t" ] && want "$(basename "$t" .sh)" && all+=("$t")
done
suites=()
alone=()
for pass in alone beside long rest; do
	for path in "${all[@]}"; do
		name=$(basename "$path" .sh) kind=rest
		[[ $LONG == *" $name "* ]] && kind=long
		[[ $BESIDE == *" $name "* ]] && kind=beside
		[[ $ALONE == *" $name "* ]] && kind=alone
		[ "$kind" = "$pass" ] && suites+=("$path")
		[ "$kind" = alone ] && [ "$pass" = alone ] && alone+=("$path")
	done
done

# run_suite PATH: its output to $out_dir/NAME.out, then "rc seconds" to NAME.rc
run_suite() {
	local name t0=$SECONDS rc
	name=$(basename "$1" .sh)
	if [[ $1 == *.sh ]]; then bash "$1" >"$out_dir/$name.out" 2>&1; else "$1" >"$out_dir/$name.out" 2>&1; fi
	rc=$?
	echo "$rc $((SECONDS - t0))" >"$out_dir/$name.rc.tmp" && mv "$out_dir/$name.rc.tmp" "$out_dir/$name.rc"
}

report_check() { # NAME OUT RC SECONDS
	local name=$1 out=$2 rc=$3 secs=$4 line n f e
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n 1)
	printf '%s\n' "$out" | grep -E '^(SKIP|NOTE)' || true
	if [ -z "$line" ]; then
		echo "FAIL: $name crashed or printed no summary (exit $rc)"
		printf '%s\n' "$out" | tail -n 20
		failed=$((failed + 1)) failures="$failures $name"
		return
	fi
	n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
	f=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
	e=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
	echo "$name: $line ($secs s)"
	[ "$f$e" = "00" ] || printf '%s\n' "$out" | grep -E ':[EF]:' | head -n 20
	passed=$((passed + n - f - e))
	failed=$((failed + f + e))
	[ "$f$e" = "00" ] && [ "$rc" -eq 0 ] || failures="$failures $name"
}

report_script() { # NAME OUT RC SECONDS
	local name=$1 out=$2 rc=$3 secs=$4 p f s
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
	echo "$name: $p passed, $f failed, $s skipped ($secs s)"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -eq 0 ] || failures="$failures $name"
}

# report the suites that have finished, in order, from index $next
next=0
report_ready() {
	local path name rc secs
	while [ "$next" -lt "${#suites[@]}" ]; do
		path=${suites[next]} name=$(basename "${suites[next]}" .sh)
		[ -f "$out_dir/$name.rc" ] || return 0
		read -r rc secs <"$out_dir/$name.rc"
		if [[ $path == *.sh ]]; then
			report_script "$name" "$(cat "$out_dir/$name.out")" "$rc" "$secs"
		else
			report_check "$name" "$(cat "$out_dir/$name.out")" "$rc" "$secs"
		fi
		next=$((next + 1))
	done
}

lane=""
if [ "${#alone[@]}" -gt 0 ]; then
	(for path in "${alone[@]}"; do run_suite "$path"; done) &
	lane=$!
fi
for path in "${suites[@]}"; do
	name=$(basename "$path" .sh)
	[[ $ALONE == *" $name "* ]] && continue
	if [ -n "$lane" ] && [[ $BESIDE != *" $name "* ]]; then
		wait "$lane"
		lane=""
		report_ready
	fi
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n
		report_ready
	done
	run_suite "$path" &
	report_ready
done
wait
report_ready

[ -z "$failures" ] || echo "failing:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

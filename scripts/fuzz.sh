#!/usr/bin/env bash
# make fuzz: build every tests/fuzz/fuzz_*.c against the core library with clang's
# libFuzzer, ASan and UBSan, replay the regression inputs in tests/fuzz/regress/NAME/,
# then fuzz each target for an equal share of SECONDS (default 60), seeded from the
# folders named in its "// fuzz-seeds:" line (the shipped presets, themes, results). A crash fails the run and is copied into
# tests/fuzz/regress/NAME/, where it stays as a regression test once fixed.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-fuzz}
SECONDS_TOTAL=${1:-60}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
targets=(tests/fuzz/fuzz_*.c)
[ -e "${targets[0]}" ] || { echo "fuzz: no targets"; exit 0; }

make --no-print-directory BUILD="$BUILD" CC=clang \
	CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $SAN" \
	"$BUILD/libdrivebench.a" >/dev/null
cflags=$(make --no-print-directory -s print-cflags)
libs=$(make --no-print-directory -s print-libs)

per=$((SECONDS_TOTAL / ${#targets[@]}))
[ "$per" -ge 1 ] || per=1
status=0
for src in "${targets[@]}"; do
	name=$(basename "$src" .c)
	bin=$BUILD/fuzz/$name
	mkdir -p "$BUILD/fuzz" "$BUILD/fuzz/corpus-$name" "tests/fuzz/regress/$name"
	# sources outside the core library that a target needs: "// fuzz-extra: ui/theme.c"
	extra=$(sed -n 's|^// fuzz-extra: ||p' "$src")
	# shellcheck disable=SC2086
	clang $cflags -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer $SAN -o "$bin" "$src" \
		$extra "$BUILD/libdrivebench.a" $libs
	if compgen -G "tests/fuzz/regress/$name/*" >/dev/null; then
		"$bin" -runs=0 tests/fuzz/regress/"$name"/* >"$BUILD/fuzz/$name.regress.log" 2>&1 || {
			echo "fuzz: $name fails a regression input:"
			tail -n 30 "$BUILD/fuzz/$name.regress.log"
			status=1
			continue
		}
	fi
	# seed corpus: the folders a target names ("// fuzz-seeds: presets tests/fixtures/...")
	seeds=()
	for d in $(sed -n 's|^// fuzz-seeds: ||p' "$src"); do
		[ -d "$d" ] && seeds+=("$d")
	done
	if "$bin" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$BUILD/fuzz/$name-" "$BUILD/fuzz/corpus-$name" "${seeds[@]}" \
		>"$BUILD/fuzz/$name.log" 2>&1; then
		runs=$(grep -Eo 'Done [0-9]+ runs' "$BUILD/fuzz/$name.log" | tail -n 1)
		echo "fuzz: $name: no finding in ${per}s (${runs:-?})"
	else
		echo "fuzz: $name: FINDING"
		tail -n 40 "$BUILD/fuzz/$name.log"
		cp "$BUILD/fuzz/$name"-crash-* "$BUILD/fuzz/$name"-leak-* "$BUILD/fuzz/$name"-timeout-* \
			"tests/fuzz/regress/$name/" 2>/dev/null || true
		status=1
	fi
done
exit $status

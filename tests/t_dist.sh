#!/usr/bin/env bash
# Access distributions end to end: where the engine's writes land, the result, show,
# export-fio (checked by fio --parse-only) and the preset's file:line errors.
. "$(dirname "$0")/lib.sh"

# zoned:50/10:0/80:50/10 writes only the first and the last tenth of a sparse file: the
# middle stays a hole, which SEEK_DATA sees (the engine's offsets, not the generator's)
f=$(mkfile 64M)
if "$DRIVEBENCH" run --target "$f" --rw randwrite --distribution zoned:50/10:0/80:50/10 \
	--time 1s --quiet --out "$T/z.json" 2>"$T/err"; then
	pass "zoned run exits 0"
else
	fail "zoned run" "$(cat "$T/err")"
fi
check "zoned: the middle 80% is never written, both ends are" python3 - "$f" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.fstat(fd).st_size
tenth = size // 10
assert os.lseek(fd, 0, os.SEEK_DATA) < tenth
nxt = os.lseek(fd, tenth, os.SEEK_DATA)
assert nxt >= size - tenth - 4096, (nxt, size)
PY
check "zoned: the result records the distribution" test \
	"$(json "$T/z.json" 'd["phases"][0]["steps"][0]["workload"]["distribution"]')" = \
	"zoned:50/10:0/80:50/10"
check "zoned: show prints it" grep -q '^  offsets: zoned:50/10:0/80:50/10$' \
	<("$DRIVEBENCH" show "$T/z.json")

# uniform is the default and is not written: old results without the field read the same
"$DRIVEBENCH" run --target "$f" --time 200ms --quiet --out "$T/u.json" 2>"$T/err"
check "uniform: no distribution in the result" test \
	"$(json "$T/u.json" '"distribution" in d["phases"][0]["steps"][0]["workload"]')" = False
check "uniform: show prints no offsets line" bash -c "! '$DRIVEBENCH' show '$T/u.json' | grep -q offsets"

# every kind, as a list: one step each, exported to fio
cat >"$T/d.preset" <<'P'
[preset]
name = dist
[workload]
time = 1s
[measure]
read = 70
distribution = uniform zipf:1.2 pareto:0.2 normal:20 zoned:60/10:30/20:8/30:2/40
P
"$DRIVEBENCH" export-fio "$T/d.preset" -o "$T/d.fio" 2>"$T/err"
check "export-fio: each kind maps to random_distribution" test \
	"$(grep '^random_distribution=' "$T/d.fio" | tr '\n' ' ')" = \
	"random_distribution=zipf:1.2 random_distribution=pareto:0.2 random_distribution=normal:20 random_distribution=zoned:60/10:30/20:8/30:2/40 "
if command -v fio >/dev/null; then
	check "export-fio: fio --parse-only accepts it" \
		env DRIVEBENCH_TARGET=/dev/null fio --parse-only "$T/d.fio"
else
	skip "export-fio: fio --parse-only" "fio is not installed"
fi

# errors name the file and the line
bad() { # name value want
	printf '[preset]\nname = b\n[measure]\ndistribution = %s\n' "$2" >"$T/b.preset"
	"$DRIVEBENCH" export-fio "$T/b.preset" >/dev/null 2>"$T/e"
	local rc=$?
	if [ "$rc" = 2 ] && grep -q "b.preset:4: .*$3" "$T/e"; then pass "$1"; else
		fail "$1" "exit $rc: $(cat "$T/e")"; fi
}
bad "error: zoned shares" "zoned:90/10:20/90" "add up to 110%"
bad "error: zipf theta 1" "zipf:1" "not above 0 and not 1"
bad "error: unknown kind" "gauss:3" "is not uniform"
printf '[preset]\nname = b\n[measure]\npattern = sequential\ndistribution = pareto:0.3\n' >"$T/b.preset"
"$DRIVEBENCH" export-fio "$T/b.preset" >/dev/null 2>"$T/e"
check "error: sequential with a skew names the distribution's line" \
	grep -q "b.preset:5: \[measure\] step 1: distribution pareto needs pattern = random" "$T/e"

# compare keeps steps that differ only in their distribution apart, and names it
printf '[preset]\nname = c\n[measure]\ntime = 200ms\ndistribution = uniform zoned:90/10:10/90\n' >"$T/c.preset"
for i in 1 2; do
	"$DRIVEBENCH" run --target "$f" --engine null --preset "$T/c.preset" --quiet \
		--out "$T/c$i.json" 2>"$T/err" || fail "compare: run $i" "$(cat "$T/err")"
done
"$DRIVEBENCH" compare "$T/c1.json" "$T/c2.json" >"$T/cmp" 2>"$T/err"
check "compare: a uniform and a zoned group" test \
	"$(grep -c '^Throughput (IOPS), 4k read random\( zoned:90/10:10/90\)\?$' "$T/cmp")" = 2
check "compare: no step left unmatched" bash -c "! grep -q 'not compared\|only in' '$T/cmp'"

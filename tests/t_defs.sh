#!/usr/bin/env bash
# What a number means: every step records its measurement definition (wait mode, scale,
# sector sizes, latency kind), compare flags runs that differ in any format and --strict
# refuses them, import keeps fio's latency kind, export-fio asks fio for what drivebench
# measures. Runs use the null engine; the sector-size case needs loop devices (root).
. tests/lib.sh
FIO=tests/fixtures/fio
img=$(mkfile 64M a.img)
cat >"$T/tiny.preset" <<'EOF'
[preset]
name = tiny
description = one read step
[measure]
pattern = random
bs = 4k
read = 100
threads = 1
qdepth = 16
time = 1s
EOF

# run NAME TARGET ARGS...: a null-engine run of the tiny preset into $T/NAME.json
run() {
	local name=$1 target=$2; shift 2
	"$DRIVEBENCH" run --target "$target" --engine null --preset "$T/tiny.preset" --quiet \
		--out "$T/$name.json" "$@" >"$T/$name.log" 2>&1 ||
		fail "run $name" "$(head -c 300 "$T/$name.log")"
}

# flagged NAME CODE RESULTS...: compare marks the table with CODE in every format
flagged() {
	local name=$1 code=$2 fmt; shift 2
	for fmt in text md csv json html; do
		if "$DRIVEBENCH" compare --format "$fmt" "$@" >"$T/$name.$fmt" 2>&1 &&
			grep -q -- "$code" "$T/$name.$fmt"; then
			pass "$name: $code in $fmt"
		else
			fail "$name: $code in $fmt" "$(head -c 300 "$T/$name.$fmt")"
		fi
	done
	if "$DRIVEBENCH" compare --strict "$@" >"$T/$name.strict" 2>"$T/$name.strict.err"; then
		fail "$name: --strict refuses" "exit 0"
	else
		rc=$?
		[ "$rc" = 1 ] && [ ! -s "$T/$name.strict" ] && grep -q -- "$code" "$T/$name.strict.err" &&
			pass "$name: --strict refuses (exit 1, the code named)" ||
			fail "$name: --strict refuses" "exit $rc: $(head -c 300 "$T/$name.strict.err")"
	fi
}

def() { json "$1" "d['phases'][0]['steps'][0]['definition'].get('$2')"; }

# wait modes: a plain run sleeps, --busy-poll yes spins, and each says so
run plain "$img" --busy-poll no
run spin "$img" --busy-poll yes
[ "$(def "$T/plain.json" wait)" = interrupt ] && pass "a plain run records wait interrupt" ||
	fail "a plain run records wait interrupt" "$(def "$T/plain.json" wait)"
[ "$(def "$T/spin.json" wait)" = busy-poll ] && pass "--busy-poll yes records busy-poll" ||
	fail "--busy-poll yes records busy-poll" "$(def "$T/spin.json" wait)"
[ "$(def "$T/plain.json" latency)" = total ] && pass "a run records total latency" ||
	fail "a run records total latency" "$(def "$T/plain.json" latency)"
"$DRIVEBENCH" show "$T/spin.json" | grep -q "measured: latency total, wait busy-poll" &&
	pass "show prints the definition" || fail "show prints the definition" ""
flagged wait not-comparable:wait "$T/plain.json" "$T/spin.json"

# scales
run s1 "$img" --busy-poll no --scale 0.01
run s2 "$img" --busy-poll no --scale 0.02
flagged scale not-comparable:scale "$T/s1.json" "$T/s2.json"
grep -q "x0.02" "$T/scale.text" && pass "scale in compare's run header" ||
	fail "scale in compare's run header" ""
"$DRIVEBENCH" compare --strict "$T/s1.json" "$T/s1.json" >/dev/null 2>&1 &&
	pass "--strict builds a comparable table" || fail "--strict builds a comparable table" ""

# sector sizes: loop devices of 512- and 4096-byte sectors
if is_root && mkloop l512 "$(mkfile 64M l512.img)" --sector-size 512 &&
	mkloop l4k "$(mkfile 64M l4k.img)" --sector-size 4096; then
	run sec512 "$l512" --busy-poll no
	run sec4k "$l4k" --busy-poll no
	[ "$(def "$T/sec4k.json" lbs)" = 4096 ] && pass "a 4096-byte-sector target records lbs" ||
		fail "a 4096-byte-sector target records lbs" "$(def "$T/sec4k.json" lbs)"
	flagged sector not-comparable:sector "$T/sec512.json" "$T/sec4k.json"
	# a run on several targets: every target's sizes, whatever the order of --target
	if mkloop l512b "$(mkfile 64M l512b.img)" --sector-size 512; then
		multi() { # multi NAME TARGET...: a null-engine run of the tiny preset on them all
			local name=$1 args=() t; shift
			for t in "$@"; do args+=(--target "$t"); done
			"$DRIVEBENCH" run "${args[@]}" --engine null --preset "$T/tiny.preset" \
				--scale 0.1 --busy-poll no --quiet --out "$T/$name.json" \
				>"$T/$name.log" 2>&1 || fail "run $name" "$(head -c 300 "$T/$name.log")"
		}
		multi mixed "$l512" "$l4k"
		multi mixed-rev "$l4k" "$l512"
		multi two512 "$l512" "$l512b"
		[ "$(def "$T/mixed-rev.json" sectors)" = 512/512+4096/4096 ] &&
			pass "a run on several targets records each one's sectors" ||
			fail "a run on several targets records each one's sectors" \
				"$(def "$T/mixed-rev.json" sectors)"
		"$DRIVEBENCH" show "$T/mixed.json" | grep -q "sectors 512/512+4096/4096," &&
			pass "show prints every target's sectors" ||
			fail "show prints every target's sectors" "$("$DRIVEBENCH" show "$T/mixed.json")"
		flagged sector-targets not-comparable:sector "$T/mixed.json" "$T/two512.json"
		flagged sector-targets-rev not-comparable:sector "$T/two512.json" "$T/mixed-rev.json"
		"$DRIVEBENCH" compare --strict "$T/mixed.json" "$T/mixed-rev.json" >/dev/null \
			2>"$T/order.err" && pass "the order of --target is not a difference" ||
			fail "the order of --target is not a difference" "$(cat "$T/order.err")"
	else
		skip "sector sizes of several targets" "no third loop device"
	fi
else
	skip "sector sizes" "needs root and loop devices"
fi

# async issue (DRIVEBENCH_URING_ASYNC=auto): the uring engine marks reads and writes
# IOSQE_ASYNC on a target that cannot take non-blocking I/O (zram), in steps of fewer
# threads than CPUs; not on a target that can (a loop device, a file), not with as many
# threads as CPUs, and not by default. The step's flags say which.
cpus=$(nproc)
uring() { # uring NAME TARGET THREADS [env...]: a 1 s io_uring read run into $T/NAME.json
	local name=$1 target=$2 threads=$3; shift 3
	env "$@" "$DRIVEBENCH" run --target "$target" --rw randread --bs 4k --qdepth 16 --time 1s \
		--threads "$threads" --quiet --out "$T/$name.json" >"$T/$name.log" 2>&1 ||
		fail "uring run $name" "$(head -c 300 "$T/$name.log")"
}
async() { # async NAME TARGET THREADS WANT [env...]: does NAME's step say IOSQE_ASYNC?
	local name=$1 target=$2 threads=$3 want=$4 got; shift 4
	uring "$name" "$target" "$threads" "$@"
	got=$(json "$T/$name.json" "'yes' if 'IOSQE_ASYNC' in d['phases'][0]['steps'][0]['definition']['flags'] else 'no'")
	[ "$got" = "$want" ] && pass "async issue on $name: $want" ||
		fail "async issue on $name: $want" "$got: $(def "$T/$name.json" flags)"
}
async file "$img" 1 no DRIVEBENCH_URING_ASYNC=auto
if [ "$cpus" -lt 2 ]; then
	skip "async issue on zram" "needs 2 CPUs"
elif mkzram zr 64M; then
	async zram-auto "$zr" 1 yes DRIVEBENCH_URING_ASYNC=auto
	async zram-default "$zr" 1 no
	async zram-no "$zr" 1 no DRIVEBENCH_URING_ASYNC=no
	async zram-cpus-threads "$zr" "$cpus" no DRIVEBENCH_URING_ASYNC=auto
	"$DRIVEBENCH" show "$T/zram-auto.json" | grep -q "IOSQE_ASYNC.*issue async" &&
		pass "show prints IOSQE_ASYNC and issue async" ||
		fail "show prints IOSQE_ASYNC and issue async" ""
	[ "$(def "$T/zram-auto.json" issue)|$(def "$T/zram-default.json" issue)" = \
		"async|nowait-first" ] && pass "the definition records the issue" ||
		fail "the definition records the issue" "$(def "$T/zram-auto.json" issue)"
	flagged issue not-comparable:issue "$T/zram-default.json" "$T/zram-auto.json"
else
	skip "async issue on zram" "needs root and zram-control"
fi
if is_root && [ -n "${l512:-}" ]; then
	async loop "$l512" 1 no DRIVEBENCH_URING_ASYNC=auto
fi

# gathered waits (the default; DRIVEBENCH_URING_GATHER=no turns them off): on a target
# whose I/O io_uring's worker threads complete (zram), a thread lets completions gather in
# the kernel: for 10 us once one is there with two CPUs or more to itself (kernel 6.12 on),
# until all are there with fewer (a block device only); not with busy polling or async
# issue, not on a target that takes non-blocking I/O. The engine's flags say which, and
# show prints them.
gathers() { # gathers NAME WANT: what NAME's flags say of gathering: 10us, all or no
	local got
	got=$(json "$T/$1.json" "(lambda f: '10us' if 'gather 10us' in f else 'all' if 'gather all' in f else 'no')(d['phases'][0]['steps'][0]['definition']['flags'])")
	[ "$got" = "$2" ] && pass "gather on $1: $2" || fail "gather on $1: $2" "$(def "$T/$1.json" flags)"
}
IFS=. read -r kmaj kmin _ <<<"$(uname -r)"
gathers file no
if [ "$cpus" -ge 2 ] && [ -n "${zr:-}" ] &&
	{ [ "$kmaj" -gt 6 ] || { [ "$kmaj" = 6 ] && [ "$kmin" -ge 12 ]; }; }; then
	gathers zram-default 10us
	gathers zram-no 10us
	gathers zram-auto no
	uring zram-cpus "$zr" "$cpus"
	gathers zram-cpus all
	gathers zram-cpus-threads all
	uring zram-gather-no "$zr" 1 DRIVEBENCH_URING_GATHER=no
	gathers zram-gather-no no
	uring zram-gather-no-cpus "$zr" "$cpus" DRIVEBENCH_URING_GATHER=no
	gathers zram-gather-no-cpus no
	uring zram-gather-poll "$zr" 1 DRIVEBENCH_BUSY_POLL=yes
	gathers zram-gather-poll no
	"$DRIVEBENCH" show "$T/zram-default.json" | grep -q "engine io_uring (.*, gather 10us)" &&
		pass "show prints gather 10us" || fail "show prints gather 10us" ""
else
	skip "gathered waits on zram" "needs 2 CPUs, zram and kernel 6.12"
fi
if is_root && [ -n "${l512:-}" ]; then
	gathers loop no
fi
# replay measures as the original did: each step's wait (what its workers did), issue and
# ring setup are the original step's, unless the replay is told otherwise (--busy-poll;
# DRIVEBENCH_URING_ASYNC and _SETUP); DRIVEBENCH_BUSY_POLL, a bench's default, is not
replay() { # replay NAME ORIGINAL TARGET [VAR=VALUE...] [ARGS...]: a replay into $T/NAME.json
	local name=$1 orig=$2 target=$3 vars=()
	shift 3
	while [[ ${1:-} == [A-Z]*=* ]]; do vars+=("$1"); shift; done
	env "${vars[@]}" "$DRIVEBENCH" replay "$T/$orig.json" --target "$target" --quiet \
		--out "$T/$name.json" "$@" >"$T/$name.log" 2>&1 ||
		fail "replay $name" "$(head -c 300 "$T/$name.log")"
}
waits() { json "$T/$1.json" "' '.join(s['definition'].get('wait', '?') for p in d['phases'] for s in p['steps'])"; }
ring() { def "$T/$1.json" flags | cut -d, -f1; }
# 1 s of io_uring on the file, spinning, its ring set up with COOP_TASKRUN
DRIVEBENCH_URING_SETUP=1 "$DRIVEBENCH" run --target "$img" --preset "$T/tiny.preset" --scale 0.1 \
	--busy-poll yes --quiet --out "$T/rspin.json" >"$T/rspin.log" 2>&1 ||
	fail "run rspin" "$(head -c 300 "$T/rspin.log")"
if [ "$(waits rspin)" = busy-poll ]; then
	replay rspin-again rspin "$img"
	[ "$(waits rspin-again)|$(ring rspin-again)" = "busy-poll|$(ring rspin)" ] &&
		pass "replay: the original's busy-poll and ring setup" ||
		fail "replay: the original's busy-poll and ring setup" \
			"$(waits rspin-again) $(def "$T/rspin-again.json" flags)"
	"$DRIVEBENCH" compare --strict "$T/rspin.json" "$T/rspin-again.json" >/dev/null 2>&1 &&
		pass "replay: comparable with its original (--strict)" ||
		fail "replay: comparable with its original (--strict)" ""
	replay rspin-env rspin "$img" DRIVEBENCH_BUSY_POLL=no
	replay rspin-no rspin "$img" --busy-poll no
	[ "$(waits rspin-env)|$(waits rspin-no)" = "busy-poll|interrupt" ] &&
		pass "replay: --busy-poll no overrides the original's wait, DRIVEBENCH_BUSY_POLL not" ||
		fail "replay: --busy-poll no overrides the original's wait, DRIVEBENCH_BUSY_POLL not" \
			"$(waits rspin-env) $(waits rspin-no)"
	replay rspin-setup rspin "$img" DRIVEBENCH_URING_SETUP=0
	[ "$(ring rspin-setup)" = "$(ring file)" ] &&
		pass "replay: DRIVEBENCH_URING_SETUP overrides the original's ring setup" ||
		fail "replay: DRIVEBENCH_URING_SETUP overrides the original's ring setup" \
			"$(ring rspin-setup), not $(ring file)"
else
	skip "replay of a busy-polling run" "the ring here does not busy-poll: $(waits rspin)"
fi
# --busy-poll auto spins in the steps of fewer threads than CPUs: replayed step by step
if [ "$cpus" -ge 2 ]; then
	"$DRIVEBENCH" run --target "$img" --engine null --threads "1 $cpus" --time 100ms \
		--interval 50ms --busy-poll auto --quiet --out "$T/rauto.json" >/dev/null 2>&1
	replay rauto-again rauto "$img" DRIVEBENCH_BUSY_POLL=yes --engine null
	[ "$(waits rauto)|$(waits rauto-again)" = "busy-poll interrupt|busy-poll interrupt" ] &&
		pass "replay: each step's wait under --busy-poll auto" ||
		fail "replay: each step's wait under --busy-poll auto" "$(waits rauto) | $(waits rauto-again)"
else
	skip "replay of --busy-poll auto" "needs 2 CPUs"
fi
# async issue on zram (above): replayed, and DRIVEBENCH_URING_ASYNC=no overrides it
if [ -f "$T/zram-auto.json" ] && [ "$(def "$T/zram-auto.json" issue)" = async ]; then
	replay zram-again zram-auto "$zr"
	replay zram-again-no zram-auto "$zr" DRIVEBENCH_URING_ASYNC=no
	[ "$(def "$T/zram-again.json" issue)|$(def "$T/zram-again-no.json" issue)" = \
		"async|nowait-first" ] && pass "replay: the original's async issue, unless told" ||
		fail "replay: the original's async issue, unless told" \
			"$(def "$T/zram-again.json" issue) $(def "$T/zram-again-no.json" issue)"
else
	skip "replay of async issue" "needs the zram run above"
fi

DRIVEBENCH_URING_GATHER=off "$DRIVEBENCH" list >/dev/null 2>"$T/um.err"
[ $? = 2 ] && grep -q "DRIVEBENCH_URING_GATHER: 'off' is not auto or no" "$T/um.err" &&
	pass "a bad DRIVEBENCH_URING_GATHER: exit 2" ||
	fail "a bad DRIVEBENCH_URING_GATHER: exit 2" "$(cat "$T/um.err")"
DRIVEBENCH_NO_PROGRESS=10ms "$DRIVEBENCH" list >/dev/null 2>"$T/um.err"
[ $? = 2 ] && grep -q "DRIVEBENCH_NO_PROGRESS: '10ms' is not a duration of 100ms or more" "$T/um.err" &&
	pass "a bad DRIVEBENCH_NO_PROGRESS: exit 2" ||
	fail "a bad DRIVEBENCH_NO_PROGRESS: exit 2" "$(cat "$T/um.err")"
for v in 4 -1 x 99999999999 ""; do
	DRIVEBENCH_URING_SETUP=$v "$DRIVEBENCH" list >/dev/null 2>"$T/us.err"
	[ $? = 2 ] && grep -q "DRIVEBENCH_URING_SETUP: '$v' is not 0, 1, 2 or 3" "$T/us.err" &&
		pass "a bad DRIVEBENCH_URING_SETUP ('$v'): exit 2" ||
		fail "a bad DRIVEBENCH_URING_SETUP ('$v'): exit 2" "$(cat "$T/us.err")"
done
DRIVEBENCH_URING_ASYNC=sometimes "$DRIVEBENCH" list >/dev/null 2>"$T/ua.err"
[ $? = 2 ] && grep -q "DRIVEBENCH_URING_ASYNC: 'sometimes' is not no or auto" "$T/ua.err" &&
	pass "a bad DRIVEBENCH_URING_ASYNC: exit 2" ||
	fail "a bad DRIVEBENCH_URING_ASYNC: exit 2" "$(cat "$T/ua.err")"

# fio: an import with clat only is completion-only, and marked against a drivebench run
if "$DRIVEBENCH" import "$FIO/clat-only.json" --label "fio clat" --note "QD16 read" \
	--out "$T/fioimp.json" --quiet 2>"$T/import.err"; then
	[ "$(def "$T/fioimp.json" latency)" = completion-only ] &&
		pass "import: clat only is completion-only" ||
		fail "import: clat only is completion-only" "$(def "$T/fioimp.json" latency)"
	[ "$(json "$T/fioimp.json" "d['label'] + '|' + d['note']")" = "fio clat|QD16 read" ] &&
		pass "import --label --note" || fail "import --label --note" ""
	flagged fio not-comparable:latency-kind "$T/plain.json" "$T/fioimp.json"
	# fio's io_uring without force_async issues non-blocking first
	[ "$(def "$T/fioimp.json" issue)" = nowait-first ] &&
		pass "import: io_uring without force_async is nowait-first" ||
		fail "import: io_uring without force_async is nowait-first" "$(def "$T/fioimp.json" issue)"
	[ -f "$T/zram-auto.json" ] &&
		flagged fio-issue not-comparable:issue "$T/fioimp.json" "$T/zram-auto.json"
else
	fail "import clat-only" "$(head -c 300 "$T/import.err")"
fi

# fio: percentiles of clat (no lat_percentiles=1) and of lat, both with lat's mean: the
# percentile tables are marked, --metric iops or avg-lat is not
if "$DRIVEBENCH" import "$FIO/lat.json" --out "$T/fio-pclat.json" --quiet 2>"$T/import.err" &&
	"$DRIVEBENCH" import "$FIO/lat-pct.json" --out "$T/fio-plat.json" --quiet 2>>"$T/import.err"; then
	[ "$(def "$T/fio-pclat.json" percentiles)|$(def "$T/fio-plat.json" percentiles)" = \
		"completion-only|total" ] && pass "import records what its percentiles span" ||
		fail "import records what its percentiles span" "$(def "$T/fio-pclat.json" percentiles)"
	flagged fio-percentiles not-comparable:latency-kind --metric p99 "$T/fio-pclat.json" \
		"$T/fio-plat.json"
	for m in iops avg-lat; do
		"$DRIVEBENCH" compare --strict --metric $m "$T/fio-pclat.json" "$T/fio-plat.json" \
			>/dev/null 2>"$T/pm.err" && pass "--metric $m: percentiles' kind not a difference" ||
			fail "--metric $m: percentiles' kind not a difference" "$(cat "$T/pm.err")"
	done
else
	fail "import lat.json, lat-pct.json" "$(head -c 300 "$T/import.err")"
fi

# fio's plain json: the percentiles of reads and writes together are not known, and
# show and compare say "-" (null in JSON, empty in CSV), not a latency of 0.00 ms
if "$DRIVEBENCH" import "$FIO/plain.json" --out "$T/fio-plain.json" --quiet 2>"$T/import.err"; then
	"$DRIVEBENCH" show "$T/fio-plain.json" >"$T/plain.show" 2>&1
	row=$(grep -m1 '^  seq #1 ' "$T/plain.show" | tr -s ' ')
	dashes=$(awk '{ for (i = 1; i <= NF; i++) n += $i == "-"; print n }' <<<"$row")
	! grep -q " 0\.00 " <<<"$row " && [ "$dashes" = 5 ] &&
		pass "show: unknown percentiles are -" || fail "show: unknown percentiles are -" "$row"
	"$DRIVEBENCH" compare --metric p99 "$T/fio-plain.json" >"$T/plain.cmp" 2>&1
	row=$(grep -m1 '^  1T1Q ' "$T/plain.cmp" | tr -s ' ')
	[ "$row" = " 1T1Q -" ] && pass "compare: an unknown p99 is -" ||
		fail "compare: an unknown p99 is -" "$row"
	"$DRIVEBENCH" compare --metric p99 --format json "$T/fio-plain.json" >"$T/plain.cmpj" 2>&1
	json "$T/plain.cmpj" "d" >/dev/null 2>&1 &&
		[ "$(json "$T/plain.cmpj" "[r['values']['p99'][0] for r in d['rows']][:3]")" = \
			"[None, 9e-05, 0.0003]" ] && pass "compare json: an unknown p99 is null" ||
		fail "compare json: an unknown p99 is null" "$(head -c 300 "$T/plain.cmpj")"
else
	fail "import plain.json" "$(head -c 300 "$T/import.err")"
fi

# export-fio: fio's percentiles of total latency, and the logs a steady-state verdict needs
"$DRIVEBENCH" export-fio snia-iops >"$T/snia.fio" 2>&1
grep -qx "lat_percentiles=1" "$T/snia.fio" && pass "export-fio sets lat_percentiles=1" ||
	fail "export-fio sets lat_percentiles=1" ""
for key in write_iops_log write_lat_log log_avg_msec; do
	grep -q "^$key=" "$T/snia.fio" && pass "export-fio: rounds log $key" ||
		fail "export-fio: rounds log $key" ""
done
exit 0

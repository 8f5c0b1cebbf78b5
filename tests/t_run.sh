#!/usr/bin/env bash
# drivebench run, headless: result file contents, exit statuses, the write guard.
. "$(dirname "$0")/lib.sh"

f=$(mkfile 64M)
out=$T/r.json
if "$DRIVEBENCH" run --target "$f" --rw randrw --read 70 --bs 8k --threads 2 --qdepth 8 \
	--time 2s --interval 500ms --out "$out" 2>"$T/err"; then
	pass "run: 70/30 on a file exits 0"
else
	fail "run: 70/30 on a file" "$(cat "$T/err")"
fi
check "run: progress line per interval on stderr" \
	test "$(grep -c 'IOPS (R' "$T/err")" -ge 4
check "run: format and version come first" \
	test "$(head -c 200 "$out" | tr -d ' \n\t' | cut -c1-41)" = '{"format":"drivebench-result","version":2'
check "run: complete, intervals add up, 70% reads" python3 - "$out" <<'PY'
import json, sys
sys.path.insert(0, "tests")
from resultfile import samples as samples_of
d = json.load(open(sys.argv[1]))
assert d["status"] == "complete", d["status"]
st = d["phases"][0]["steps"][0]
s, samples = st["summary"], samples_of(st)
assert len(samples) == 4, len(samples)
for k in ("read", "write", "all"):
    assert sum(x[k]["ios"] for x in samples) == s[k]["ios"], k
    assert sum(x[k]["bytes"] for x in samples) == s[k]["bytes"], k
assert s["all"]["ios"] == s["read"]["ios"] + s["write"]["ios"]
share = 100.0 * s["read"]["ios"] / s["all"]["ios"]
assert abs(share - 70) <= 2, share
wl = st["workload"]
assert wl["threads"] == 2 and wl["qdepth"] == 8 and wl["read_pct"] == 70, wl
assert wl["data"] == "random", wl
assert d["target"]["path"].endswith("target.img")
for key in ("kernel", "cpus"):
    assert key in d["host"], key
PY

# short intervals are all in the result, but the terminal gets a few lines a second
"$DRIVEBENCH" run --target "$f" --engine null --time 2s --interval 10ms --out "$T/fast.json" 2>"$T/err"
n=$(grep -c 'IOPS (R' "$T/err")
check "run: 10 ms samples print at most 4 lines a second ($n in 2 s)" test "$n" -ge 2 -a "$n" -le 12
check "run: and every sample is in the result" test "$(PYTHONPATH=tests json "$T/fast.json" \
	'__import__("resultfile").samples(d["phases"][0]["steps"][0]).__len__()')" -ge 150

# the default results directory is $XDG_DATA_HOME/drivebench/results
"$DRIVEBENCH" run --target "$f" --time 1s --quiet 2>"$T/err"
n=$(ls "$XDG_DATA_HOME/drivebench/results/" 2>/dev/null | grep -c '\.json$')
check "run: default result lands in XDG_DATA_HOME" test "$n" -eq 1
check "run: --quiet prints nothing" test ! -s "$T/err"

expect_exit() { # name status args...
	local name=$1 want=$2
	shift 2
	"$DRIVEBENCH" "$@" >"$T/o" 2>"$T/e"
	local rc=$?
	if [ "$rc" -eq "$want" ]; then pass "$name"; else fail "$name" "exit $rc, want $want: $(cat "$T/e")"; fi
}
expect_exit "usage: unknown option exits 2" 2 run --target "$f" --bogus
check "usage: message names the option" grep -q -- "--bogus" "$T/e"
check "usage: nothing near --bogus is suggested" sh -c "! grep -q 'did you mean' '$T/e'"
expect_exit "usage: fio's --iodepth exits 2" 2 run --target "$f" --iodepth 4
check "usage: fio's --iodepth is named as --qdepth" \
	grep -qF -- "unknown option '--iodepth' (fio's --iodepth is --qdepth here)" "$T/e"
expect_exit "usage: fio's --numjobs=4 exits 2" 2 run --target "$f" --numjobs=4
check "usage: fio's --numjobs is named as --threads" grep -qF -- "--numjobs is --threads here" "$T/e"
# every fio name the man page lists names an option run has (the table in cli_run.c, the
# man page and run's options kept in step)
"$DRIVEBENCH" run --help >"$T/help" 2>&1
names=$(sed -n '/fio.s name for one of/,/did you mean/p' "${MAN:-man/drivebench.1}" |
	grep -oE '^\.BR? [a-z_]+' | awk '$2 != "run" {print $2}')
bad=""
for n in iodepth $names; do
	ours=$("$DRIVEBENCH" run --target "$f" "--$n" x 2>&1 | sed -n "s/.*(fio's --$n is --\([a-z_-]*\) here).*/\1/p")
	[ -n "$ours" ] && grep -qE -- "^  (-., )?--$ours " "$T/help" || bad+=" $n->${ours:-nothing}"
done
check "usage: each of the man page's $(wc -w <<<"$names") fio names leads to one of run's options${bad:+:$bad}" \
	test -z "$bad" -a "$(wc -w <<<"$names")" -ge 14
expect_exit "usage: a typo exits 2" 2 run --target "$f" --qdeph 4
check "usage: a typo suggests the option a letter away" \
	grep -qF -- "unknown option '--qdeph' (did you mean --qdepth?)" "$T/e"
expect_exit "usage: two letters swapped exit 2" 2 list --jsno
check "usage: two letters swapped suggest the option" grep -qF -- "(did you mean --json?)" "$T/e"
expect_exit "usage: bad block size exits 2" 2 run --target "$f" --bs 4q
expect_exit "usage: bad bssplit exits 2" 2 run --target "$f" --bssplit 4k/50:8k/20
check "usage: bssplit message says the sum" grep -q "70%" "$T/e"
# the workload options are the preset keys, parsed by the preset parser
expect_exit "options: a bad value exits 2" 2 run --target "$f" --bs 1000 --time 1s
check "options: the message names the option as given, not a hidden line" \
	grep -q '^drivebench run: --bs 1000: block size 1000 is not a multiple of 512' "$T/e"
expect_exit "options: --read takes a percentage as the preset key does" 0 \
	run --target "$f" --engine null --read 70% --time 100ms --interval 50ms --quiet \
	--out "$T/pct.json"
check "options: --read 70% reads 70%" test "$(json "$T/pct.json" 'd["phases"][0]["steps"][0]["workload"]["read_pct"]')" = 70
expect_exit "options: a list makes steps" 0 run --target "$f" --engine null --threads "1 2" \
	--qdepth "4 8" --time 100ms --interval 50ms --quiet --out "$T/list.json"
check "options: 2 x 2 values give 4 steps, labelled" test "$(json "$T/list.json" \
	'" ".join(s["label"] for s in d["phases"][0]["steps"])')" = "1T4Q 1T8Q 2T4Q 2T8Q"
expect_exit "options: replay of a list runs the same steps" 0 replay "$T/list.json" \
	--target "$f" --engine null --quiet --out "$T/list2.json"
check "options: the replayed steps" test "$(json "$T/list2.json" \
	'" ".join(s["label"] for s in d["phases"][0]["steps"])')" = "1T4Q 1T8Q 2T4Q 2T8Q"
expect_exit "options: the last of a repeated option counts" 0 run --target "$f" --engine null \
	--bs 8k --bs 16k --time 100ms --interval 50ms --quiet --out "$T/last.json"
check "options: --bs 8k --bs 16k runs 16k" test "$(json "$T/last.json" \
	'd["phases"][0]["steps"][0]["workload"]["bs"]')" = 16384
expect_exit "usage: missing target exits 2" 2 run --time 1s
expect_exit "usage: missing file exits 2" 2 run --target "$T/nope" --time 1s
expect_exit "usage: unknown command exits 2" 2 frobnicate
expect_exit "usage: bad --busy-poll exits 2" 2 run --target "$f" --time 1s --busy-poll=maybe
check "usage: --busy-poll message names the value" grep -q "'maybe' is not auto, yes or no" "$T/e"
DRIVEBENCH_BUSY_POLL=sometimes expect_exit "usage: bad DRIVEBENCH_BUSY_POLL exits 2" 2 list
check "usage: DRIVEBENCH_BUSY_POLL message names the variable" \
	grep -q "DRIVEBENCH_BUSY_POLL: 'sometimes'" "$T/e"

# Memory does not grow with run length: the longer run stores four more interval samples
# and nothing else, so its peak RSS stays within 2 MiB of the shorter one's (the null
# engine does about 10^8 I/Os a second here: a byte kept per I/O would be hundreds of MiB).
maxrss() { # prints the peak RSS in KiB of: drivebench run ARGS...
	python3 scripts/rusage.py "$DRIVEBENCH" run "$@" --quiet --out "$T/mem.json" 2>&1 >/dev/null |
		awk '$1 == "rusage" {print $4}'
}
for e in null uring; do
	a=$(maxrss --engine "$e" --target "$f" --time 1s --interval 1s)
	b=$(maxrss --engine "$e" --target "$f" --time 5s --interval 1s)
	check "run: $e engine, 5s peak RSS ${b} KiB within 2 MiB of 1s's ${a} KiB" \
		test -n "$a" -a -n "$b" -a "$((b - a))" -lt 2048
done

# --busy-poll reaches the ring, and the result records it (engine description)
engine_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["phases"][0]["steps"][0]["engine"])' "$1"; }
for mode in yes no; do
	expect_exit "run: --busy-poll=$mode exits 0" 0 run --target "$f" --time 300ms --qdepth 4 \
		--quiet --busy-poll=$mode --out "$T/bp-$mode.json"
done
if engine_of "$T/bp-yes.json" | grep -q TASKRUN_FLAG; then
	check "run: --busy-poll=yes is recorded" grep -q busy-poll <(engine_of "$T/bp-yes.json")
else
	skip "run: --busy-poll=yes is recorded" "this kernel has no IORING_SETUP_TASKRUN_FLAG"
fi
check "run: --busy-poll=no is recorded" test -z "$(engine_of "$T/bp-no.json" | grep busy-poll)"
DRIVEBENCH_BUSY_POLL=no expect_exit "run: DRIVEBENCH_BUSY_POLL=no exits 0" 0 run --target "$f" \
	--time 300ms --qdepth 4 --quiet --out "$T/bp-env.json"
check "run: DRIVEBENCH_BUSY_POLL=no is obeyed" test -z "$(engine_of "$T/bp-env.json" | grep busy-poll)"

if is_root; then
	img=$(mkfile 32M loop.img)
	mkloop dev "$img"
	mkloop other "$(mkfile 32M other.img)"
	echo "precious data" | dd of="$img" conv=notrunc status=none
	sum0=$(md5sum <"$img")
	expect_exit "guard: write to a block device without --yes-destroy exits 3" 3 \
		run --target "$dev" --rw randwrite --time 1s
	expect_exit "guard: --yes-destroy naming another device exits 3" 3 \
		run --target "$dev" --rw randwrite --time 1s --yes-destroy="$other"
	check "guard: refused runs wrote nothing" test "$(md5sum <"$img")" = "$sum0"
	expect_exit "guard: reads need no confirmation" 0 \
		run --target "$dev" --rw randread --time 1s --quiet --out "$T/rd.json"
	check "run: the result carries the drive's discovery record" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["target"]
assert t["kind"] == "block" and t["drive"]["transport"] == "loop", t
assert t["drive"]["capacity_bytes"] == 32 << 20, t["drive"]
assert t["drive"]["name"] == sys.argv[2].split("/")[-1], t["drive"]["name"]
' "$T/rd.json" "$dev"
	ln -s "$dev" "$T/alias"
	expect_exit "guard: --yes-destroy through a symlink to the same device" 0 \
		run --target "$dev" --rw randwrite --time 1s --quiet --out "$T/wr.json" \
		--yes-destroy="$T/alias"
	# 512-byte I/O on a 4K-native device: a clear error, not a crash
	mkloop dev4k "$(mkfile 16M 4k.img)" --sector-size 4096
	expect_exit "4K-native: 512-byte blocks are a usage error" 2 \
		run --target "$dev4k" --bs 512 --time 1s
	check "4K-native: message names the logical block size" grep -q "logical block size (4k)" "$T/e"
else
	skip "guard tests" "need root for loop devices"
fi

# ---- honest edges: reads of unwritten space, host stalls -----------------------------
# a sparse file: its reads never reach the disk, and the run says so on stderr and in
# the result; the same file written out says nothing
sparse=$(mkfile 32M sparse.img)
"$DRIVEBENCH" run --target "$sparse" --time 300ms --interval 100ms --out "$T/holes.json" \
	2>"$T/err"
check "unwritten: a read step over a sparse file warns on stderr" \
	grep -q "^warning: step 4k read random 1T32Q: 100.0% of the range it reads .*never written.* \[reads-unwritten\]$" "$T/err"
"$DRIVEBENCH" run --target "$sparse" --time 300ms --interval 100ms --quiet \
	--out "$T/holes-quiet.json" 2>"$T/err"
check "unwritten: --quiet prints not even the warning" test ! -s "$T/err"
check "unwritten: --quiet keeps the warning in the result" test \
	"$(json "$T/holes-quiet.json" "'reads-unwritten' in [w['code'] for w in d['phases'][0]['steps'][0]['warnings']]")" = True
# two CPU hogs (killed by their PIDs) and reads of a sparse file: warnings galore, and
# --quiet still prints nothing: no stderr, and no more than the result's path on stdout
hogs=()
for h in 1 2; do
	sh -c 'while :; do :; done' &
	hogs+=("$!")
	cleanup_add "kill $!"
done
"$DRIVEBENCH" run --target "$sparse" --time 1s --interval 100ms --quiet \
	--out "$T/hogged.json" >"$T/out" 2>"$T/err"
kill "${hogs[@]}" 2>/dev/null
check "quiet under two CPU hogs: nothing on stderr" test ! -s "$T/err"
check "quiet under two CPU hogs: only the result's path on stdout" \
	test "$(cat "$T/out")" = "$T/hogged.json"
"$DRIVEBENCH" show "$T/hogged.json" >"$T/show" 2>&1
check "quiet under two CPU hogs: the warnings are in the result, and show lists them" \
	grep -q "reads-unwritten" "$T/show"
check "unwritten: the step's result carries reads-unwritten" test \
	"$(json "$T/holes.json" "'reads-unwritten' in [w['code'] for w in d['phases'][0]['steps'][0]['warnings']]")" = True
"$DRIVEBENCH" show "$T/holes.json" >"$T/show" 2>&1
check "unwritten: show marks the step and says why" \
	grep -qE "complete !$|^  ! 4k read random 1T32Q: reads-unwritten: " "$T/show"
dd if=/dev/urandom of="$sparse" bs=1M count=32 conv=notrunc status=none
"$DRIVEBENCH" run --target "$sparse" --time 300ms --interval 100ms --out "$T/full.json" \
	2>"$T/err"
check "unwritten: a written file gives no warning" test \
	"$(json "$T/full.json" "'reads-unwritten' in [w['code'] for w in d['phases'][0]['steps'][0].get('warnings', [])]")" = False
check "unwritten: nor on stderr" test "$(grep -c 'reads-unwritten' "$T/err")" -eq 0

# SIGSTOP for 1.2 s in the middle of a 3 s step: the samples it covers carry it as
# host_stall_ns, the step a host-stall warning, and it is still complete
# (a file of its own, empty before the run starts: the shell that truncates it is the
# background child, and an older file's sample lines would stop the run before it measures)
: >"$T/stall.err"
"$DRIVEBENCH" run --target "$f" --engine null --threads 2 --qdepth 4 --time 3s \
	--interval 250ms --out "$T/stall.json" 2>"$T/stall.err" &
pid=$!
for ((i = 0; i < 100; i++)); do grep -q 'IOPS (R' "$T/stall.err" && break; sleep 0.05; done
kill -STOP "$pid"
sleep 1.2
kill -CONT "$pid"
wait "$pid"
check "host stall: the run completes" test $? -eq 0
check "host stall: samples carry it, the step warns, its text says how long" \
	env PYTHONPATH=tests python3 - "$T/stall.json" <<'PY'
import json, re, sys
from resultfile import samples as samples_of
st = json.load(open(sys.argv[1]))["phases"][0]["steps"][0]
samples = samples_of(st)
stalled = [s.get("host_stall_ns", 0) for s in samples]
total = sum(stalled)
# 1.2 s stopped, plus what a loaded host took from the workers besides (also a stall)
assert 1.0e9 <= total <= 2.6e9, stalled
assert st["summary"]["host_stall_ns"] == total, (st["summary"]["host_stall_ns"], total)
assert sum(1 for x in stalled if x) >= 4, stalled
assert all(s.get("host_stall_ns", 0) <= s["dur_ns"] for s in samples)
# the stall's warning; a host busy with other work besides says so too (host-busy)
ws = [w for w in st.get("warnings", []) if w["code"] != "host-busy"]
assert [w["code"] for w in ws] == ["host-stall"], ws
assert re.search(r"the host did not run drivebench for [12]\.", ws[0]["text"]), ws[0]
assert " s of the 3 s measured" in ws[0]["text"], ws[0]
assert st["status"] == "complete"
PY
check "host stall: stderr says so" grep -q "^warning: step .*\[host-stall\]$" "$T/stall.err"

# a block device discarded by the run's purge and read without a write in between
if is_root && mkloop ddev "$(mkfile 32M discard.img)"; then
	printf '[preset]\nname = discard then read\n[purge]\nmethod = discard\n[measure]\nread = 100\ntime = 300ms\n' >"$T/dr.preset"
	printf '[preset]\nname = discard, write, read\n[purge]\nmethod = discard\n[precondition]\nread = 0\npattern = sequential\nbs = 1m\nloops = 1\n[measure]\nread = 100\ntime = 300ms\n' >"$T/dwr.preset"
	"$DRIVEBENCH" run --preset "$T/dr.preset" --target "$ddev" --yes-destroy="$ddev" \
		--quiet --out "$T/dr.json"
	check "unwritten: a read of a device just discarded warns" test \
		"$(json "$T/dr.json" "'reads-unwritten' in [w['code'] for w in d['phases'][1]['steps'][0].get('warnings', [])]")" = True
	"$DRIVEBENCH" run --preset "$T/dwr.preset" --target "$ddev" --yes-destroy="$ddev" \
		--quiet --out "$T/dwr.json"
	check "unwritten: written after the discard, no warning" test \
		"$(json "$T/dwr.json" "'reads-unwritten' in [w['code'] for w in d['phases'][2]['steps'][0].get('warnings', [])]")" = False
else
	skip "unwritten: discarded device" "needs root for a loop device"
fi

# CPU use per step: the process's and the host's, in the result and in show
cpuf=$(mkfile 16M cpu.img)
"$DRIVEBENCH" run --engine null --target "$cpuf" --bs 4k --threads "1 2" --time 400ms --quiet \
	--out "$T/cpu.json" 2>/dev/null
check "cpu: every step records the process's and the host's CPU use" python3 - "$T/cpu.json" <<'PY'
import json, os, sys
steps = json.load(open(sys.argv[1]))["phases"][0]["steps"]
assert len(steps) == 2, len(steps)
for st in steps:
    c = st["cpu"]
    assert c["cpus"] == os.cpu_count(), c
    threads = st["workload"]["threads"]
    proc = c["process_user_pct"] + c["process_system_pct"]
    # the null engine does no I/O: its workers only use CPU, at most a CPU each
    assert 0 < proc <= 100 * min(threads + 1, c["cpus"]) + 5, c
    for k in ("host_user_pct", "host_system_pct", "host_iowait_pct"):
        assert 0 <= c[k] <= 100, c
    # each share is rounded to a tenth on its own, so three of them may sum to 100.15
    assert c["host_user_pct"] + c["host_system_pct"] + c["host_iowait_pct"] <= 100.15 + 1e-9, c
    for w in st.get("warnings", []):
        if w["code"] == "cpu-bound":
            assert "may be the limit" in w["text"], w
PY
check "cpu: show prints the CPU columns" grep -qE "cpu %  host usr/sys/io %  status$" \
	<("$DRIVEBENCH" show "$T/cpu.json")

# slot buffers: threads x qdepth x bs over a step's streams and targets, at most 1 GiB (or a
# quarter of the RAM): over it, bad input at once, the figures named, nothing written
big=$(mkfile 16M big.img)
"$DRIVEBENCH" run --target "$big" --rw randwrite --bs 64m --qdepth 64 --threads 4 --time 1s \
	--out "$T/big.json" 2>"$T/err"
rc=$?
check "slot ceiling: 4 threads x qdepth 64 x 64m is refused as bad input (exit 2)" \
	test "$rc" -eq 2 -a ! -e "$T/big.json"
check "slot ceiling: the message has the figures" \
	grep -q "slot buffers of 4 threads x qdepth 64 x 64m blocks = 16g, over the ceiling of" \
	"$T/err"
check "slot ceiling: nothing was written to the target" \
	test -z "$(tr -d '\0' <"$big" | head -c 1)"
printf '[preset]\nname = big\n[measure]\nbs = 1m\nqdepth = 128\nthreads = 3\ntime = 1s\n' \
	>"$T/big.preset"
"$DRIVEBENCH" run --preset "$T/big.preset" --target "$big" --target "$(mkfile 16M big2.img)" \
	--target "$(mkfile 16M big3.img)" --out "$T/big.json" 2>"$T/err"
rc=$?
check "slot ceiling: summed over the targets, file:line (exit 2)" \
	test "$rc" -eq 2 -a ! -e "$T/big.json"
check "slot ceiling: the sum and the targets named" \
	grep -q "big.preset:3: \[measure\] .*slot buffers of 1152m over 1 stream on 3 targets" \
	"$T/err"

# host-busy: two CPU hogs beside a step; the step says the host was shared (the hogs' own
# user time, whatever else the machine does, is at least a quarter of its CPUs)
hogs=()
for _ in $(seq "$(nproc)"); do
	(while :; do :; done) &
	hogs+=($!)
done
cleanup_add "kill ${hogs[*]}"
"$DRIVEBENCH" run --target "$(mkfile 16M busy.img)" --engine null --rw randread --time 2s \
	--quiet --out "$T/busy.json" >/dev/null 2>"$T/err"
kill "${hogs[@]}" 2>/dev/null
wait "${hogs[@]}" 2>/dev/null
check "host-busy: a step beside CPU hogs carries the warning" \
	test "$(json "$T/busy.json" '[w["code"] for w in d["phases"][0]["steps"][0].get("warnings", [])].count("host-busy")')" = 1

# a run that fails on an I/O error (its file target cut short under it) says the error
# once, then its status and file; no empty message
cut=$(mkfile 64M cut.img)
"$DRIVEBENCH" run --target "$cut" --rw randread --time 30s --out "$T/cut.json" \
	>/dev/null 2>"$T/err" &
pid=$!
until_ok 30 test -s "$T/cut.json"
sleep 0.5
truncate -s 4k "$cut"
wait $pid
rc=$?
check "a run failed by an I/O error: exit 1, the error and 'failed: FILE' said, no empty line" \
	eval 'test $rc -eq 1 && grep -q "read error at offset [0-9]*: Input/output error" "$T/err" &&
	grep -qx "failed: $T/cut.json" "$T/err" && ! grep -qx "drivebench run: *" "$T/err"'

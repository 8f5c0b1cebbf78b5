#!/usr/bin/env bash
# Never a lost result: SIGINT, SIGTERM and SIGKILL at random points of the quick preset
# each leave a valid result file with the right status, whose steps and samples are a
# prefix of what an uninterrupted run of the same preset measures, and whose step cut
# short by SIGKILL has its summary so far.
. "$(dirname "$0")/lib.sh"

f=$(mkfile 256M)
scale=0.1 # quick: 4 steps of 2 s ramp + 10 s, so 4.8 s in all
# confirmed: what the file holds is asked within 2 s, which a loaded host may miss, and
# a refusal then is not what this test is about
args=(run --preset quick --scale $scale --target "$f" --yes-destroy="$f" --autosave 200ms --quiet)

"$DRIVEBENCH" "${args[@]}" --out "$T/full.json" 2>"$T/e"
check "uninterrupted quick run completes" test $? -eq 0

# prefix FILE STATUS: the result is valid, has STATUS, and its steps are a prefix of the
# full run's (labels and workloads), each step's samples adding up to its summary
prefix() {
	python3 - "$T/full.json" "$1" "$2" <<'PY'
import json, sys
sys.path.insert(0, "tests")
from resultfile import samples
full, got, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
assert got["format"] == "drivebench-result", got.get("format")
assert got["status"] == want, (got["status"], want)
def steps(d):
    return [(ph["name"], st["label"], st["workload"]["bs"], st["workload"]["read_pct"])
            for ph in d["phases"] for st in ph["steps"]]
a, b = steps(full), steps(got)
assert b == a[:len(b)], (b, a)
for ph in got["phases"]:
    for st in ph["steps"]:
        n = sum(s["all"]["ios"] for s in samples(st))
        # the step running at an autosave has its summary so far: its samples' sum, and
        # what its definition knows before the engine ends (a run killed keeps both)
        assert n == st["summary"]["all"]["ios"], (st["label"], n, st["summary"]["all"]["ios"])
        if st["status"] == "incomplete" and n:
            assert st["summary"]["dur_ns"] == sum(s["dur_ns"] for s in samples(st)), st["label"]
            assert st["summary"]["all"]["max_ns"] == max(s["all"]["max_ns"] for s in samples(st))
            assert st["definition"]["latency"] == "total", st.get("definition")
            # ... and how it waited and issued, known once its workers were set up
            assert st["definition"].get("wait") == "interrupt", st.get("definition")
            assert st["definition"].get("engine") == "io_uring", st.get("definition")
            assert st["definition"].get("issue") == "nowait-first", st.get("definition")
        for i, s in enumerate(samples(st)):
            assert s["index"] == i
PY
}

for sig in INT TERM KILL; do
	for i in 1 2 3; do
		# a random point of the run, counted from its result file's first write (before the
		# first I/O), which a loaded host may take a while to reach
		delay=$(awk -v s=$RANDOM 'BEGIN {srand(s); printf "%.2f", 0.5 + rand() * 3.8}')
		out=$T/$sig-$i.json
		set -m
		"$DRIVEBENCH" "${args[@]}" --out "$out" 2>"$T/e" &
		pid=$!
		set +m
		for _ in $(seq 600); do [ -s "$out" ] && break; sleep 0.1; done
		sleep "$delay"
		kill -s "$sig" "$pid"
		wait "$pid"
		rc=$?
		case $sig in
		KILL) want=incomplete wantrc=137 ;;
		*) want=aborted wantrc=1 ;;
		esac
		if [ "$rc" -ne "$wantrc" ]; then
			# the run may have ended on its own just before the signal
			if [ "$rc" -eq 0 ]; then want=complete; else
				fail "SIG$sig at ${delay}s: exit $rc, want $wantrc" "$(tail -n 3 "$T/e")"
				continue
			fi
		fi
		if err=$(prefix "$out" "$want" 2>&1); then
			pass "SIG$sig at ${delay}s: $want result, a prefix of the full run"
		else
			fail "SIG$sig at ${delay}s" "$err"
		fi
		leftover=$(find "$T" -maxdepth 1 -name ".*.json*" -o -maxdepth 1 -name "*.tmp*" | head -n 1)
		[ "$sig" = KILL ] || check "SIG$sig at ${delay}s: no temporary file left" test -z "$leftover"
	done
done

# compare says which step a killed run was cut short in, or a stopped run aborted in,
# and over what time its figures are
cut_step() { # FILE STATUS: the label of a step of that status with samples
	python3 - "$1" "$2" <<'PY'
import json, sys
sys.path.insert(0, "tests")
from resultfile import samples
d = json.load(open(sys.argv[1]))
for ph in d["phases"]:
    for st in ph["steps"]:
        if st["status"] == sys.argv[2] and samples(st):
            print(st["label"])
PY
}
for out in "$T"/KILL-*.json "$T"/INT-*.json "$T"/TERM-*.json; do
	case ${out##*/} in
	KILL-*) status=incomplete said="was cut short" ;;
	*) status=aborted said="was aborted" ;;
	esac
	cut=$(cut_step "$out" $status)
	[ -n "$cut" ] || continue
	"$DRIVEBENCH" compare "$T/full.json" "$out" >"$T/cmp" 2>&1
	check "compare: the step $cut of a run left $status is said to be: $said" \
		grep -qE "step $cut \(.*\) $said: its figures are over the [0-9.]+ s it measured" "$T/cmp"
done

# a run on two targets killed mid-step: each target's stream keeps its figures so far too
g=$(mkfile 64M second.img)
set -m
"$DRIVEBENCH" run --rw randread --time 30s --interval 100ms --autosave 100ms --quiet \
	--target "$f" --target "$g" --out "$T/two.json" 2>"$T/e" &
pid=$!
set +m
for _ in $(seq 600); do # at most a minute: the count, not the time, is what is waited for
	python3 - "$T/two.json" 2>/dev/null <<'PY' && break
import json, sys
sys.path.insert(0, "tests")
from resultfile import samples
st = json.load(open(sys.argv[1]))["phases"][0]["steps"][0]
sys.exit(0 if len(samples(st)) >= 5 else 1)
PY
	sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null
if err=$(python3 - "$T/two.json" 2>&1 <<'PY'
import json, sys
sys.path.insert(0, "tests")
from resultfile import samples
st = json.load(open(sys.argv[1]))["phases"][0]["steps"][0]
assert st["status"] == "incomplete", st["status"]
assert len(st.get("streams", [])) == 2, st.get("streams")
total = 0
for s in st["streams"]:
    n = sum(x["all"]["ios"] for x in samples(s))
    assert n > 0 and n == s["summary"]["all"]["ios"], (s.get("label"), n, s["summary"]["all"]["ios"])
    assert s["definition"]["latency"] == "total", s.get("definition")
    assert s["status"] == "incomplete", s["status"]
    total += n
assert total == st["summary"]["all"]["ios"], (total, st["summary"]["all"]["ios"])
PY
); then
	pass "SIGKILL on two targets: each stream's figures so far add up to the step's"
else
	fail "SIGKILL on two targets: each stream's figures so far add up to the step's" "$err"
fi

# SIGHUP (the terminal or the ssh session closed) is SIGTERM's twin: the run stops, its
# result is saved marked aborted, exit 1. The run is far longer than the test: it is
# stopped mid-run whenever the signal lands, once its first autosave is on disk.
# samples_in OUT: the samples saved so far (0 while the file is missing or being replaced)
samples_in() {
	python3 - "$1" <<'PY' 2>/dev/null || echo 0
import json, sys
sys.path.insert(0, "tests")
from resultfile import samples
d = json.load(open(sys.argv[1]))
print(sum(len(samples(st)) for ph in d["phases"] for st in ph["steps"]))
PY
}
# started_in OUT PID: wait (at most 60 s) for an autosave with a sample in it (the file is
# written before the run, empty); false if the run ended first
started_in() {
	local _
	for _ in $(seq 600); do
		[ "$(samples_in "$1")" -gt 0 ] && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
long=(run --rw randread --bs 4k --time 1h --interval 100ms --target "$f" --autosave 100ms --quiet)
out=$T/hup.json
"$DRIVEBENCH" "${long[@]}" --out "$out" 2>"$T/e" &
pid=$!
if started_in "$out" "$pid"; then
	kill -s HUP "$pid"
	wait "$pid"
	rc=$?
	check "SIGHUP mid-run: exit 1" test "$rc" -eq 1
	check "SIGHUP mid-run: the result is saved, aborted" \
		test "$(json "$out" 'd["status"]')" = aborted
	check "SIGHUP mid-run: the step is aborted, with what it measured" \
		test "$(json "$out" 'd["phases"][0]["steps"][0]["status"]')" = aborted
	check "SIGHUP mid-run: said so on stderr" grep -q "aborted; saving what was measured" "$T/e"
else
	fail "SIGHUP mid-run" "the run did not start: $(tail -n 3 "$T/e")"
	kill -s KILL "$pid" 2>/dev/null
	wait "$pid"
fi

# started under nohup (SIGHUP ignored), a hangup leaves the run going: it saves more
# samples after it, and SIGTERM then stops it
out=$T/nohup.json
(trap '' HUP && exec "$DRIVEBENCH" "${long[@]}" --out "$out" 2>"$T/e") &
pid=$!
if started_in "$out" "$pid"; then
	kill -s HUP "$pid"
	n0=$(samples_in "$out") more=false
	for _ in $(seq 600); do
		kill -0 "$pid" 2>/dev/null || break
		[ "$(samples_in "$out")" -gt "$n0" ] && more=true && break
		sleep 0.1
	done
	check "SIGHUP ignored (nohup): the run goes on" $more
	kill -s TERM "$pid"
	wait "$pid"
	rc=$?
	check "SIGHUP ignored (nohup): SIGTERM then aborts it, exit 1" test "$rc" -eq 1
	check "SIGHUP ignored (nohup): the result is saved, aborted" \
		test "$(json "$out" 'd["status"]')" = aborted
else
	fail "SIGHUP ignored (nohup)" "the run did not start: $(tail -n 3 "$T/e")"
	kill -s KILL "$pid" 2>/dev/null
	wait "$pid"
fi

# replay goes the way of run: SIGHUP once a sample line is printed (not quiet)
out=$T/replay-hup.json
"$DRIVEBENCH" replay "$T/hup.json" --target "$f" --out "$out" 2>"$T/e" &
pid=$!
for _ in $(seq 600); do
	grep -q " IOPS (R " "$T/e" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -s HUP "$pid"
wait "$pid"
rc=$?
check "replay, SIGHUP mid-run: exit 1" test "$rc" -eq 1
check "replay, SIGHUP mid-run: the result is saved, aborted" \
	test "$(json "$out" 'd["status"]')" = aborted

# a signal before the run's first save (here while its path waits to be printed, stdout a
# full pipe) never leaves a half-made file over an earlier --out: that file is kept as it
# was until the run saves, and the run, stopped, saves itself there aborted
keep=$T/keep.json
cp "$T/full.json" "$keep"
(
	head -c 65536 /dev/zero
	echo $BASHPID >"$T/early.pid"
	exec "$DRIVEBENCH" "${args[@]}" --out "$keep" 2>"$T/early.err"
) | sleep 8 &
for _ in $(seq 100); do [ -s "$T/early.pid" ] && break; sleep 0.05; done
pid=$(cat "$T/early.pid")
# blocked writing its path: the file is taken by then
for _ in $(seq 100); do
	grep -q pipe_write "/proc/$pid/wchan" 2>/dev/null && break
	sleep 0.05
done
kill -s TERM "$pid"
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
status=$(json "$keep" 'd["status"]' 2>/dev/null)
if cmp -s "$keep" "$T/full.json" || [ "$status" = aborted ]; then
	pass "a signal before the run's first save: the earlier --out is kept or the run's aborted result is there"
else
	fail "a signal before the run's first save" "status '$status': $(head -c 300 "$T/early.err")"
fi
wait

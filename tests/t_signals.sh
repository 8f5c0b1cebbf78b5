#!/usr/bin/env bash
# Never a lost result: SIGINT, SIGTERM and SIGKILL at random points of the quick preset
# each leave a valid result file with the right status, whose steps and samples are a
# prefix of what an uninterrupted run of the same preset measures.
. "$(dirname "$0")/lib.sh"

f=$(mkfile 256M)
scale=0.1 # quick: 4 steps of 2 s ramp + 10 s, so 4.8 s in all
args=(run --preset quick --scale $scale --target "$f" --autosave 200ms --quiet)

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
        # the step running at an autosave has samples but no summary yet
        assert st["status"] == "incomplete" or n == st["summary"]["all"]["ios"], st["label"]
        for i, s in enumerate(samples(st)):
            assert s["index"] == i
PY
}

for sig in INT TERM KILL; do
	for i in 1 2 3; do
		# a random point of the run, past the first autosave
		delay=$(awk -v s=$RANDOM 'BEGIN {srand(s); printf "%.2f", 0.5 + rand() * 3.8}')
		out=$T/$sig-$i.json
		set -m
		"$DRIVEBENCH" "${args[@]}" --out "$out" 2>"$T/e" &
		pid=$!
		set +m
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

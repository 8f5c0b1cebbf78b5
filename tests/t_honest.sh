#!/usr/bin/env bash
# Honest purges, fills, replays and sample times: a purge that deallocates (auto's discard
# on a loop device) makes later reads warn reads-unwritten; a fill of 256 MiB with loops = 1
# writes 256 MiB, counted by the result and by the loop device's own statistics; replay
# keeps the original's seeds (--new-seeds draws others); export-samples' time runs on
# across a phase's rounds, with the round in a column; a step on a partition whose disk
# another program reads at the same time (its sibling partition) warns device-shared, one
# on a quiet disk does not.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# the loop device's written bytes, from /sys/block/loopN/stat (sectors of 512 bytes)
loop_written() { echo $(($(awk '{ print $7 }' "/sys/block/$(basename "$1")/stat") * 512)); }

if is_root && mkloop adev "$(mkfile 32M auto.img)"; then
	printf '[preset]\nname = auto then read\n[purge]\nmethod = auto\n[measure]\nread = 100\ntime = 300ms\n' >"$T/ar.preset"
	"$DRIVEBENCH" run --preset "$T/ar.preset" --target "$adev" --yes-destroy="$adev" \
		--quiet --out "$T/ar.json" >/dev/null 2>"$T/ar.err"
	check "purge auto: ran (a discard on a loop device)" test \
		"$(json "$T/ar.json" "d['phases'][0]['steps'][0]['label']")" = "auto: discard"
	check "purge auto: the reads after it warn reads-unwritten" test \
		"$(json "$T/ar.json" "'reads-unwritten' in [w['code'] for w in d['phases'][1]['steps'][0].get('warnings', [])]")" = True
	# --quiet: the warning is in the result, which show gives, and not on stderr
	check "purge auto: show names the purge" \
		grep -q "reads-unwritten: it reads a device this run.s purge deallocated" <("$DRIVEBENCH" show "$T/ar.json")
	check "purge auto: --quiet leaves it off stderr" test ! -s "$T/ar.err"
	printf '[preset]\nname = zeroout then read\n[purge]\nmethod = zeroout\n[measure]\nread = 100\ntime = 300ms\n' >"$T/zr.preset"
	"$DRIVEBENCH" run --preset "$T/zr.preset" --target "$adev" --yes-destroy="$adev" \
		--quiet --out "$T/zr.json" >/dev/null 2>&1
	check "purge zeroout: written, no warning" test \
		"$(json "$T/zr.json" "'reads-unwritten' in [w['code'] for w in d['phases'][1]['steps'][0].get('warnings', [])]")" = False
	# what was written since counts, not that something was: a fill scaled to 1 % of the
	# device, and writes over a tenth of it, leave 99 % and 90 % of the reads' range unwritten
	printf '[preset]\nname = fill then read\n[purge]\nmethod = auto\n[precondition]\nread = 0\npattern = sequential\nbs = 128k\nthreads = 2\nloops = 1\n[measure]\nread = 100\ntime = 300ms\n' >"$T/fr.preset"
	printf '[preset]\nname = a tenth then read\n[purge]\nmethod = discard\n[precondition]\nread = 0\nrange = 10%%\ntime = 300ms\n[measure]\nread = 100\ntime = 300ms\n' >"$T/tr.preset"
	"$DRIVEBENCH" run --preset "$T/fr.preset" --target "$adev" --yes-destroy="$adev" \
		--scale 0.01 --quiet --out "$T/fr.json" >/dev/null 2>&1
	"$DRIVEBENCH" run --preset "$T/tr.preset" --target "$adev" --yes-destroy="$adev" \
		--quiet --out "$T/tr.json" >/dev/null 2>&1
	# (a fill of 1 % is whole blocks of 128k per thread: a little more on 32 MiB)
	check "a fill of 1 % after the purge: the reads warn of about 99 % unwritten" \
		grep -qE "reads-unwritten: .*deallocated: (98|99)\.[0-9]% of the range it reads" <("$DRIVEBENCH" show "$T/fr.json")
	check "writes over a tenth after the purge: the reads warn of 90 % unwritten" \
		grep -qE "reads-unwritten: .*deallocated: (89\.9|90\.[01])% of the range it reads" <("$DRIVEBENCH" show "$T/tr.json")
else
	skip "purge auto: loop device" "needs root for a loop device"
fi

if is_root && mkloop fdev "$(mkfile 256M fill.img)"; then
	printf '[preset]\nname = fill\n[precondition]\nread = 0\npattern = sequential\nbs = 128k\nthreads = 2\nqdepth = 8\nloops = 1\n' >"$T/fill.preset"
	before=$(loop_written "$fdev")
	"$DRIVEBENCH" run --preset "$T/fill.preset" --target "$fdev" --yes-destroy="$fdev" \
		--busy-poll no --quiet --out "$T/fill.json" >/dev/null 2>&1
	sync
	after=$(loop_written "$fdev")
	counted=$(json "$T/fill.json" "int(sum(d['phases'][0]['steps'][0].get(k, {}).get('write', {}).get('bytes', 0) for k in ('summary', 'ramp', 'drain')))")
	max=$((256 * 1048576 + 2 * 131072))
	echo "NOTE: fill of 256 MiB, loops = 1: the result counts $counted bytes, the loop device $((after - before))"
	check "fill: the result counts 256 MiB, at most one I/O per thread more" \
		test "$counted" -ge $((256 * 1048576)) -a "$counted" -le "$max"
	check "fill: the loop device wrote 256 MiB, at most one I/O per thread more" \
		test $((after - before)) -ge $((256 * 1048576)) -a $((after - before)) -le "$max"
else
	skip "fill: loop device" "needs root for a loop device"
fi

# replay: the original's seeds, step for step; --new-seeds others
rf=$(mkfile 16M replay.img)
printf '[preset]\nname = random rounds\n[workload]\npattern = random\nbs = 4k\nthreads = 1\nqdepth = 4\ninterval = 50ms\n[precondition]\nuntil = fixed\nround = 100ms\nmax_rounds = 3\nwindow = 2\n[measure]\nread = 100 0\ntime = 100ms\n' >"$T/rr.preset"
"$DRIVEBENCH" run --engine null --preset "$T/rr.preset" --target "$rf" --quiet \
	--out "$T/orig.json" >/dev/null 2>&1
"$DRIVEBENCH" replay "$T/orig.json" --engine null --target "$rf" --quiet \
	--out "$T/again.json" >/dev/null 2>&1
"$DRIVEBENCH" replay "$T/orig.json" --engine null --target "$rf" --quiet --new-seeds \
	--out "$T/new.json" >/dev/null 2>&1
seeds() { json "$1" "' '.join(str(s['workload']['seed']) for p in d['phases'] for s in p['steps'])"; }
check "replay: every step runs with the original's seed" test "$(seeds "$T/orig.json")" = "$(seeds "$T/again.json")"
check "replay: five steps, each with a seed of its own" python3 -c "import sys; s = sys.argv[1].split(); assert len(s) == 5 and len(set(s)) == 5 and '0' not in s, s" "$(seeds "$T/orig.json")"
check "replay --new-seeds: other seeds" python3 -c "import sys; a, b = sys.argv[1].split(), sys.argv[2].split(); assert len(a) == len(b) == 5 and not set(a) & set(b), (a, b)" "$(seeds "$T/orig.json")" "$(seeds "$T/new.json")"

# export-samples: time since the phase began, on across rounds; the round
"$DRIVEBENCH" export-samples "$T/orig.json" -o "$T/samples.csv"
check "export-samples: exit 0" test $? -eq 0
check "export-samples: time_s runs on across a phase's rounds; the round column" python3 - "$T/samples.csv" "$T/orig.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
assert list(rows[0].keys())[-1] == "round", list(rows[0].keys())
pre = [r for r in rows if r["phase"] == "precondition"]
meas = [r for r in rows if r["phase"] == "measure"]
assert pre and meas, rows
# each phase: time_s never goes back, and starts again at the next phase
for phase in (pre, meas):
    t = [float(r["time_s"]) for r in phase]
    assert all(b >= a + float(r["duration_s"]) - 1e-9 for a, b, r in zip(t, t[1:], phase)), t
# the precondition's three rounds: round 1..3 on their steps' rows, times past the last
rounds = [int(r["round"]) for r in pre]
assert sorted(set(rounds)) == [1, 2, 3] and rounds == sorted(rounds), rounds
steps = d["phases"][0]["steps"]
r2 = [float(r["time_s"]) for r in pre if r["round"] == "2"]
first_len = (steps[0].get("ramp", {}).get("dur_ns", 0) + steps[0]["summary"]["dur_ns"]
             + steps[0].get("drain", {}).get("dur_ns", 0)) / 1e9
assert r2[0] >= first_len - 1e-9, (r2, first_len)
# not a phase in rounds: no round
assert all(r["round"] == "" for r in meas), [r["round"] for r in meas]
PY

# device-shared: the disk's own counters against the step's bytes
codes() { json "$1" "' '.join(w['code'] for s in d['phases'][0]['steps'] for w in s.get('warnings', []))"; }
if is_root && command -v sfdisk >/dev/null && mkloop sdev "$(mkfile 96M shared.img)" -P &&
	printf 'label: dos\n,32M,L\n,,L\n' | sfdisk -q "$sdev" >/dev/null 2>&1 &&
	{ partx -a "$sdev" 2>/dev/null; [ -b "${sdev}p2" ]; }; then
	"$DRIVEBENCH" run --target "${sdev}p2" --rw randread --time 1s --quiet \
		--out "$T/quiet.json" >/dev/null 2>&1
	check "device-shared: a step on a quiet disk is not warned" \
		test -z "$(codes "$T/quiet.json" | grep -w device-shared)"
	# the sibling partition read over and over, from before the step to after it
	(while :; do dd if="${sdev}p1" of=/dev/null bs=1M iflag=direct status=none; done) &
	reader=$!
	cleanup_add "kill $reader"
	sleep 0.3
	"$DRIVEBENCH" run --target "${sdev}p2" --rw randread --time 1s --quiet \
		--out "$T/shared.json" >/dev/null 2>&1
	kill $reader
	wait $reader 2>/dev/null
	check "device-shared: a step beside reads of its sibling partition is warned" \
		test -n "$(codes "$T/shared.json" | grep -w device-shared)"
	check "device-shared: the sentence names the disk and what it moved" python3 - "$T/shared.json" "$(basename "$sdev")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = [w for s in d["phases"][0]["steps"] for w in s.get("warnings", []) if w["code"] == "device-shared"]
assert w and w[0]["text"].startswith(sys.argv[2] + " moved "), w
assert "that were not this step's (reads " in w[0]["text"], w
PY
	check "device-shared: show lists it" grep -q "device-shared" <("$DRIVEBENCH" show "$T/shared.json")
else
	skip "device-shared" "needs root, sfdisk and a partitioned loop device"
fi

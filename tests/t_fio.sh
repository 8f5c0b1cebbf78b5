#!/usr/bin/env bash
# fio interop with the real fio: its json and json+ output of runs on the test's own file
# imported (IOPS, bytes and mean latency as fio printed them, percentiles within the
# histogram's bound), its interval logs as samples, show / compare / export-samples of
# the imports, usage errors; the export of every preset parsed by fio.
. tests/lib.sh

if ! command -v fio >/dev/null 2>&1; then
	skip "t_fio" "fio is not installed (Debian package fio; scripts/deps.sh check)"
	exit 0
fi
F=$(mkfile 64M fio.img)
# fio's client's private directories are made here (drivebench honours TMPDIR), so the
# checks that none is left behind see this test's runs only, not other tests' at once;
# as root the client is nobody, who must pass through to its directory and job file
chmod 711 "$T"
mkdir -m 711 "$T/tmp"
export TMPDIR=$T/tmp

# a server that never answers: a loopback port that listens (the kernel completes the
# connection) and never says a word. The run is started first, in the background, with a
# TMPDIR of its own (so the other runs' checks for a client's leftovers do not see it),
# and looked at after the others. The no-progress limit (DRIVEBENCH_NO_PROGRESS) is the
# silence a server is allowed: 1 s asks for less than the least, 5 s; then fio's grace.
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(300)' >"$T/stall.port" &
cleanup_add "kill $!"
for _ in $(seq 50); do [ -s "$T/stall.port" ] && break; sleep 0.1; done
S=$(mkfile 16M stall.img)
mkdir -m 711 "$T/stalltmp"
# (its own time is written when it ends: the others' is not part of it)
(
	t0=$(date +%s)
	TMPDIR=$T/stalltmp DRIVEBENCH_NO_PROGRESS=1s timeout 200 \
		"$DRIVEBENCH" run --host "127.0.0.1,$(cat "$T/stall.port")" --target "$S" \
		--rw randread --time 1s --quiet --out "$T/stall.json" 2>"$T/stall.err"
	rc=$?
	echo "$(($(date +%s) - t0))" >"$T/stall.secs"
	exit $rc
) &
stall_pid=$!

# fio_run NAME FORMAT ARGS...: fio on the test file, its output in $T/NAME.json
fio_run() {
	local name=$1 fmt=$2; shift 2
	(cd "$T" && timeout 60 fio --name="$name" --filename="$F" --direct=1 --ioengine=io_uring \
		--time_based --runtime=1 --output-format="$fmt" --output="$T/$name.json" "$@" \
		>"$T/$name.fio.out" 2>&1)
}

# same_numbers FIO RESULT BOUND: every step's ios, bytes, IOPS and mean latency equal
# fio's; percentiles within BOUND (a fraction) of fio's own
same_numbers() {
	python3 - "$@" <<'EOF'
import json, sys
fio = json.load(open(sys.argv[1]))
res = json.load(open(sys.argv[2]))
bound = float(sys.argv[3])
jobs = fio["jobs"]
steps = [s for p in res["phases"] for s in p["steps"]]
assert len(jobs) == len(steps), (len(jobs), len(steps))
pcts = {"50.000000": "p50_ns", "90.000000": "p90_ns", "99.000000": "p99_ns",
        "99.900000": "p99.9_ns", "99.990000": "p99.99_ns"}
checked = 0
for job, st in zip(jobs, steps):
    for d in ("read", "write"):
        f, s = job[d], st["summary"][d]
        if not f["total_ios"]:
            continue
        assert s["ios"] == f["total_ios"], (d, s["ios"], f["total_ios"])
        assert s["bytes"] == f["io_bytes"], (d, s["bytes"], f["io_bytes"])
        assert s["iops"] == f["iops"], (d, s["iops"], f["iops"])
        # fio's total latency (lat) where it gives one, as drivebench measures
        lat = f["lat_ns"] if f.get("lat_ns", {}).get("N") else f["clat_ns"]
        assert s["mean_ns"] == lat["mean"], (d, s["mean_ns"], lat["mean"])
        assert s["std_ns"] == lat["stddev"], (d, s["std_ns"])
        assert s["max_ns"] == lat["max"], (d, s["max_ns"])
        for k, name in pcts.items():
            want, got = f["clat_ns"]["percentile"][k], s[name]
            assert abs(got - want) <= bound * want, (d, name, got, want)
            checked += 1
assert checked >= 5, checked
EOF
}

# json+: bins become the histogram; group_reporting over numjobs=2, mixed reads and writes
if fio_run plus json+ --rw=randrw --rwmixread=70 --bs=4k --iodepth=4 --numjobs=2 \
	--group_reporting --write_iops_log=lg --write_lat_log=lg --log_avg_msec=250; then
	if "$DRIVEBENCH" import "$T/plus.json" --logs "$T" --out "$T/plus.result.json" >/dev/null \
		2>"$T/err"; then
		pass "import json+"
	else
		fail "import json+" "$(head -c 300 "$T/err")"
	fi
	# percentiles from the histogram: within hist.h's bound of 1/128
	check "json+: numbers equal fio's, percentiles within 0.79 %" \
		same_numbers "$T/plus.json" "$T/plus.result.json" 0.0079
	check "json+: the histogram is kept, threads and mix from the options" \
		test "$(json "$T/plus.result.json" '(len(d["phases"][0]["steps"][0]["hist"]["read"]) > 0, d["phases"][0]["steps"][0]["workload"]["threads"], d["phases"][0]["steps"][0]["workload"]["read_pct"])')" = "(True, 2, 70)"
	n=$(json "$T/plus.result.json" 'len(d["phases"][0]["steps"][0]["samples"]["rows"])')
	# intervals both threads logged for both directions (one may log one more)
	logn=$(for f in "$T"/lg_iops.[12].log; do for d in 0 1; do
		awk -F, -v d=$d '$3 == d' "$f" | wc -l; done; done | sort -n | head -n 1)
	check "json+ logs: one sample per interval every thread logged ($n of $logn)" \
		test "$n" = "$logn" -a "$n" -ge 2
	"$DRIVEBENCH" show "$T/plus.result.json" >"$T/show.txt" 2>&1
	check "show an import" test $? -eq 0
	check "show names the fio job" grep -q "^  plus " "$T/show.txt"
else
	fail "fio json+ run" "$(head -c 300 "$T/plus.fio.out")"
fi

# plain json: fio's own percentiles, exactly; no histogram, a warning says so
if fio_run plain json --rw=randread --bs=4k --iodepth=2; then
	check "import json" "$DRIVEBENCH" import --quiet "$T/plain.json" --out "$T/plain.result.json"
	check "json: numbers and percentiles equal fio's" \
		same_numbers "$T/plain.json" "$T/plain.result.json" 0
	check "json: no histogram, the no-histogram warning" \
		test "$(json "$T/plain.result.json" '("hist" in d["phases"][0]["steps"][0], d["phases"][0]["steps"][0]["warnings"][0]["code"])')" = "(False, 'no-histogram')"
	# compare: two imports of the same job file side by side
	cp "$T/plain.result.json" "$T/plain2.result.json"
	if "$DRIVEBENCH" compare "$T/plain.result.json" "$T/plus.result.json" "$T/plain2.result.json" \
		--format csv -o "$T/cmp.csv" 2>"$T/err"; then
		pass "compare imports"
	else
		fail "compare imports" "$(head -c 300 "$T/err")"
	fi
else
	fail "fio json run" "$(head -c 300 "$T/plain.fio.out")"
fi

# into the results directory, as the TUI's Results screen lists it
if "$DRIVEBENCH" import "$T/plain.json" >"$T/path" 2>"$T/err" &&
	[ "$(dirname "$(cat "$T/path")")" = "$XDG_DATA_HOME/drivebench/results" ] &&
	[ -f "$(cat "$T/path")" ]; then
	pass "import into the results directory"
else
	fail "import into the results directory" "$(cat "$T/path" "$T/err" | head -c 300)"
fi

# bad input: file:line, exit 2, nothing written
printf '{\n  "fio version" : "fio-3.33",\n  "jobs" : [ { "read" : { "total_ios" : -1 } } ]\n}\n' \
	>"$T/bad.json"
"$DRIVEBENCH" import "$T/bad.json" --out "$T/bad.result.json" 2>"$T/err"
rc=$?
check "bad input: exit 2" test "$rc" -eq 2
check "bad input: file:line" grep -q "bad.json:3: \"total_ios\" is negative" "$T/err"
check "bad input: no result written" test ! -e "$T/bad.result.json"
"$DRIVEBENCH" import 2>/dev/null
check "no input: exit 2" test $? -eq 2
"$DRIVEBENCH" import "$T/plain.json" --logs /nonexistent 2>/dev/null
check "--logs not a directory: exit 2" test $? -eq 2
# the logs of more threads than fio can run: refused before any is read, file:line
python3 - "$T/plain.json" "$T/many.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"] = d["jobs"][:1]
d["jobs"][0]["job options"].update(numjobs="4097", write_iops_log="x", log_avg_msec="1000")
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF
"$DRIVEBENCH" import "$T/many.json" --logs "$T" --out "$T/many.result.json" 2>"$T/err"
rc=$?
check "4097 threads' logs: exit 2" test "$rc" -eq 2
check "4097 threads' logs: file:line and the limit" \
	grep -q "many.json:[0-9]*: job '.*': the logs of more than 4096 threads" "$T/err"
check "4097 threads' logs: no result written" test ! -e "$T/many.result.json"

# export-samples: a row per interval per step; cells safe for spreadsheets and terminals
if [ -f "$T/plus.result.json" ]; then
	"$DRIVEBENCH" export-samples "$T/plus.result.json" -o "$T/samples.csv" 2>"$T/err"
	check "export-samples: exit 0" test $? -eq 0
	check "export-samples: a row per sample" env PYTHONPATH=tests python3 - "$T/samples.csv" "$T/plus.result.json" <<'PY'
import csv, json, sys
from resultfile import samples
rows = list(csv.reader(open(sys.argv[1], newline="")))
res = json.load(open(sys.argv[2]))
n = sum(len(samples(s)) for p in res["phases"] for s in p["steps"])
assert rows[0][:6] == ["phase", "step", "interval", "time_s", "duration_s", "iops"], rows[0]
assert len(rows) == n + 1 and n >= 2, (len(rows), n)
# the file keeps an IOPS column only when it is not ios / duration: either way the same
want = samples(res["phases"][0]["steps"][0])[0]["all"]["iops"]
assert abs(float(rows[1][5]) - want) <= 1e-6 * max(1, want), (rows[1][5], want)
PY
fi
"$DRIVEBENCH" export-samples tests/fixtures/hostile/strings.json >"$T/hostile.csv" 2>"$T/err"
check "export-samples: the hostile corpus" test $? -eq 0
check "export-samples: no formula, no control character" python3 - "$T/hostile.csv" <<'PY'
import csv, re, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
assert len(rows) > 1
num = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
for r in rows:
    for c in r:
        assert not re.search(r"[\x00-\x1f\x7f\x80-\x9f]", c), repr(c)
        assert not (c[:1] in "=+-@" and c and not num.match(c)), repr(c)
PY
# a fio job named like a formula: the cell stays text
if [ -f "$T/plus.json" ]; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["jobs"][0]["jobname"]="=HYPERLINK(\"x\")\x1b[31m"; json.dump(d, open(sys.argv[2], "w"))' \
		"$T/plus.json" "$T/formula.json"
	"$DRIVEBENCH" import --quiet "$T/formula.json" --logs "$T" --out "$T/formula.result.json" &&
		"$DRIVEBENCH" export-samples "$T/formula.result.json" >"$T/formula.csv"
	check "export-samples: a formula-like job name is text" \
		test "$(sed -n 2p "$T/formula.csv" | cut -d, -f2)" = "\"'=HYPERLINK(\"\"x\"\")^[[31m\""
fi
"$DRIVEBENCH" export-samples 2>/dev/null
check "export-samples without a result: exit 2" test $? -eq 2

# two "hosts": fio --server on 127.0.0.1 and 127.0.0.2 (fio's client names the logs it
# brings back after the host), and a third on 127.0.0.1 on another port; started and
# stopped here
port1=$((20000 + ($$ % 20000) * 2)) port2=$((20001 + ($$ % 20000) * 2))
servers_up=true
for at in 127.0.0.1,$port1 127.0.0.2,$port2 127.0.0.1,$port2; do
	# timeout passes the TERM on to its fio; it is only a backstop against a server left
	# behind, longer than the suite takes on a loaded host (386 s seen), which cleanup ends
	(cd "$T" && exec timeout 1800 fio --server=ip:$at >"$T/server.$at.log" 2>&1) &
	cleanup_add "kill $!"
done
for at in 127.0.0.1,$port1 127.0.0.2,$port2 127.0.0.1,$port2; do
	for _ in $(seq 50); do
		python3 -c 'import socket,sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 0.2)' \
			${at%,*} ${at#*,} 2>/dev/null && break
		sleep 0.1
	done || servers_up=false
done
L=$(mkfile 32M lab.img)
h1=127.0.0.1,$port1 h2=127.0.0.2,$port2 h3=127.0.0.1,$port2
lab=(run --host "$h1" --host "$h2" --target "$L" --rw randrw --read 70 --bs 4k --threads 2
	--qdepth 2 --time 2s --quiet)
timeout 60 "$DRIVEBENCH" "${lab[@]}" --out "$T/lab.json" --yes-destroy="$h1:$L" 2>"$T/err"
rc=$?
check "two hosts: writing without a confirmation for each host is refused (exit 3)" \
	test "$rc" -eq 3 -a ! -e "$T/lab.json"
check "two hosts: the refusal names the host and the confirmation" \
	grep -q -- "--yes-destroy=$h2:$L" "$T/err"
timeout 60 "$DRIVEBENCH" "${lab[@]}" --out "$T/lab.json" --yes-destroy=/dev/sda 2>"$T/err"
check "two hosts: a --yes-destroy naming no host is a usage error" test $? -eq 2
if timeout 120 "$DRIVEBENCH" "${lab[@]}" --out "$T/lab.json" --yes-destroy="$h1:$L" \
	--yes-destroy="$h2:$L" 2>"$T/err"; then
	pass "two hosts: run through fio --client"
else
	fail "two hosts: run through fio --client" "servers up: $servers_up; $(tail -c 400 "$T/err")"
fi
check "two hosts: the aggregate and each host, the aggregate their sum" python3 - "$T/lab.json" "$L" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = [p["name"] for p in d["phases"]]
assert len(names) == 3 and names[0] == "run" and all(n.startswith("run @127.0.0.") for n in names[1:]), names
agg, h1, h2 = (p["steps"][0] for p in d["phases"])
assert d["status"] == "complete" and agg["status"] == "complete"
for k in ("read", "write"):
    a, x, y = agg["summary"][k], h1["summary"][k], h2["summary"][k]
    assert x["ios"] > 0 and y["ios"] > 0, (x["ios"], y["ios"])
    assert a["ios"] == x["ios"] + y["ios"] and a["bytes"] == x["bytes"] + y["bytes"]
    assert abs(a["iops"] - (x["iops"] + y["iops"])) < 1e-6 * a["iops"]
assert agg["workload"]["threads"] == 4 and h1["workload"]["threads"] == 2
assert agg["workload"]["read_pct"] == 70 and agg["label"] == h1["label"] == "4k 70/30 random 2T2Q"
assert len(agg["hist"]["read"]) > 0
assert d["target"]["path"] == sys.argv[2], d["target"]
assert len(d["target"]["hosts"]) == 2
PY
check "two hosts: each host's samples from the logs fio's client brought back" python3 - "$T/lab.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["phases"][1:]:
    st = p["steps"][0]
    s = st["samples"]
    n = len(s["rows"])
    # 2 s at the default 1 s interval: fio's client brings back the whole intervals (the
    # last may be left out); each did some I/O, together no more than the step did (a
    # rate per interval is the host's business: a loaded host makes them uneven)
    assert 1 <= n <= 3, (p["name"], n)
    f = s["fields"]
    ios = 0
    for r in s["rows"]:
        got = r[f.index("read.ios")] + r[f.index("write.ios")]
        assert got > 0 and r[f.index("dur_ns")] > 0, (p["name"], got)
        ios += got
    assert ios <= 1.01 * st["summary"]["all"]["ios"], (p["name"], ios)
PY
check "two hosts: the client's logs are not left behind" \
	test -z "$(ls -d "$TMPDIR"/drivebench-lab-* 2>/dev/null)"
# two servers on one host, other ports: fio's client writes their logs to one file each,
# so neither's is read rather than one read twice
timeout 120 "$DRIVEBENCH" run --host "$h1" --host "$h3" --target "$L" --rw randread --time 1s \
	--quiet --out "$T/samehost.json" 2>"$T/err"
check "one host on two ports: runs" test $? -eq 0
check "one host on two ports: no samples from logs it cannot tell apart" \
	test "$(json "$T/samehost.json" 'sum(len(p["steps"][0].get("samples", {}).get("rows", [])) for p in d["phases"][1:])')" -eq 0
"$DRIVEBENCH" compare "$T/lab.json" "$T/plain.result.json" --format csv -o "$T/labcmp.csv" 2>"$T/err"
check "two hosts: the result compares like any other" test $? -eq 0
# a lab run at a scale: fio's output does not say it, the plan does, and every step's
# definition records it, so compare marks the run against one at another scale; show
# says only what the host record holds (fio names a lab's host and no more)
timeout 60 "$DRIVEBENCH" run --host "$h1" --target "$L" --preset quick --scale 0.01 \
	--yes-destroy="$h1:$L" --quiet --out "$T/labscale.json" 2>"$T/err"
check "a lab run at --scale 0.01: exit 0" test $? -eq 0
check "a lab run at --scale 0.01: every step's definition says scale 0.01" \
	test "$(json "$T/labscale.json" 'sorted({str(s.get("definition", {}).get("scale")) for p in d["phases"] for s in p["steps"]})' 2>&1)" = "['0.01']"
"$DRIVEBENCH" run --target "$L" --engine null --preset quick --scale 0.02 --quiet \
	--out "$T/localscale.json" 2>"$T/err"
"$DRIVEBENCH" compare "$T/labscale.json" "$T/localscale.json" >"$T/labscale.txt" 2>&1
check "a lab run against a local run at another scale: not-comparable:scale" \
	grep -q "not-comparable:scale" "$T/labscale.txt"
"$DRIVEBENCH" compare --strict "$T/labscale.json" "$T/localscale.json" >/dev/null 2>&1
check "a lab run against a local run at another scale: --strict refuses (exit 1)" test $? -eq 1
"$DRIVEBENCH" show "$T/labscale.json" >"$T/labscale.show" 2>&1
check "show of a lab run: the host as fio names it, no empty fields" \
	grep -qx "Host     127.0.0.1:$port1" "$T/labscale.show"
# a phase run until steady: fio's steady-state detection, its verdict in the phase
cat >"$T/steady.preset" <<'PRESET'
[preset]
name = lab steady
[workload]
bs = 4k
[precondition]
read = 0
threads = 1
qdepth = 2
until = steady
round = 1s
window = 3
max_rounds = 8
data_limit = 90%
[measure]
read = 100
threads = 1
qdepth = 2
time = 1s
PRESET
timeout 120 "$DRIVEBENCH" run --host "$h1" --host "$h2" --preset "$T/steady.preset" --target "$L" \
	--yes-destroy="$h1:$L" --yes-destroy="$h2:$L" --quiet --out "$T/steady.json" 2>"$T/err"
check "two hosts, steady phase: exit 0" test $? -eq 0
check "two hosts, steady phase: fio's verdict in every precondition phase" python3 - "$T/steady.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pre = [p for p in d["phases"] if p["kind"] == "precondition"]
assert len(pre) == 3, [p["name"] for p in d["phases"]]
for p in pre:
    st = p["steady"]
    assert st["window"] == 3 and st["data_limit_pct"] == 90 and st["round"] >= 3, st
    assert st["reached"] == (st["data_excursion_pct"] <= 90), st
    assert 0 < st["data_excursion_pct"], st
# the sum is reached only when every host's is
assert pre[0]["steady"]["reached"] == (pre[1]["steady"]["reached"] and pre[2]["steady"]["reached"])
assert pre[0]["steady"]["data_excursion_pct"] == max(p["steady"]["data_excursion_pct"] for p in pre[1:])
assert [p["kind"] for p in d["phases"]].count("measure") == 3
PY

# interrupted: fio is interrupted, what it measured is saved as aborted (exit 1)
timeout 60 "$DRIVEBENCH" run --host "$h1" --target "$L" --rw randread --time 30s --quiet \
	--out "$T/abort.json" 2>"$T/err" &
pid=$!
sleep 3
kill -TERM $pid
wait $pid
rc=$?
check "two hosts: SIGTERM aborts the run (exit 1) and saves it" \
	test "$rc" -eq 1 -a "$(json "$T/abort.json" 'd["status"]' 2>/dev/null)" = aborted
# SIGHUP (the ssh session closed) as SIGTERM: once fio's client runs, whenever that is
"$DRIVEBENCH" run --host "$h1" --target "$L" --rw randread --time 1h --quiet \
	--out "$T/hup.json" 2>"$T/hup.err" &
pid=$!
for _ in $(seq 600); do
	pgrep -P "$pid" -x fio >/dev/null && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -HUP $pid
wait $pid
rc=$?
if [ "$rc" -eq 1 ] && [ "$(json "$T/hup.json" 'd["status"]' 2>/dev/null)" = aborted ]; then
	pass "two hosts: SIGHUP aborts the run (exit 1) and saves it"
else
	fail "two hosts: SIGHUP aborts the run (exit 1) and saves it" "exit $rc: $(tail -n 3 "$T/hup.err")"
fi
timeout 60 "$DRIVEBENCH" run --host 127.0.0.1,1 --target "$L" --rw randread --time 1s --quiet \
	--out "$T/nohost.json" 2>"$T/err"
rc=$?
check "a host with no fio server: exit 1, fio's message, no result" \
	test "$rc" -eq 1 -a ! -e "$T/nohost.json"
check "a host with no fio server: fio's message" grep -q "failed to connect" "$T/err"
echo "an earlier file" >"$T/kept.json"
timeout 60 "$DRIVEBENCH" run --host 127.0.0.1,1 --target "$L" --rw randread --time 1s --quiet \
	--out "$T/kept.json" 2>/dev/null
check "a host with no fio server: a --out that was there is left as it was" \
	test "$(cat "$T/kept.json")" = "an earlier file"

# a target that is not there is not made by fio on the host (a name mistyped under /dev
# would become a file): fio's refusal is said, and nothing is left
timeout 60 "$DRIVEBENCH" run --host "$h1" --target "$T/missing.img" --rw randread --size 16M \
	--time 1s --quiet --out "$T/missing.json" 2>"$T/err"
rc=$?
check "a host's target that is not there: exit 2, fio's reason, no file made, no result" \
	test $rc -eq 2 -a ! -e "$T/missing.img" -a ! -e "$T/missing.json" -a \
	-n "$(grep "fio failed (exit 1): fio: file creation disallowed by allow_file_create=0" "$T/err")"

# the result's file is the run's from its start, as a run here: a second run for the same
# --out is refused at once, and the first one's result is not overwritten
timeout 60 "$DRIVEBENCH" run --host "$h1" --target "$L" --rw randread --time 3s --quiet \
	--label first --out "$T/same.json" 2>"$T/first.err" &
pid=$!
for _ in $(seq 100); do # until the first run holds its file
	python3 -c 'import fcntl,sys; fcntl.flock(open(sys.argv[1]), fcntl.LOCK_SH | fcntl.LOCK_NB)' \
		"$T/same.json" 2>/dev/null || { [ -e "$T/same.json" ] && break; }
	sleep 0.1
done
timeout 60 "$DRIVEBENCH" run --host "$h1" --target "$L" --rw randread --time 1s --quiet \
	--label second --out "$T/same.json" 2>"$T/second.err"
rc=$?
check "two runs for one --out: the second is refused at once (exit 2), said why" \
	test "$rc" -eq 2 -a -n "$(grep "same.json: another drivebench is still writing it" "$T/second.err")"
wait $pid
rc=$?
check "two runs for one --out: the first ends (exit 0) with its own result there" \
	test "$rc" -eq 0 -a "$(json "$T/same.json" '(d["status"], d.get("label"))' 2>/dev/null)" = "('complete', 'first')"

# the --out's directory is gone by the end: the result is saved in the results directory
mkdir "$T/gone"
timeout 60 "$DRIVEBENCH" run --host "$h1" --target "$L" --rw randread --time 3s --quiet \
	--out "$T/gone/lab.json" 2>"$T/gone.err" &
pid=$!
for _ in $(seq 100); do
	[ -e "$T/gone/lab.json" ] && break
	sleep 0.1
done
rm -rf "$T/gone"
wait $pid
rc=$?
check "the --out's directory removed during the run: exit 1, where the result went said" \
	test "$rc" -eq 1 -a -n "$(grep -F "$T/gone/lab.json: creating a temporary file: No such file or directory; the result is saved in $XDG_DATA_HOME/drivebench/results/lab.json instead" "$T/gone.err")"
check "the --out's directory removed during the run: the result there is whole" \
	test "$(json "$XDG_DATA_HOME/drivebench/results/lab.json" '(d["status"], len(d["phases"]))' 2>/dev/null)" = "('complete', 1)"

wait $stall_pid
rc=$?
stall_s=$(cat "$T/stall.secs")
check "a silent server: exit 1 ($stall_s s), not the timeout's 124" test "$rc" -eq 1
check "a silent server: given up on at the no-progress limit, not a minute ($stall_s s)" \
	test "$stall_s" -lt 55
# drivebench's own watch (5 s of silence) or fio's client's (a command unanswered for
# 5 s, which depends on fio's clock) gives up first: either way the server is named
if grep -qE "drivebench run: fio's server at 127.0.0.1 (port $(cat "$T/stall.port") sent nothing for 5 s|did not answer fio's client \([A-Za-z_ ]+\)); the run was given up" \
	"$T/stall.err"; then
	pass "a silent server: the message names it and the limit"
else
	fail "a silent server: the message names it and the limit" "$(tail -n 3 "$T/stall.err")"
fi
check "a silent server: the result is saved as failed, with the reason" \
	test "$(json "$T/stall.json" '(d["status"], "the run was given up" in d["error"])' 2>/dev/null)" = "('failed', True)"
check "a silent server: no fio client is left, nor its logs" \
	test -z "$(pgrep -f -- "--client=127.0.0.1,$(cat "$T/stall.port")")$(ls -d "$T"/stalltmp/drivebench-lab-* 2>/dev/null)"

# fio's client giving up by itself, and a server hanging up, as fio prints them (a fake
# fio found through DRIVEBENCH_TOOL_PATH: what it says is fixed, not a race)
mkdir -m 755 "$T/fake"
fake_fio() { # LINE...: printed on stderr ("out:" first: on stdout), then a run of no job
	{
		echo '#!/bin/sh'
		for l in "$@"; do
			case $l in
			out:*) printf 'echo "%s"\n' "${l#out:}" ;;
			*) printf 'echo "%s" >&2\n' "$l" ;;
			esac
		done
		printf 'printf "{\\n  \\"fio version\\" : \\"fio-3.33\\",\\n  \\"client_stats\\" : [\\n  ]\\n}\\n"\nexit 1\n'
	} >"$T/fake/fio"
	chmod 755 "$T/fake/fio"
}
fake_fio "fio: client 127.0.0.1, timeout on cmd PROBE" "fio: client 127.0.0.1 timed out"
DRIVEBENCH_TOOL_PATH=$T/fake timeout 60 "$DRIVEBENCH" run --host 127.0.0.1,1 --target "$S" \
	--rw randread --time 1s --quiet --out "$T/gaveup.json" 2>"$T/gaveup.err"
rc=$?
check "fio's client gives up on a server: exit 1, the server named" \
	test "$rc" -eq 1 -a "$(grep -c "fio's server at 127.0.0.1 did not answer fio's client (PROBE); the run was given up" "$T/gaveup.err")" -eq 1
check "fio's client gives up on a server: saved as failed, with the reason" \
	test "$(json "$T/gaveup.json" '(d["status"], "did not answer" in d["error"])' 2>/dev/null)" = "('failed', True)"
fake_fio "out:client: host=127.0.0.1 disconnected"
DRIVEBENCH_TOOL_PATH=$T/fake timeout 60 "$DRIVEBENCH" run --host 127.0.0.1,1 --target "$S" \
	--rw randread --time 1s --quiet --out "$T/hungup.json" 2>"$T/hungup.err"
rc=$?
check "a server that hangs up: exit 1, the message says so" \
	test "$rc" -eq 1 -a "$(grep -c "fio ran no job (fio's server at 127.0.0.1 hung up)" "$T/hungup.err")" -eq 1

# the TUI's Results screen lists an import and shows its steps
if command -v tmux >/dev/null 2>&1 && [ -f "$(cat "$T/path" 2>/dev/null)" ]; then
	SOCK=drivebench-fio-$$
	# the server gone, and its socket too (kill-server leaves the file behind)
	cleanup_add "tmux -L $SOCK kill-server; rm -f ${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
	tmux -L "$SOCK" new-session -d -s r -x 140 -y 40 \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color ESCDELAY=25 \
		XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME \
		XDG_CONFIG_HOME=$XDG_CONFIG_HOME DRIVEBENCH_SCRATCH_SIZE=16m $DRIVEBENCH"
	sleep 1
	tmux -L "$SOCK" send-keys -t r 4
	seen=""
	for _ in $(seq 50); do
		tmux -L "$SOCK" capture-pane -p -t r >"$T/screen"
		grep -q "complete" "$T/screen" && grep -qE "1T2Q|plain" "$T/screen" && { seen=y; break; }
		sleep 0.1
	done
	if [ -n "$seen" ]; then
		pass "the Results screen lists the import and its steps"
	else
		fail "the Results screen lists the import" "$(head -c 1500 "$T/screen")"
	fi
	tmux -L "$SOCK" send-keys -t r q
else
	skip "the Results screen lists an import" "tmux is not installed"
fi

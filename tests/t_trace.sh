#!/usr/bin/env bash
# Block traces end to end: capture of a known fio workload on a loop device, its replay on
# another (the same reads and writes, in order, counted by the kernel's own
# /sys/block/X/stat and by a second capture), the timing mode's pace, the fast mode, the
# shipped trace, import of fio iologs and of blkparse's binary output, damaged trace
# files (file: offset / file:line, exit 2) and the write guard.
. "$(dirname "$0")/lib.sh"

FIXTURE=$(cd "$(dirname "$0")" && pwd)/fixtures/trace/ext4-copy.dbt

# the blkparse import needs no root
if command -v blkparse >/dev/null; then
	python3 - "$T/bt.blktrace.0" <<'PY'
import struct, sys
MAGIC = 0x65617407
def ev(seq, t, sector, nbytes, action, pdu=b""):
    return struct.pack("<IIQQIIIIIHH", MAGIC, seq, t, sector, nbytes, action, 42, 7 << 20, 0, 0,
                       len(pdu)) + pdu
Q, C, NOTE = 1 | (1 << 4) << 16, 8 | (1 << 7) << 16, 0 | (1 << 10) << 16
R, W, DISCARD = 1 << 16, 2 << 16, (1 << 13) << 16
out = [ev(0, 1000, 0, 0, NOTE, b"fio\0")]
t = 2000
for i in range(6):  # read, write, read, write, ... each completed before the next
    d = W if i % 2 else R
    out.append(ev(2 * i + 1, t, 8 * i, 4096, Q | d)); t += 1000
    out.append(ev(2 * i + 2, t, 8 * i, 4096, C | d)); t += 1000
out.append(ev(20, t, 1024, 65536, Q | W | DISCARD))
open(sys.argv[1], "wb").write(b"".join(out))
PY
	if blkparse -q -i "$T/bt" -d "$T/bt.bin" -O >/dev/null 2>"$T/err" &&
		"$DRIVEBENCH" trace import "$T/bt.bin" -o "$T/bt.dbt" 2>"$T/err"; then
		"$DRIVEBENCH" trace show "$T/bt.dbt" >"$T/show" 2>&1
		check "blkparse -d import: 3 reads, 3 writes, 1 discard" \
			grep -qzE 'read +3, 12288.*write +3, 12288.*discard +1, 65536' "$T/show"
		check "blkparse -d import: in order, the time from the first event" python3 - "$T/bt.dbt" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()[32:]
r = [struct.unpack("<QQIIBBHI", d[i:i + 32]) for i in range(0, len(d), 32)]
assert [(x[4], x[1]) for x in r] == [(0, 0), (1, 4096), (0, 8192), (1, 12288), (0, 16384),
                                      (1, 20480), (3, 524288)], r
# times from the first I/O; each completed before the next: depth 1
assert r[0][0] == 0 and r[1][0] == 2000 and all(x[6] == 1 for x in r[:6]), r
PY
	else
		fail "blkparse -d import" "$(cat "$T/err")"
	fi
	head -c 90 "$T/bt.bin" >"$T/cut.bin"
	"$DRIVEBENCH" trace import "$T/cut.bin" -o "$T/cut.dbt" 2>"$T/err"
	check "a blkparse dump cut short: exit 2" test $? -eq 2
	check "... named by file and offset" grep -q "cut.bin: offset 52: the last event is cut short (38 bytes)" "$T/err"
else
	skip "blkparse import" "blkparse is not installed (scripts/deps.sh check)"
fi

# fio iologs: v3 as fio writes it, v2 by hand; errors by file:line
printf 'fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x write 0 4096\n/dev/x wait 2000\n/dev/x read 4096 8192\n/dev/x trim 65536 65536\n/dev/x sync 0 0\n/dev/x close\n' >"$T/v2.log"
"$DRIVEBENCH" trace import "$T/v2.log" -o "$T/v2.dbt" 2>"$T/err"
check "fio iolog v2 import" grep -q "4 I/Os (R 1 W 1 F 1 D 1)" "$T/err"
check "fio iolog v2: wait moves the clock 2 ms" python3 - "$T/v2.dbt" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()[32:]
r = [struct.unpack("<QQIIBBHI", d[i:i + 32]) for i in range(0, len(d), 32)]
assert [(x[0], x[4], x[1], x[2]) for x in r] == [(0, 1, 0, 4096), (2000000, 0, 4096, 8192),
                                                 (2000000, 3, 65536, 65536), (2000000, 2, 0, 0)], r
PY
printf 'fio version 3 iolog\n0 /dev/x add\n5 /dev/x open\n10 /dev/x read 0 4096\n7 /dev/x read 4096 4096\n' >"$T/back.log"
"$DRIVEBENCH" trace import "$T/back.log" -o "$T/back.dbt" 2>"$T/err"
check "fio iolog: a time going back is exit 2" test $? -eq 2
check "... at file:line" grep -q "back.log:5: time 7 goes back" "$T/err"
printf 'fio version 3 iolog\n0 /dev/x add\n10 /dev/x frobnicate 0 4096\n' >"$T/bad.log"
"$DRIVEBENCH" run --target "$(mkfile 1M f.img)" --trace "$T/bad.log" --out "$T/x.json" 2>"$T/err"
check "an iolog given to run --trace is refused, exit 2" test $? -eq 2
check "... as not a drivebench trace" grep -q "bad.log: offset 0: not a drivebench trace" "$T/err"
"$DRIVEBENCH" trace import "$T/bad.log" -o "$T/bad.dbt" 2>"$T/err"
check "fio iolog: an unknown action at file:line" grep -q "bad.log:3: unknown action 'frobnicate'" "$T/err"

# damaged and hostile trace files
f=$(mkfile 16M f.img)
head -c $((32 + 32 * 5 + 7)) "$FIXTURE" >"$T/cut.dbt"
"$DRIVEBENCH" run --target "$f" --trace "$T/cut.dbt" --out "$T/x.json" 2>"$T/err"
check "a trace cut short: exit 2" test $? -eq 2
check "... named by file, offset and record" \
	grep -q "cut.dbt: offset 192: record 6: cut short (7 of 32 bytes)" "$T/err"
python3 - "$FIXTURE" "$T/op.dbt" "$T/ver.dbt" "$T/back.dbt" "$T/huge.dbt" "$T/lbs.dbt" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
op = bytearray(d); op[32 + 32 * 2 + 24] = 9; open(sys.argv[2], "wb").write(op)
ver = bytearray(d); ver[8] = 2; open(sys.argv[3], "wb").write(ver)
back = bytearray(d); back[32 + 32 * 3:32 + 32 * 3 + 8] = struct.pack("<Q", 700 * 3600 * 10**9)
open(sys.argv[4], "wb").write(back)
huge = bytearray(d); huge[32 + 32 * 3:32 + 32 * 3 + 8] = b"\xff" * 8; open(sys.argv[5], "wb").write(huge)
lbs = bytearray(d); lbs[24:28] = struct.pack("<I", 3); open(sys.argv[6], "wb").write(lbs)
PY
printf '[preset]\nname = bad trace\n[run]\ntrace = %s\n' "$T/op.dbt" >"$T/op.preset"
"$DRIVEBENCH" run --target "$f" --preset "$T/op.preset" --out "$T/x.json" 2>"$T/err"
check "a preset's trace with an unknown op: exit 2" test $? -eq 2
check "... at preset:line, trace: offset and record" \
	grep -q "op.preset:4: trace: .*op.dbt: offset 96: record 3: unknown op" "$T/err"
"$DRIVEBENCH" trace show "$T/ver.dbt" >/dev/null 2>"$T/err"
check "another version: exit 2, offset 8" bash -c "[ $? -eq 2 ] && grep -q 'ver.dbt: offset 8: trace version 2' '$T/err'"
"$DRIVEBENCH" trace show "$T/back.dbt" >/dev/null 2>"$T/err"
check "a time going back: offset and record" grep -q "back.dbt: offset 160: record 5: time goes back" "$T/err"
"$DRIVEBENCH" trace show "$T/huge.dbt" >/dev/null 2>"$T/err"
check "a time of 2^64-1 ns: exit 2, offset and record" bash -c "[ $? -eq 2 ] && grep -q 'huge.dbt: offset 128: record 4: a time past 720h' '$T/err'"
"$DRIVEBENCH" run --target "$f" --trace "$T/huge.dbt" --out "$T/x.json" 2>"$T/err"
check "... refused by a replay before it starts: exit 2" bash -c "[ $? -eq 2 ] && grep -q 'record 4: a time past 720h' '$T/err' && ! grep -q about '$T/err'"
"$DRIVEBENCH" trace show "$T/lbs.dbt" >/dev/null 2>"$T/err"
check "a logical block size of 3: exit 2, offset 24" bash -c "[ $? -eq 2 ] && grep -q 'lbs.dbt: offset 24: logical block size 3, not 0 (unknown) or a power of two' '$T/err'"

# the shipped trace (an ext4 copy, read-back and fstrim on a loop device, captured here)
"$DRIVEBENCH" trace show "$FIXTURE" >"$T/show" 2>&1
check "the shipped trace reads, writes and discards" \
	grep -qzE 'read +153, .*write +134, .*discard +22, ' "$T/show"
if "$DRIVEBENCH" run --target "$f" --trace "$FIXTURE" --trace_speed fast --qdepth 4 \
	--quiet --out "$T/fast.json" >/dev/null 2>"$T/err"; then
	check "fast replay into a file: every record, the discards too" test \
		"$(json "$T/fast.json" 'str(d["phases"][0]["steps"][0]["replay"]["issued"]) + " " + str(d["phases"][0]["steps"][0]["replay"]["discards"]) + " " + str(d["phases"][0]["steps"][0]["summary"]["all"]["ios"])')" = "309 22 287"
	"$DRIVEBENCH" replay "$T/fast.json" --target "$f" --quiet --out "$T/again.json" \
		>/dev/null 2>"$T/err"
	check "drivebench replay runs a replay's result again" test \
		"$(json "$T/again.json" 'd["phases"][0]["steps"][0]["replay"]["issued"]')" = 309
	check "show reads the replay back" grep -q \
		"replay trace ext4-copy.dbt fast 1T4Q: 309 of 309 I/Os (0 flushes, 22 discards) at QD4, as fast as possible" \
		<("$DRIVEBENCH" show "$T/fast.json")
else
	fail "fast replay into a file" "$(cat "$T/err")"
fi

# capture takes a block device; a failed capture leaves no file
"$DRIVEBENCH" capture "$f" --time 1s -o "$T/nf.dbt" 2>"$T/err"
check "capture of a regular file: exit 2, named" bash -c "[ $? -eq 2 ] && grep -q 'capture traces a block device' '$T/err'"
check "... and no trace file left" test ! -e "$T/nf.dbt"

# fio cannot run a replay: export-fio and --host refuse it (exit 2) rather than run
# something else
printf '[preset]\nname = t\n[run]\ntrace = %s\n' "$FIXTURE" >"$T/tr.preset"
"$DRIVEBENCH" export-fio "$T/tr.preset" >/dev/null 2>"$T/err"
check "export-fio refuses a replay (exit 2)" bash -c "[ $? -eq 2 ] && grep -q 'replays the trace' '$T/err'"
"$DRIVEBENCH" run --target "$f" --host 127.0.0.1 --trace "$FIXTURE" >/dev/null 2>"$T/err"
check "run --host refuses a replay (exit 2)" bash -c "[ $? -eq 2 ] && grep -q 'replays the trace' '$T/err'"

# a replay ends with its trace: run's default time (10s) does not cut it, a --time does
"$DRIVEBENCH" run --target "$f" --trace "$FIXTURE" --trace_speed 100 --quiet \
	--out "$T/long.json" >/dev/null 2>"$T/err"
check "run --trace: the step's time is only a cap (24h) without --time" test \
	"$(json "$T/long.json" 'd["phases"][0]["steps"][0]["workload"]["time_ns"]')" = 86400000000000
"$DRIVEBENCH" run --target "$f" --trace "$FIXTURE" --time 1s --quiet \
	--out "$T/short.json" >/dev/null 2>"$T/err"
check "run --trace --time 1s: the time written counts" test \
	"$(json "$T/short.json" 'd["phases"][0]["steps"][0]["workload"]["time_ns"]')" = 1000000000

if ! is_root; then
	skip "capture and replay on loop devices" "needs root"
	exit 0
fi
if ! command -v fio >/dev/null; then
	skip "capture and replay on loop devices" "fio is not installed"
	exit 0
fi
mkloop A "$(mkfile 64M a.img)" || { fail "loop device A" ""; exit 0; }
mkloop B "$(mkfile 64M b.img)" || { fail "loop device B" ""; exit 0; }

# capture DEVICE -o FILE in the background until SIGTERM; waits until its events are on
start_capture() { # start_capture DEVICE FILE
	"$DRIVEBENCH" capture "$1" -o "$2" --quiet 2>"$2.err" &
	cap_pid=$!
	cleanup_add "kill $cap_pid"
	local inst=/sys/kernel/tracing/instances/drivebench-capture-$cap_pid i
	for ((i = 0; i < 200; i++)); do
		[ "$(cat "$inst/events/block/block_rq_complete/enable" 2>/dev/null)" = 1 ] && return 0
		kill -0 "$cap_pid" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
stop_capture() { kill -TERM "$cap_pid" && wait "$cap_pid"; }
# same_ios TRACE REPLAY SPEED: the replay's capture holds the trace's I/Os (op, offset,
# length) in the same order, and took no less than the trace's span / SPEED (1 ms of slack
# for the clocks) and no more than 30 s over it (a loaded host is late, never early)
same_ios() {
	python3 - "$@" <<'PY'
import struct, sys
def recs(p):
    d = open(p, "rb").read()[32:]
    return [struct.unpack("<QQIIBBHI", d[i:i + 32]) for i in range(0, len(d), 32)]
a, b, speed = recs(sys.argv[1]), recs(sys.argv[2]), float(sys.argv[3])
assert [(x[4], x[1], x[2]) for x in a] == [(x[4], x[1], x[2]) for x in b], (len(a), len(b))
span_a, span_b = (a[-1][0] - a[0][0]) / speed, b[-1][0] - b[0][0]
assert span_b <= span_a + 30e9, (span_a, span_b)
# no faster than the trace: no I/O leads its time in the trace, counted from the first
# I/O, by more than that first one can have been issued late on a loaded host (a few ms;
# a replay that ignored the trace's times would lead by most of its span)
lead = max((x[0] - a[0][0]) / speed - (y[0] - b[0][0]) for x, y in zip(a, b))
assert lead <= max(5e6, 0.02 * span_a), (lead, span_a)
PY
}
# reads and writes the kernel counted on DEVICE (completed + merged), as "R W"
ios() { awk '{print $1 + $2, $5 + $6, $12 + $13}' "/sys/block/$(basename "$1")/stat"; }

NW=240 NR=160
if start_capture "$A" "$T/cap.dbt"; then
	fio --name=w --filename="$A" --rw=randwrite --bs=4k --direct=1 --ioengine=psync \
		--number_ios=$NW --size=32M --randseed=7 >/dev/null 2>&1
	fio --name=r --filename="$A" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--number_ios=$NR --size=32M --randseed=8 >/dev/null 2>&1
	stop_capture
	check "capture exits 0 on SIGTERM" test $? -eq 0
	"$DRIVEBENCH" trace show "$T/cap.dbt" >"$T/show" 2>&1
	check "capture: exactly fio's $NR reads and $NW writes of 4K" \
		grep -qzE "read +$NR, $((NR * 4096)) bytes.write +$NW, $((NW * 4096)) bytes" "$T/show"
	check "capture: psync is one I/O in flight" grep -q "highest depth 1$" "$T/show"
else
	fail "capture starts" "$(cat "$T/cap.dbt.err")"
fi

# the live count: a line every half second on a pipe
"$DRIVEBENCH" capture "$A" --time 1200ms -o "$T/live.dbt" 2>"$T/live.err"
check "capture's live count" grep -qE '^ +[0-9.]+s  [0-9]+ I/Os \(R [0-9]+ W [0-9]+ F [0-9]+ D [0-9]+\)  [0-9]+ events$' "$T/live.err"

# the write guard: a trace that writes needs the confirmation
"$DRIVEBENCH" run --target "$B" --trace "$T/cap.dbt" --out "$T/x.json" 2>"$T/err"
check "a replay that writes is refused without --yes-destroy (exit 3)" test $? -eq 3

# timed replay on B, itself captured: the same I/Os in the same order, never ahead of
# the trace's pace (the lower bound holds on any host), within a generous upper bound
before=$(ios "$B")
if start_capture "$B" "$T/rep.dbt"; then
	"$DRIVEBENCH" run --target "$B" --trace "$T/cap.dbt" --yes-destroy="$B" --quiet \
		--out "$T/rep.json" >/dev/null 2>"$T/err"
	check "timed replay exits 0" test $? -eq 0
	stop_capture
	read -r r0 w0 _ <<<"$before"
	read -r r1 w1 _ <<<"$(ios "$B")"
	check "replay: /sys/block stat counts $NR reads and $NW writes" \
		test "$((r1 - r0)) $((w1 - w0))" = "$NR $NW"
	check "replay: the same I/Os in the same order, no faster than the trace" \
		same_ios "$T/cap.dbt" "$T/rep.dbt" 1
	check "replay: the result says timed, every I/O issued, at QD1" test \
		"$(json "$T/rep.json" 'str(d["phases"][0]["steps"][0]["replay"]["mode"]) + " " + str(d["phases"][0]["steps"][0]["replay"]["issued"]) + " " + str(d["phases"][0]["steps"][0]["replay"]["qdepth"])')" = "timed $((NR + NW)) 1"
else
	fail "capture of the replay starts" "$(cat "$T/rep.dbt.err")"
fi

# twice the speed: still the same I/Os, and never ahead of half the trace's time
if start_capture "$B" "$T/rep2.dbt"; then
	"$DRIVEBENCH" run --target "$B" --trace "$T/cap.dbt" --trace_speed 2 \
		--yes-destroy="$B" --quiet --out "$T/rep2.json" >/dev/null 2>"$T/err"
	stop_capture
	check "trace_speed 2: same I/Os, at least half the trace's span" \
		same_ios "$T/cap.dbt" "$T/rep2.dbt" 2
fi

# the shipped trace on a block device: discards through io_uring, counted by the kernel
before=$(ios "$B")
"$DRIVEBENCH" run --target "$B" --trace "$FIXTURE" --trace_speed fast --qdepth 1 \
	--yes-destroy="$B" --quiet --out "$T/ship.json" >/dev/null 2>"$T/err"
check "the shipped trace replays on a loop device" test $? -eq 0
read -r r0 w0 d0 <<<"$before"
read -r r1 w1 d1 <<<"$(ios "$B")"
check "... 153 reads, 134 writes and 22 discards by /sys/block stat" \
	test "$((r1 - r0)) $((w1 - w0)) $((d1 - d0))" = "153 134 22"

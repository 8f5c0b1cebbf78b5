#!/usr/bin/env bash
# The kernel as oracle: each I/O mode runs on a loop device this test makes (and a few on a
# zram device, whose I/O io_uring's worker threads complete), and the result's I/O and
# byte counts are checked against /sys/block/X/stat taken before and after the run. Every I/O the step did is in its window, its ramp or its drain, so their
# sum equals the kernel's count exactly; the window and the ramp alone fall short of it by
# at most the I/Os in flight at the end (threads x queue depth), which completed in the
# drain. Root only (loop and zram devices).
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip oracle "needs root for a loop device"
	exit 0
fi
if ! mkloop dev "$(mkfile 64M oracle.img)"; then
	skip oracle "no loop device available"
	exit 0
fi

# name | workload options (each runs 0.5 s; threads x qdepth below 64 keeps it light)
modes=(
	"randread|--rw randread --bs 4k --qdepth 16"
	"randwrite|--rw randwrite --bs 4k --qdepth 16"
	"randrw 70/30|--rw randrw --read 70 --bs 8k --qdepth 8"
	"sequential read|--rw read --bs 128k --qdepth 4"
	"sequential write|--rw write --bs 64k --qdepth 4"
	"sequential 50/50|--rw rw --read 50 --bs 16k --qdepth 8"
	"bssplit|--rw randrw --read 80 --bssplit 4k/60:16k/25:64k/15 --qdepth 8"
	"4 threads|--rw randrw --read 60 --bs 4k --threads 4 --qdepth 8"
	"busy-poll yes|--rw randread --bs 4k --qdepth 8 --busy-poll yes"
	"busy-poll no|--rw randrw --read 50 --bs 4k --qdepth 8 --busy-poll no"
	"with a ramp|--rw randwrite --bs 4k --qdepth 8 --threads 2 --ramp 300ms"
)

# oracle NAME DEV [ENV=VALUE...] -- WORKLOAD OPTIONS: one run on DEV, its counts against
# the kernel's; $check, if set, is a python expression over the step (st) that must hold.
oracle() {
	local name=$1 dev=$2 stat out before after envs=()
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	stat=/sys/block/$(basename "$dev")/stat
	before=$(cat "$stat")
	if ! env "${envs[@]}" "$DRIVEBENCH" run --target "$dev" --yes-destroy="$dev" --time 500ms \
		--interval 250ms --quiet --out "$T/o.json" "$@" 2>"$T/err"; then
		fail "oracle: $name" "drivebench run failed: $(head -c 300 "$T/err")"
		return
	fi
	after=$(cat "$stat")
	if out=$(CHECK="${check:-True}" python3 - "$T/o.json" "$before" "$after" <<'PY' 2>&1
import json, os, sys
d = json.load(open(sys.argv[1]))
b, a = [list(map(int, s.split())) for s in sys.argv[2:4]]
# /sys/block/X/stat: reads completed, merged, sectors, ms; writes completed, merged, sectors
kernel = {
    "read": (a[0] - b[0] + a[1] - b[1], (a[2] - b[2]) * 512),
    "write": (a[4] - b[4] + a[5] - b[5], (a[6] - b[6]) * 512),
}
st = d["phases"][0]["steps"][0]
assert d["status"] == "complete", d["status"]
wl = st["workload"]
inflight = wl["threads"] * wl["qdepth"]
def part(key, direction):
    o = st.get(key, {}).get(direction, {})
    return o.get("ios", 0), o.get("bytes", 0)
for direction in ("read", "write"):
    k_ios, k_bytes = kernel[direction]
    w, r, dr = part("summary", direction), part("ramp", direction), part("drain", direction)
    ios, nbytes = w[0] + r[0] + dr[0], w[1] + r[1] + dr[1]
    assert ios == k_ios, f"{direction}: window {w[0]} + ramp {r[0]} + drain {dr[0]} = {ios} I/Os, kernel {k_ios}"
    assert nbytes == k_bytes, f"{direction}: {nbytes} bytes, kernel {k_bytes}"
    # what the window and the ramp miss was in flight at the end
    short = k_ios - w[0] - r[0]
    assert 0 <= short <= inflight, f"{direction}: window and ramp short of the kernel by {short} I/Os, {inflight} in flight at most"
assert st["summary"]["all"]["ios"] > 0
if wl["read_pct"] not in (0, 100):
    assert kernel["read"][0] > 0 and kernel["write"][0] > 0
assert eval(os.environ["CHECK"]), f"{os.environ['CHECK']}: engine {st['engine']}, {st['summary']['all']['iops']:.0f} IOPS"
print(f"reads {kernel['read'][0]} writes {kernel['write'][0]}, drain {st.get('drain', {}).get('all', {}).get('ios', 0)}")
PY
	); then
		pass "oracle: $name: counts equal the kernel's ($out)"
	else
		fail "oracle: $name" "$out"
	fi
}

for m in "${modes[@]}"; do
	read -ra args <<<"${m#*|}"
	oracle "${m%%|*}" "$dev" -- "${args[@]}"
done

# zram: io_uring's worker threads complete its I/O, and a thread lets completions gather
# unless told not to: for 10 us once one is there with two CPUs to itself (kernel 6.12 on),
# until all are there with fewer; async issue is a choice. Each way loses no completion and
# counts none twice, and a paced step keeps its rate.
cpus=$(nproc)
if [ "$cpus" -lt 2 ]; then
	skip "oracle: zram" "needs 2 CPUs"
elif mkzram zr 64M; then
	IFS=. read -r kmaj kmin _ <<<"$(uname -r)"
	g=False
	[ "$kmaj" -gt 6 ] || { [ "$kmaj" = 6 ] && [ "$kmin" -ge 12 ]; } && g=True
	check="('gather 10us' in st['engine']) == $g" oracle "zram, gather 10us" "$zr" -- \
		--rw randread --bs 4k --qdepth 16
	check="('gather 10us' in st['engine']) == $g" oracle "zram, gather 10us, 70/30" "$zr" -- \
		--rw randrw --read 70 --bs 8k --qdepth 8
	check="('gather 10us' in st['engine']) == $g and 1000 <= st['summary']['all']['iops'] <= 2100" \
		oracle "zram, gather 10us, paced at 2000 IOPS" "$zr" -- --rw randread --bs 4k \
		--qdepth 8 --rate 2000
	check="'gather all' in st['engine']" oracle "zram, gather all" "$zr" -- \
		--rw randrw --read 70 --bs 8k --qdepth 16 --threads "$cpus"
	check="'gather all' in st['engine'] and 1000 <= st['summary']['all']['iops'] <= 2100" \
		oracle "zram, gather all, paced at 2000 IOPS" "$zr" -- --rw randread --bs 4k \
		--qdepth 8 --threads "$cpus" --rate 2000
	check="'gather' not in st['engine']" oracle "zram, DRIVEBENCH_URING_GATHER=no" "$zr" \
		DRIVEBENCH_URING_GATHER=no -- --rw randwrite --bs 4k --qdepth 16
	check="'IOSQE_ASYNC' in st['engine'] and 'gather' not in st['engine']" \
		oracle "zram, async" "$zr" DRIVEBENCH_URING_ASYNC=auto -- --rw randread --bs 4k --qdepth 16
else
	skip "oracle: zram" "needs root and zram-control"
fi

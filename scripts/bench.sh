#!/usr/bin/env bash
# make bench: drivebench against fio on the same device in the same run, as ratios.
#
# On zram (set up here and reset on exit; root only): 4K random read, 1 thread, at QD1,
# QD32 and QD128, alternating drivebench and fio (io_uring, fixed buffers, registered
# files) ROUNDS times each; prints the median IOPS of each and the ratio drivebench/fio.
# Then 4K random write at QD32 with random data. The last line is the QD32 read ratio.
# Then whatever other bench scripts exist (discovery, compare, UI overhead).
#   BENCH_TIME=10 ROUNDS=3 scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
DB=${DRIVEBENCH:-$PWD/$BUILD/drivebench}
TIME=${BENCH_TIME:-10}
ROUNDS=${ROUNDS:-3}
DEV=/dev/zram0
tmp=$(mktemp -d)
zram_ours=0

cleanup() {
	[ "$zram_ours" = 1 ] && echo 1 >/sys/block/zram0/reset 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

for b in scripts/bench_*.sh; do
	[ -x "$b" ] && BUILD=$BUILD "$b"
done

if [ "$(id -u)" -ne 0 ]; then
	echo "bench: the zram comparison needs root (to set up /dev/zram0); skipped"
	exit 0
fi
[ -e /sys/block/zram0 ] || modprobe zram num_devices=1 2>/dev/null || true
if [ ! -e /sys/block/zram0 ]; then
	echo "bench: no zram device on this machine; skipped"
	exit 0
fi
if [ "$(cat /sys/block/zram0/disksize)" != 0 ]; then
	echo "bench: /dev/zram0 is already in use; not touching it"
	exit 1
fi
zram_ours=1
echo 2G >/sys/block/zram0/disksize
# fill it with incompressible data, so reads decompress real pages as a drive's would
dd if=/dev/urandom of=$DEV bs=1M count=2048 oflag=direct status=none

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

db_iops() { # rw qd
	local extra=()
	[ "$1" = randwrite ] && extra=(--yes-destroy=$DEV)
	"$DB" run --target $DEV --rw "$1" --bs 4k --threads 1 --qdepth "$2" --time "${TIME}s" \
		--quiet --out "$tmp/db.json" "${extra[@]}"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["phases"][0]["steps"][0]["summary"]["all"]["iops"])' "$tmp/db.json"
}

fio_iops() { # rw qd
	fio --name=bench --filename=$DEV --ioengine=io_uring --fixedbufs=1 --registerfiles=1 \
		--direct=1 --rw="$1" --bs=4k --iodepth="$2" --numjobs=1 --time_based \
		--runtime="$TIME" --output-format=json --output="$tmp/fio.json" >/dev/null
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["read"]["iops"]+j["write"]["iops"])' "$tmp/fio.json"
}

compare() { # rw qd label
	local d=() f=() i
	for ((i = 0; i < ROUNDS; i++)); do
		d+=("$(db_iops "$1" "$2")")
		f+=("$(fio_iops "$1" "$2")")
	done
	local dm fm
	dm=$(printf '%s\n' "${d[@]}" | median)
	fm=$(printf '%s\n' "${f[@]}" | median)
	printf '%-34s drivebench %8.0f  fio %8.0f IOPS (median of %d x %ss)  ratio %.3f\n' \
		"$3" "$dm" "$fm" "$ROUNDS" "$TIME" "$(awk -v a="$dm" -v b="$fm" 'BEGIN {print a / b}')"
}

echo "zram 4K random read, 1 thread, full latency timing, $(uname -r), $(nproc) CPUs"
compare randread 1 "4K randread QD1"
compare randread 128 "4K randread QD128"
compare randwrite 32 "4K randwrite QD32 (random data)"
compare randread 32 "4K randread QD32"

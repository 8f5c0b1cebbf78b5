#!/usr/bin/env bash
# make bench: drivebench against fio on the same device in the same run, as ratios.
#
# First whatever other bench scripts exist (discovery, compare, UI overhead). Then, on
# zram (set up here and reset on exit; root only): 4K random read, 1 thread, at QD1,
# QD128 and QD32, alternating drivebench and fio (io_uring, fixed buffers, registered
# files) ROUNDS times each; prints the median IOPS of each, the CPUs each process kept
# busy (user + system time over wall time, io_uring worker threads included), the peak
# resident set of each, and the ratio drivebench/fio. drivebench runs as it does by default
# (waiting for completions as fio does) and, on the lines before, busy-polling
# (--busy-poll=yes), with every read marked async up front (DRIVEBENCH_URING_ASYNC=auto:
# zram cannot take non-blocking I/O; docs/DESIGN.md, "Async issue") and, at QD128, QD32,
# for writes and the 8K corners, without gathered waits (DRIVEBENCH_URING_GATHER=no).
# 4K random write at QD32 with random data and the corners of the 8K
# 70/30 ladder (2..16 threads x 2..16 deep) are measured too. Before
# those, what the drive health sampler costs a run (tests/bench_health.c: 4K QD32 reads
# without the watch, with it sampling every 10 s as on an NVMe drive, and every 10 ms,
# against a fake NVMe controller under umockdev). The last line is the QD32 read ratio.
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

# timed FILE CMD...: run CMD quietly; FILE gets "CPUs RSS": the CPUs it kept busy,
# (user + system time) / wall time, and its peak resident set in MiB (scripts/rusage.py)
timed() {
	local f=$1
	shift
	python3 scripts/rusage.py "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; return 1; }
	awk '$1 == "rusage" {printf "%.2f %.1f\n", $2 / $3, $4 / 1024}' "$tmp/err" >"$f"
}

# A workload as "rw qd threads read% bs": 4K random read at QD32 is "randread 32 1 100 4k".
db_iops() { # rw qd threads read bs [drivebench options]: prints "IOPS CPUs MiB"
	local extra=("${@:6}")
	[ "$1" != randread ] && extra+=(--yes-destroy=$DEV)
	[ "$1" = randrw ] && extra+=(--read "$4")
	timed "$tmp/usage" env ${DB_ENV:-} "$DB" run --target $DEV --rw "$1" --bs "$5" --threads "$3" \
		--qdepth "$2" --time "${TIME}s" --quiet --out "$tmp/db.json" "${extra[@]}"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["phases"][0]["steps"][0]["summary"]["all"]["iops"], open(sys.argv[2]).read().strip())' "$tmp/db.json" "$tmp/usage"
}

fio_iops() { # rw qd threads read bs: prints "IOPS CPUs MiB"
	timed "$tmp/usage" fio --name=bench --filename=$DEV --ioengine=io_uring --fixedbufs=1 \
		--registerfiles=1 --direct=1 --rw="$1" --rwmixread="$4" --bs="$5" --iodepth="$2" \
		--numjobs="$3" --group_reporting --time_based --runtime="$TIME" \
		--output-format=json --output="$tmp/fio.json"
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["read"]["iops"]+j["write"]["iops"], open(sys.argv[2]).read().strip())' "$tmp/fio.json" "$tmp/usage"
}

line() { # label db-results fio-results: one output line from "IOPS CPUs RSS" lists
	local dm fm dc fc dr fr
	dm=$(cut -d' ' -f1 <<<"$2" | median)
	dc=$(cut -d' ' -f2 <<<"$2" | median)
	dr=$(cut -d' ' -f3 <<<"$2" | median)
	fm=$(cut -d' ' -f1 <<<"$3" | median)
	fc=$(cut -d' ' -f2 <<<"$3" | median)
	fr=$(cut -d' ' -f3 <<<"$3" | median)
	# each round's own ratio (drivebench and fio ran back to back): their range shows how
	# far one pair strays from the medians' ratio on this host
	printf '%-38s drivebench %7.0f  fio %7.0f IOPS  CPUs %.2f/%.2f  MiB %.0f/%.0f  ratio %.3f  (rounds %s)\n' \
		"$1" "$dm" "$fm" "$dc" "$fc" "$dr" "$fr" \
		"$(awk -v a="$dm" -v b="$fm" 'BEGIN {print a / b}')" \
		"$(paste -d' ' <(cut -d' ' -f1 <<<"$2") <(cut -d' ' -f1 <<<"$3") |
			awk '$2 > 0 { r = $1 / $2; lo = (NR == 1 || r < lo) ? r : lo; hi = (NR == 1 || r > hi) ? r : hi }
			     END { printf "%.2f-%.2f", lo, hi }')"
}

# compare "WORKLOAD" LABEL [extra]: alternate runs, print the medians and ratios.
# drivebench runs as it does by default (fio's wait); with extra "poll", "async" and
# "nogather", also busy-polling, with its reads marked async up front (IOSQE_ASYNC on zram,
# docs/DESIGN.md "Async issue") and without gathered waits, each on a line of its own.
compare() {
	local d='' p='' n='' m='' f='' i
	for ((i = 0; i < ROUNDS; i++)); do
		d+="$(db_iops $1)"$'\n'
		[[ "${3:-}" == *poll* ]] && p+="$(db_iops $1 --busy-poll=yes)"$'\n'
		[[ "${3:-}" == *async* ]] && n+="$(DB_ENV=DRIVEBENCH_URING_ASYNC=auto db_iops $1)"$'\n'
		[[ "${3:-}" == *nogather* ]] && m+="$(DB_ENV=DRIVEBENCH_URING_GATHER=no db_iops $1)"$'\n'
		f+="$(fio_iops $1)"$'\n'
	done
	[[ "${3:-}" == *poll* ]] && line "$2, --busy-poll=yes" "${p%$'\n'}" "${f%$'\n'}"
	[[ "${3:-}" == *async* ]] && line "$2, URING_ASYNC=auto" "${n%$'\n'}" "${f%$'\n'}"
	[[ "${3:-}" == *nogather* ]] && line "$2, URING_GATHER=no" "${m%$'\n'}" "${f%$'\n'}"
	line "$2" "${d%$'\n'}" "${f%$'\n'}"
}

if [ -x "$BUILD/tests/bench_health" ] && command -v umockdev-wrapper >/dev/null; then
	"$BUILD/tests/bench_health" $DEV "$TIME" "$ROUNDS"
else
	echo "bench: the health sampler's bench needs umockdev (scripts/deps.sh bench); skipped"
fi

echo "zram, full latency timing, $(uname -r), $(nproc) CPUs; medians of $ROUNDS x ${TIME}s"
echo "(CPUs: user+system time over wall time; MiB: peak resident set; drivebench/fio)"
compare "randread 1 1 100 4k" "4K randread QD1" "poll async"
compare "randread 128 1 100 4k" "4K randread QD128" "poll async nogather"
compare "randwrite 32 1 0 4k" "4K randwrite QD32 (random data)" "nogather"
# the 8K 70/30 ladder's corners (2T2Q, 2T16Q, 16T2Q, 16T16Q)
for tq in "2 2" "16 2" "2 16" "16 16"; do
	set -- $tq
	compare "randrw $2 $1 70 8k" "8K 70/30 ${1}T${2}Q" "nogather"
done
compare "randread 32 1 100 4k" "4K randread QD32" "poll async nogather"

#!/usr/bin/env bash
# Times drive discovery over a fake sysfs tree of 64 NVMe drives, each behind its own PCI
# function with a PCIe capability in config space, and prints one line:
#   discovery of 64 drives: N ms (limit 100 ms)
# N is the best of 5 runs of the whole `drivebench list --json` process (start-up, libpci
# and pci.ids included), so it bounds discovery from above. Exit status 1 over the limit.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
DRIVEBENCH=${DRIVEBENCH:-$PWD/$BUILD/drivebench}
N=64 LIMIT_MS=100 RUNS=5
T=$(mktemp -d /tmp/drivebench-bench-discovery.XXXXXX)
trap 'rm -rf "$T"' EXIT

# 256 bytes of config space: Samsung a80a, NVMe class, Express capability at 0x40 with
# Link Capabilities Gen4 x4 and Link Status Gen4 x4.
config() {
	printf '\x4d\x14\x0a\xa8\x06\x04\x10\x00\x00\x02\x08\x01'
	printf '\x00%.0s' $(seq 12 51)
	printf '\x40\x00\x00\x00' # 0x34: capability pointer
	printf '\x00%.0s' $(seq 56 63)
	printf '\x10\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x44\x00\x00\x00\x00\x00\x44\x00'
	printf '\x00%.0s' $(seq 84 255)
}

sys=$T/sys
mkdir -p "$sys/class/block" "$sys/bus/pci/devices" "$T/proc/self"
config >"$T/config"
for ((i = 0; i < N; i++)); do
	addr=$(printf '0000:%02x:00.0' $((i + 1)))
	pci=devices/pci0000:00/0000:00:1d.0/$addr
	ns=$pci/nvme/nvme$i/nvme${i}n1
	mkdir -p "$sys/$ns/queue"
	cp "$T/config" "$sys/$pci/config"
	printf '0x144d\n' >"$sys/$pci/vendor"
	printf '0xa80a\n' >"$sys/$pci/device"
	printf '0x010802\n' >"$sys/$pci/class"
	printf '16\n' >"$sys/$pci/irq"
	printf '0x0 0x0 0x0\n' >"$sys/$pci/resource"
	printf '%d\n' $((i % 2)) >"$sys/$pci/numa_node"
	printf '16.0 GT/s PCIe\n' >"$sys/$pci/current_link_speed"
	printf '4\n' >"$sys/$pci/current_link_width"
	printf '16.0 GT/s PCIe\n' >"$sys/$pci/max_link_speed"
	printf '4\n' >"$sys/$pci/max_link_width"
	ln -s "../../../$pci" "$sys/bus/pci/devices/$addr"
	printf 'Bench NVMe %d\n' "$i" >"$sys/$pci/nvme/nvme$i/model"
	printf 'SN%06d\n' "$i" >"$sys/$pci/nvme/nvme$i/serial"
	printf '1.0\n' >"$sys/$pci/nvme/nvme$i/firmware_rev"
	ln -s ../../nvme$i "$sys/$ns/device"
	printf '259:%d\n' "$i" >"$sys/$ns/dev"
	printf '1953525168\n' >"$sys/$ns/size"
	printf '1\n' >"$sys/$ns/nsid"
	printf '0\n' >"$sys/$ns/queue/rotational"
	printf '512\n' >"$sys/$ns/queue/logical_block_size"
	printf '[none] mq-deadline\n' >"$sys/$ns/queue/scheduler"
	ln -s "../../$ns" "$sys/class/block/nvme${i}n1"
done
printf '22 1 0:21 / /proc rw - proc proc rw\n' >"$T/proc/self/mountinfo"
printf 'Filename\tType\tSize\tUsed\tPriority\n' >"$T/proc/swaps"

best=
for ((r = 0; r < RUNS; r++)); do
	start=$(date +%s%N)
	"$DRIVEBENCH" list --json --sysfs-root "$sys" --proc-root "$T/proc" >"$T/out.json"
	end=$(date +%s%N)
	us=$(((end - start) / 1000))
	if [ -z "$best" ] || [ "$us" -lt "$best" ]; then best=$us; fi
done
found=$(grep -Ec '"name": *"nvme' "$T/out.json" || true)
if [ "$found" -ne "$N" ]; then
	echo "bench_discovery: found $found of $N fake drives" >&2
	exit 1
fi
ms=$(awk -v us="$best" 'BEGIN { printf "%.1f", us / 1000 }')
echo "discovery of $N drives: $ms ms (limit $LIMIT_MS ms)"
[ "$best" -le $((LIMIT_MS * 1000)) ]

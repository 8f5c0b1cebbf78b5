#!/bin/sh
# `make check-vm`: boot the lab guest (scripts/vm/build.sh) under QEMU with real
# controllers (tests/vm/hardware.conf): an NVMe controller behind a PCIe root port in an
# NVM subsystem with two namespaces, an AHCI SATA disk and a virtio-scsi disk, each on a
# raw file. The guest runs tests/vm/scenarios.sh and powers off; its outputs come back
# through a 9p share to build/vm/: list.json, health.json, results/*.json and
# scenarios.log. Prints the PASS/FAIL/GAP lines and "N passed, M failed"; exits 1 on any
# failure, or when the guest did not finish within VM_TIMEOUT seconds (default 600),
# with the last lines of its console.
#   scripts/vm/run.sh [BUILD_DIR]      (default build/vm)
set -eu
cd "$(dirname "$0")/../.."
vm=${1:-build/vm}
limit=${VM_TIMEOUT:-600}
. tests/vm/hardware.conf

out=$(scripts/vm/build.sh "$vm")
kernel=$(echo "$out" | tail -n 2 | head -n 1)
initrd=$(echo "$out" | tail -n 1)

disks=$vm/disks
share=$vm/share
rm -rf "$disks" "$share" "$vm/results" "$vm/list.json" "$vm/health.json" "$vm/scenarios.log"
mkdir -p "$disks" "$share"
# sparse raw files: a fresh, empty drive each run
truncate -s "${NVME_NS_MB}M" "$disks/nvme-ns1.raw"
truncate -s "${NVME_NS_MB}M" "$disks/nvme-ns2.raw"
truncate -s "${SATA_MB}M" "$disks/sata.raw"
truncate -s "${SCSI_MB}M" "$disks/scsi.raw"
# QEMU's blkdebug between the SCSI disk and its file: every read of FAULT_SECTOR fails
cat >"$disks/blkdebug.conf" <<EOC
[inject-error]
event = "read_aio"
iotype = "read"
errno = "5"
sector = "$FAULT_SECTOR"
EOC

# TCG: /dev/kvm opens here but a KVM guest makes no progress (PLATFORM.md)
accel=${VM_ACCEL:-tcg}
console=$vm/console.log
start=$(date +%s)
echo "check-vm: booting $(basename "$kernel") under QEMU ($accel), at most ${limit}s" >&2
set +e
timeout -k 10 "$limit" qemu-system-x86_64 \
	-machine q35 -accel "$accel" -cpu max -smp 2 -m 1024 \
	-display none -monitor none -serial "file:$console" -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 loglevel=4 panic=-1 rdinit=/init" \
	-device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1 \
	-device nvme-subsys,id=subsys0,nqn="$NVME_SUBSYS_NQN" \
	-device nvme,id=nvme0,serial="$NVME_SERIAL",subsys=subsys0,bus=rp1 \
	-drive file="$disks/nvme-ns1.raw",if=none,id=ns1,format=raw \
	-device nvme-ns,drive=ns1,bus=nvme0,nsid=1 \
	-drive file="$disks/nvme-ns2.raw",if=none,id=ns2,format=raw \
	-device nvme-ns,drive=ns2,bus=nvme0,nsid=2 \
	-drive file="$disks/sata.raw",if=none,id=sata,format=raw \
	-device ide-hd,drive=sata,bus=ide.0,model="$SATA_MODEL",serial="$SATA_SERIAL",ver="$SATA_FW" \
	-device virtio-scsi-pci,id=scsi0 \
	-drive if=none,id=scsi,format=raw,file.driver=blkdebug,file.config="$disks/blkdebug.conf",file.image.filename="$disks/scsi.raw" \
	-device scsi-hd,drive=scsi,bus=scsi0.0,vendor="$SCSI_VENDOR",product="$SCSI_PRODUCT",serial="$SCSI_SERIAL",ver="$SCSI_FW" \
	-fsdev local,id=out,path="$share",security_model=none \
	-device virtio-9p-pci,fsdev=out,mount_tag=out
qemu_rc=$?
set -e
secs=$(($(date +%s) - start))

log=$share/scenarios.log
[ -f "$log" ] || log=$console
grep -E '^(PASS|FAIL|GAP|    )' "$log" || true
failed=$(grep -c '^FAIL' "$log" || true)
passed=$(grep -c '^PASS' "$log" || true)
if ! grep -q '^lab: scenarios end' "$log"; then
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		why="QEMU stopped at the ${limit}s limit"
	else
		why="QEMU exited with status $qemu_rc"
	fi
	echo "FAIL guest: the scenarios did not finish ($why); the console's last lines:"
	tail -n 30 "$console" | sed 's/^/    /'
	failed=$((failed + 1))
fi
[ -f "$share/list.json" ] && cp "$share/list.json" "$vm/"
[ -f "$share/health.json" ] && cp "$share/health.json" "$vm/"
[ -f "$share/scenarios.log" ] && cp "$share/scenarios.log" "$vm/"
[ -d "$share/results" ] && cp -r "$share/results" "$vm/"
echo "check-vm: guest ran ${secs}s; outputs in $vm/ (list.json, health.json, results/, console.log)"
gaps=$(grep -c '^GAP' "$log" || true)
[ "$gaps" = 0 ] || echo "check-vm: $gaps known gaps (GAP lines; docs/DESIGN.md, \"The lab\")"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

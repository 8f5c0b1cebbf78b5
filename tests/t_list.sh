#!/usr/bin/env bash
# drivebench list: discovery under umockdev fixtures (NVMe at full and degraded PCIe link,
# SATA behind AHCI under LVM holding the root file system, USB, SAS, virtio, a loop disk
# with a mounted partition and a swap partition), path resolution, this machine's root
# disk, a real partitioned loop device with a mounted partition and active swap (root),
# and bad input.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
FIX=$PWD/tests/fixtures/drive
FIXTURES=(nvme sata sas-usb virtio loop)

# ---- umockdev fixtures --------------------------------------------------------------------
mock() { # mock CMD...: run CMD in a test bed holding every fixture device
	local args=() f
	for f in "${FIXTURES[@]}"; do args+=(-d "$FIX/$f.umockdev"); done
	umockdev-run "${args[@]}" -- "$@"
}

if ! command -v umockdev-run >/dev/null; then
	skip umockdev "umockdev-run is not installed (Debian package umockdev)"
else
	if mock "$DRIVEBENCH" list --json --proc-root "$FIX/proc" >"$T/mock.json" 2>"$T/mock.err"; then
		pass "umockdev: list --json runs"
	else
		fail "umockdev: list --json runs" "$(cat "$T/mock.err")"
	fi
	# Every field of every fixture drive. Each check prints its own PASS/FAIL line.
	python3 - "$T/mock.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
drives = {d["name"]: d for d in doc["drives"]}

def get(d, path):
    for k in path.split("."):
        d = d[k] if isinstance(d, dict) else d[int(k)]
    return d

def check(name, cond, why=""):
    print(("PASS: " if cond else "FAIL: ") + name + ("" if cond else ": " + why))

check("umockdev: document format and version",
      doc["format"] == "drivebench-drives" and doc["version"] == 1 and
      list(doc)[:2] == ["format", "version"], str(list(doc)[:3]))
check("umockdev: every fixture disk and no partition is listed",
      sorted(drives) == ["dm-0", "loop3", "nvme0n1", "nvme1n1", "sda", "sdb", "sdc", "vdb"],
      str(sorted(drives)))

expect = {
    "nvme0n1": {
        "node": "/dev/nvme0n1", "dev": "259:0", "major": 259, "minor": 0,
        "transport": "nvme", "model": "Samsung SSD 980 PRO 2TB", "serial": "S6B0NG0R123456",
        "firmware": "5B2QGXA7", "vendor": "Samsung Electronics Co Ltd",
        "wwn": "eui.002538b111b2c3d4", "capacity_bytes": 3907029168 * 512,
        "logical_block_bytes": 512, "physical_block_bytes": 512,
        "rotational": False, "rotational_reliable": True, "scheduler": "none",
        "nr_requests": 1023, "write_cache": "write back", "discard": True,
        "discard_max_bytes": 2199023255040, "read_only": False, "partitions": 0,
        "by_id": ["/dev/disk/by-id/nvme-Samsung_SSD_980_PRO_2TB_S6B0NG0R123456",
                  "/dev/disk/by-id/nvme-eui.002538b111b2c3d4"],
        "pci.address": "0000:3d:00.0", "pci.vendor_id": "144d", "pci.device_id": "a80a",
        "pci.subsystem_device_id": "a801",
        "pci.vendor": "Samsung Electronics Co Ltd",
        "pci.device": "NVMe SSD Controller PM9A1/PM9A3/980PRO",
        "pci.link.current.gen": 4, "pci.link.current.width": 4,
        "pci.link.current.speed_gts": 16.0,
        "pci.link.max.gen": 4, "pci.link.max.width": 4, "pci.link.degraded": False,
        "pci.link.source": "config", "pci.numa_node": 1, "pci.local_cpus": "16-31,48-63",
        "nvme.controller": "nvme0", "nvme.model": "Samsung SSD 980 PRO 2TB",
        "nvme.serial": "S6B0NG0R123456", "nvme.firmware": "5B2QGXA7", "nvme.nsid": 1,
        "in_use.busy": False, "in_use.reasons": [],
    },
    "nvme1n1": {
        "transport": "nvme", "model": "WD_BLACK SN850X 1000GB", "serial": "22517Z800123",
        "firmware": "620311WD", "capacity_bytes": 1953525168 * 512,
        "pci.address": "0000:3e:00.0",
        "pci.device": "Western Digital WD Black SN850X NVMe SSD",
        "pci.link.current.gen": 3, "pci.link.current.width": 2,
        "pci.link.current.speed_mts": 8000,
        "pci.link.max.gen": 4, "pci.link.max.width": 4, "pci.link.degraded": True,
        "pci.link.source": "config", "pci.numa_node": 0, "nvme.controller": "nvme1",
        "in_use.busy": False,
    },
    "sda": {
        "transport": "sata", "model": "Samsung SSD 870 EVO 1TB", "serial": "S6PUNX0T123456A",
        "firmware": "2B6Q", "vendor": "", "wwn": "naa.5002538f41234567",
        "rotational": False, "rotational_reliable": True, "scheduler": "mq-deadline",
        "discard": True, "partitions": 1, "pci.address": "0000:00:17.0",
        "pci.vendor": "Intel Corporation", "pci.link": None, "nvme": None,
        "in_use.busy": True, "in_use.held": True, "in_use.root": True,
        "in_use.mounted": False,
        "in_use.reasons": [
            {"kind": "held", "text": "held by dm-0 (vg0-root) through sda1, mounted: dm-0 on /"},
            {"kind": "root", "text": "root filesystem: / is on dm-0, which uses sda1"}],
    },
    "dm-0": {
        "transport": "dm", "model": "vg0-root", "rotational_reliable": False, "pci": None,
        "in_use.mounted": True, "in_use.root": True,
    },
    "sdb": {
        # the udev database is the only place that knows a USB bridge's serial
        "transport": "usb", "model": "PSSD T7", "vendor": "Samsung",
        "serial": "S5SXNG0R900001", "firmware": "0", "rotational": True,
        "rotational_reliable": False, "pci.address": "0000:00:14.0",
        # mounted by numbers (8:16) although mountinfo's source column says /dev/sdc
        "in_use.mounted": True,
        "in_use.reasons": [{"kind": "mounted", "text": "mounted: sdb on /media/usb"}],
    },
    "sdc": {
        "transport": "sas", "model": "ST4000NM0025", "vendor": "SEAGATE",
        "serial": "ZC1ABCDE0000L123XYZ", "firmware": "E004", "wwn": "naa.5000c500a1b2c3d4",
        "rotational": True, "rotational_reliable": True, "physical_block_bytes": 4096,
        "write_cache": "write through", "discard": False, "capacity_bytes": 7814037168 * 512,
        "pci.address": "0000:02:00.0", "pci.link.current.gen": 3,
        "pci.link.current.width": 8, "pci.link.degraded": False, "in_use.busy": False,
    },
    "vdb": {
        "transport": "virtio", "serial": "bench-scratch-01", "rotational": True,
        "rotational_reliable": False, "pci.address": "0000:00:03.0",
        "pci.device": "Virtio 1.0 block device", "pci.vendor": "Red Hat, Inc.",
        "capacity_bytes": 209715200 * 512, "in_use.busy": False,
    },
    "loop3": {
        "transport": "loop", "model": "/var/tmp/drive-under-test.img", "partitions": 2,
        "rotational_reliable": False, "pci": None, "in_use.busy": True,
        "in_use.mounted": True, "in_use.swap": True, "in_use.root": False,
        "in_use.reasons": [
            {"kind": "mounted", "text": "mounted: loop3p1 on /mnt/x"},
            {"kind": "mounted", "text": "mounted: loop3p1 on /mnt/bind mount"},
            {"kind": "swap", "text": "swap: loop3p2 (/dev/loop3p2)"}],
    },
}
for name, fields in expect.items():
    if name not in drives:
        check("umockdev: " + name, False, "not listed")
        continue
    bad = []
    for path, want in fields.items():
        try:
            got = get(drives[name], path)
        except (KeyError, IndexError, TypeError) as e:
            got = "<missing %s>" % e
        if got != want:
            bad.append("%s = %r, want %r" % (path, got, want))
    check("umockdev: %s fields (%d)" % (name, len(fields)), not bad, "; ".join(bad))
EOF

	# The table: one line per drive, the degraded link and in-use state visible.
	mock "$DRIVEBENCH" list --proc-root "$FIX/proc" >"$T/mock.txt" 2>&1
	check "umockdev table: header" grep -qE '^DEVICE +MODEL +CAPACITY +BUS +LINK +FIRMWARE +STATE$' "$T/mock.txt"
	check "umockdev table: degraded link marked" grep -qE '^nvme1n1 .*Gen3 x2 ! of Gen4 x4 ' "$T/mock.txt"
	check "umockdev table: healthy link unmarked" grep -qE '^nvme0n1 .* Gen4 x4 +5B2QGXA7 +free$' "$T/mock.txt"
	check "umockdev table: in-use state" grep -qE '^loop3 .*IN USE: mounted swap$' "$T/mock.txt"
	check "umockdev table: degraded note" grep -qF 'nvme1n1: PCIe link degraded: trained at Gen3 x2, capable of Gen4 x4 (0000:3e:00.0)' "$T/mock.txt"
	check "umockdev table: reasons in words" grep -qF 'sda: root filesystem: / is on dm-0, which uses sda1' "$T/mock.txt"

	# Any path to a disk gives the disk's record: a partition, a by-id link.
	mock "$DRIVEBENCH" list --json --proc-root "$FIX/proc" /dev/loop3p1 \
		/dev/disk/by-id/nvme-eui.002538b111b2c3d4 >"$T/paths.json" 2>"$T/paths.err"
	r=$(json "$T/paths.json" '[(x["name"], x["partition"]) for x in d["drives"]]' 2>&1)
	if [ "$r" = "[('loop3', 'loop3p1'), ('nvme0n1', None)]" ]; then
		pass "umockdev: paths resolve to their disk"
	else
		fail "umockdev: paths resolve to their disk" "$r $(cat "$T/paths.err")"
	fi
fi

# ---- this machine -------------------------------------------------------------------------
if "$DRIVEBENCH" list --json >"$T/real.json" 2>"$T/real.err"; then
	pass "real: list --json runs"
	root=$(json "$T/real.json" '" ".join(x["name"] for x in d["drives"] if x["in_use"]["root"])')
	if [ -b /dev/vda ]; then
		r=$(json "$T/real.json" '[(x["transport"], x["in_use"]["root"], [r["text"] for r in x["in_use"]["reasons"] if r["kind"] == "root"]) for x in d["drives"] if x["name"] == "vda"]')
		if [ "$r" = "[('virtio', True, ['root filesystem: / is on vda'])]" ]; then
			pass "real: vda is the virtio disk holding the root file system"
		else
			fail "real: vda is the virtio disk holding the root file system" "$r"
		fi
	elif [ -n "$root" ]; then
		pass "real: the root disk ($root) is reported in use"
	else
		skip "real: root disk" "/ is not on a block device here"
	fi
else
	fail "real: list --json runs" "$(cat "$T/real.err")"
fi
"$DRIVEBENCH" list >"$T/real.txt" 2>&1
check "real: the table prints" grep -qE '^DEVICE +MODEL +CAPACITY +BUS +LINK +FIRMWARE +STATE$' "$T/real.txt"

# ---- a real partitioned loop device, one partition mounted, one swap ------------------------
if ! is_root; then
	skip "loop: mounted partition and swap" "needs root"
elif ! command -v sfdisk >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	skip "loop: mounted partition and swap" "needs sfdisk (fdisk) and mkfs.ext4 (e2fsprogs)"
else
	img=$(mkfile 64M disk.img)
	dev=$(losetup --find --show --partscan "$img") && cleanup_add "losetup -d $dev"
	name=${dev#/dev/}
	printf 'label: dos\n,24M,L\n,24M,S\n' | sfdisk -q "$dev" >/dev/null 2>&1
	[ -b "${dev}p1" ] || partx -a "$dev" 2>/dev/null
	mkdir -p "$T/mnt with space"
	if [ -b "${dev}p1" ] && mkfs.ext4 -q "${dev}p1" && mount "${dev}p1" "$T/mnt with space"; then
		cleanup_add "umount '$T/mnt with space'"
		mkswap -q "${dev}p2" >/dev/null 2>&1 && swapon "${dev}p2" && cleanup_add "swapoff ${dev}p2"
		ln -s "${dev}p1" "$T/by-id-link"
		"$DRIVEBENCH" list --json "$dev" "$T/by-id-link" >"$T/loop.json" 2>"$T/loop.err"
		r=$(json "$T/loop.json" '[x["in_use"]["reasons"] for x in d["drives"]][0]')
		want="[{'kind': 'mounted', 'text': 'mounted: ${name}p1 on $T/mnt with space'}, {'kind': 'swap', 'text': 'swap: ${name}p2 (${dev}p2)'}]"
		if [ "$r" = "$want" ]; then
			pass "loop: mounted partition and swap, in words"
		else
			fail "loop: mounted partition and swap, in words" "got $r, want $want $(cat "$T/loop.err")"
		fi
		r=$(json "$T/loop.json" '[(x["name"], x["partition"], x["partitions"], x["transport"]) for x in d["drives"]]')
		if [ "$r" = "[('$name', None, 2, 'loop'), ('$name', '${name}p1', 2, 'loop')]" ]; then
			pass "loop: a link to a partition gives the disk, naming the partition"
		else
			fail "loop: a link to a partition gives the disk, naming the partition" "$r"
		fi
	else
		skip "loop: mounted partition and swap" "could not partition, format or mount $dev"
	fi
fi

# ---- bad input ----------------------------------------------------------------------------
"$DRIVEBENCH" list --bogus >/dev/null 2>"$T/e1"
check "bad option: exit 2" test $? -eq 2
check "bad option: named" grep -q -- "--bogus" "$T/e1"
"$DRIVEBENCH" list /nonexistent/disk >/dev/null 2>"$T/e2"
check "missing path: exit 2" test $? -eq 2
check "missing path: named" grep -qF "/nonexistent/disk: No such file or directory" "$T/e2"
"$DRIVEBENCH" list "$0" >/dev/null 2>"$T/e3"
check "a file is not a drive: exit 2" test $? -eq 2
check "a file is not a drive: said" grep -qF "not a block device" "$T/e3"
"$DRIVEBENCH" list --pci-dump /nonexistent/lspci.txt >/dev/null 2>"$T/e4"
check "missing pci dump: exit 2" test $? -eq 2

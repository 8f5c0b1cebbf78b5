#!/usr/bin/env bash
# The write guard: never the wrong disk. Every target here is made by the test (loop
# devices over temp files, a file system and swap on them) and removed at exit.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "safety" "needs root for loop devices, mounts and swap"
	exit 0
fi

refused() { # name args... : drivebench must exit 3 and say why
	local name=$1
	shift
	"$DRIVEBENCH" "$@" >"$T/o" 2>"$T/e"
	local rc=$?
	if [ "$rc" -eq 3 ]; then pass "$name"; else fail "$name" "exit $rc, want 3: $(cat "$T/e")"; fi
}
write_args() { echo run --rw randwrite --time 1s --quiet --out "$T/w.json"; }

# --- a partitioned disk with a mounted ext4 partition --------------------------------
img=$(mkfile 96M disk.img)
mkloop dev "$img" -P
printf 'label: dos\n,32M,L\n,,L\n' | sfdisk -q "$dev" >/dev/null 2>&1
partx -a "$dev" 2>/dev/null || true
if [ -b "${dev}p1" ] && mkfs.ext4 -q "${dev}p1" 2>/dev/null && mkdir -p "$T/mnt" &&
	mount "${dev}p1" "$T/mnt"; then
	cleanup_add "umount $T/mnt"
	head -c 1M /dev/urandom >"$T/mnt/precious"
	sync
	sum0=$(md5sum <"$T/mnt/precious")
	refused "mounted partition: whole disk by its node" $(write_args) --target "$dev" --yes-destroy="$dev"
	check "mounted partition: the reason names the mount" grep -q "mounted" "$T/e"
	ln -s "$dev" "$T/alias"
	refused "mounted partition: whole disk through a symlink" $(write_args) --target "$T/alias" --yes-destroy="$T/alias"
	refused "mounted partition: the mounted partition itself" $(write_args) --target "${dev}p1" --yes-destroy="${dev}p1"
	refused "mounted partition: its sibling partition" $(write_args) --target "${dev}p2" --yes-destroy="${dev}p2"
	for link in /dev/disk/by-*/*; do
		[ "$(readlink -f "$link")" = "$dev" ] || continue
		refused "mounted partition: through $link" $(write_args) --target "$link" --yes-destroy="$link"
	done
	echo 3 >/proc/sys/vm/drop_caches
	check "mounted partition: the file is unchanged" test "$(md5sum <"$T/mnt/precious")" = "$sum0"
	check "mounted partition: the file system is clean" bash -c "umount $T/mnt && e2fsck -fn ${dev}p1 >/dev/null 2>&1"
else
	skip "mounted partition" "could not partition, format or mount a loop device"
fi

# --- a loop device used as swap --------------------------------------------------------
mkloop sw "$(mkfile 32M swap.img)"
if mkswap -q "$sw" >/dev/null 2>&1 && swapon "$sw" 2>/dev/null; then
	cleanup_add "swapoff $sw"
	refused "swap: active swap device" $(write_args) --target "$sw" --yes-destroy="$sw"
	check "swap: the reason says swap" grep -q "swap" "$T/e"
else
	skip "swap" "swapon refused a loop device here"
fi

# --- a loop device that backs another loop device ------------------------------------
mkloop lower "$(mkfile 32M lower.img)"
mkloop upper "$lower"
refused "held: loop device backing another loop device" $(write_args) --target "$lower" --yes-destroy="$lower"
check "held: the reason names the holder" grep -q "$(basename "$upper")" "$T/e"

# --- and a free device still works, so the guard is not refusing everything ----------
mkloop free "$(mkfile 32M free.img)"
"$DRIVEBENCH" $(write_args) --target "$free" --yes-destroy="$free" 2>"$T/e"
check "free device: a confirmed write runs" test $? -eq 0

# --- a file target on a small tmpfs that fills: failed with ENOSPC, samples kept ------
mkdir -p "$T/tfs"
if mount -t tmpfs -o size=8m tmpfs "$T/tfs"; then
	cleanup_add "umount $T/tfs"
	truncate -s 64M "$T/tfs/target"
	"$DRIVEBENCH" run --target "$T/tfs/target" --rw randwrite --time 5s --interval 100ms \
		--quiet --out "$T/enospc.json" 2>"$T/e"
	check "ENOSPC: exit 1" test $? -eq 1
	check "ENOSPC: result says failed, with the error and offset" python3 - "$T/enospc.json" <<'PY'
import json, sys
sys.path.insert(0, "tests")
from resultfile import samples
d = json.load(open(sys.argv[1]))
assert d["status"] == "failed", d["status"]
assert "No space left on device" in d["error"], d["error"]
st = d["phases"][0]["steps"][0]
assert st["status"] == "failed" and st["error_offset"] > 0, st
assert st["summary"]["all"]["ios"] > 0
assert sum(s["all"]["ios"] for s in samples(st)) == st["summary"]["all"]["ios"]
PY
	check "ENOSPC: the file was not grown" test "$(stat -c %s "$T/tfs/target")" -eq $((64 << 20))
else
	skip "ENOSPC" "cannot mount a tmpfs"
fi

# --- a block device whose writes start failing mid-run (a loop device over a file on a
# tmpfs that fills): the run ends failed with the error and its offset, samples kept ---
mkdir -p "$T/tfs2"
if mount -t tmpfs -o size=8m tmpfs "$T/tfs2"; then
	cleanup_add "umount $T/tfs2"
	truncate -s 64M "$T/tfs2/backing"
	mkloop eio "$T/tfs2/backing"
	"$DRIVEBENCH" run --target "$eio" --yes-destroy="$eio" --rw randwrite --time 5s \
		--interval 100ms --quiet --out "$T/eio.json" 2>"$T/e"
	check "failing device: exit 1" test $? -eq 1
	check "failing device: result says failed, with the error and offset" python3 - "$T/eio.json" <<'PY'
import json, sys
sys.path.insert(0, "tests")
from resultfile import samples
d = json.load(open(sys.argv[1]))
assert d["status"] == "failed", d["status"]
assert "write error at offset" in d["error"], d["error"]
st = d["phases"][0]["steps"][0]
assert st["status"] == "failed", st["status"]
assert st["summary"]["all"]["ios"] > 0
assert sum(s["all"]["ios"] for s in samples(st)) == st["summary"]["all"]["ios"]
PY
else
	skip "failing device" "cannot mount a tmpfs"
fi

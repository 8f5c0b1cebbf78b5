#!/usr/bin/env bash
# The write guard: never the wrong disk. Every target here is made by the test (loop
# devices over temp files, a file system and swap on them) and removed at exit. What a
# device holds (libblkid's signatures) is said before a write destroys it.
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
	# the storage graph: a partition's byte range is all a write to it reaches
	"$DRIVEBENCH" $(write_args) --target "${dev}p2" --yes-destroy="${dev}p2" >"$T/o" 2>"$T/e"
	check "mounted partition: its sibling partition is written" test $? -eq 0
	# whether a run writes is the plan's, not the engine's: a purge with the null engine
	p2sum=$(head -c 1M "${dev}p2" | md5sum)
	refused "null engine: a purging preset needs the guard too" run --preset 4k-random \
		--scale 0.002 --engine null --quiet --out "$T/null.json" --target "${dev}p2"
	check "null engine: the sibling partition was not purged" \
		test "$(head -c 1M "${dev}p2" | md5sum)" = "$p2sum"
	check "null engine: a refused run leaves no result" test ! -e "$T/null.json"
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

# --- a symlink flipped between a file and a mounted device while runs start: what is
# checked is what is opened, so the mounted file system is never written. strace widens
# the window after each stat() when it is there; the flips and the tries are bounded.
img2=$(mkfile 64M race-fs.img)
mkloop fsdev "$img2"
mkdir -p "$T/mnt2"
if mkfs.ext4 -q "$fsdev" 2>/dev/null && mount "$fsdev" "$T/mnt2"; then
	cleanup_add "umount $T/mnt2"
	head -c 4M /dev/urandom >"$T/mnt2/precious"
	sync
	sum0=$(md5sum <"$T/mnt2/precious")
	mkfile 64M race-file.img >/dev/null
	python3 - "$T/race-file.img" "$fsdev" "$T/race-link" "$T/race-stop" <<'PY' &
import os, random, sys, time
a, b, link, stop = sys.argv[1:]
end = time.monotonic() + 120
while not os.path.exists(stop) and time.monotonic() < end:
    for target in (a, b):
        os.symlink(target, link + ".new")
        os.replace(link + ".new", link)
        time.sleep(random.uniform(0, 0.002))  # no period for the runs to lock onto
PY
	flipper=$!
	cleanup_add "touch $T/race-stop; kill $flipper"
	widen=()
	# (LeakSanitizer cannot run under ptrace: the asan build leaves leak checks out here.)
	# Only the stats of the link, the file and the device are delayed (-P; by name or
	# through a descriptor open on them): the run's other 2,000-odd stats (sysfs, mounts)
	# are not part of the window and would make each run take seconds.
	command -v strace >/dev/null &&
		widen=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
			strace -f -qq -o /dev/null -P "$T/race-link" -P "$T/race-file.img" -P "$fsdev"
			-e trace=newfstatat,statx -e inject=newfstatat:delay_exit=2000)
	for ((i = 0; i < 50; i++)); do [ -L "$T/race-link" ] && break; sleep 0.1; done
	wrote=0 refusals=0 other=""
	for i in $(seq 30); do
		"${widen[@]}" "$DRIVEBENCH" run --target "$T/race-link" --rw randwrite --time 0.1s \
			--quiet --out "$T/race$i.json" 2>"$T/e"
		rc=$?
		case $rc in
		0) [ "$(json "$T/race$i.json" 'd["target"].get("resolved")')" = "$T/race-file.img" ] &&
			wrote=$((wrote + 1)) || other="$other wrote-elsewhere:$i" ;;
		3) refusals=$((refusals + 1)) ;;
		*) other="$other exit$rc:$i:$(head -c 200 "$T/e")" ;;
		esac
	done
	touch "$T/race-stop"
	wait $flipper 2>/dev/null
	echo 3 >/proc/sys/vm/drop_caches
	if [ -z "$other" ] && [ $wrote -gt 0 ] && [ $refusals -gt 0 ]; then
		pass "symlink race: 30 runs wrote the file ($wrote) or were refused ($refusals)"
	else
		fail "symlink race" "wrote $wrote, refused $refusals, other:$other"
	fi
	check "symlink race: the mounted file is unchanged" test "$(md5sum <"$T/mnt2/precious")" = "$sum0"
	check "symlink race: the file system is clean" bash -c "umount $T/mnt2 && e2fsck -fn $fsdev >/dev/null 2>&1"
else
	skip "symlink race" "could not make or mount a file system on a loop device"
fi

# --- an export's name, free when checked, made a symlink to a mounted file system's image
# before the export is renamed into place: never followed, refused. strace holds the rename
# into the name's directory 2 s; the link is made while it waits
img3=$(mkfile 16M export-fs.img)
mkloop expdev "$img3"
mkdir -p "$T/mnt3"
if ! command -v strace >/dev/null; then
	skip "export name race" "needs strace"
elif mkfs.ext4 -q "$expdev" 2>/dev/null && mount "$expdev" "$T/mnt3"; then
	cleanup_add "umount $T/mnt3"
	sync
	sum0=$(md5sum <"$img3")
	env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -o "$T/exp.trace" -P "$T" -e trace=renameat2 \
		-e inject=renameat2:delay_enter=2000000 \
		"$DRIVEBENCH" export-samples tests/fixtures/results/e100.json -o "$T/exp.csv" \
		2>"$T/exp.err" &
	pid=$!
	for _ in $(seq 100); do
		grep -q renameat2 "$T/exp.trace" 2>/dev/null && break
		sleep 0.1
	done
	ln -s "$img3" "$T/exp.csv"
	wait $pid
	rc=$?
	check "export name race: refused (exit 2), the link put there never followed" \
		test $rc -eq 2 -a -n "$(grep "exp.csv: refusing to write an output there" "$T/exp.err")"
	check "export name race: the image is unchanged" test "$(md5sum <"$img3")" = "$sum0"
else
	skip "export name race" "could not make or mount a file system on a loop device"
fi
ln -s "$T/nothing-here" "$T/dangling.csv"
"$DRIVEBENCH" export-samples tests/fixtures/results/e100.json -o "$T/dangling.csv" 2>"$T/e"
rc=$?
check "an export named by a symlink to no file: refused (exit 2), nothing made where it points" \
	test $rc -eq 2 -a ! -e "$T/nothing-here" -a -n "$(grep "a symbolic link to no file" "$T/e")"

# --- a loop device over a block device node that was deleted: the loop driver still knows
mkloop under "$(mkfile 32M under.img)"
# stat prints the major and minor in hex (a for 10): as numbers, not as printf's words
mknod "$T/node" b "$((0x$(stat -c '%t' "$under")))" "$((0x$(stat -c '%T' "$under")))"
check "held: the node is the target's device" \
	test "$(stat -c '%t:%T' "$T/node")" = "$(stat -c '%t:%T' "$under")"
if mkloop over "$T/node"; then
	rm -f "$T/node"
	refused "held: loop device over a deleted node of the target" $(write_args) \
		--target "$under" --yes-destroy="$under"
	check "held: the reason names the loop device above" grep -q "held by $(basename "$over")" "$T/e"
else
	skip "held: deleted node" "losetup over a device node failed"
fi

# --- a file that backs a loop device is that device's data ------------------------------
mkloop backed "$(mkfile 16M backed.img)"
refused "file backing a loop device" $(write_args) --target "$T/backed.img"
check "file backing a loop device: the reason names it" grep -q "backs $(basename "$backed")" "$T/e"

# --- a process writing through an io_uring needs no descriptor of what it writes: a
# partition registered with its ring (the descriptor closed), and a file opened straight
# into its ring's file table, are found in the ring's fdinfo; once it ends, both are free
helper=${BUILD:-build}/tests/helper_uring
# ring_holder VAR MODE PATH: a helper_uring holding PATH in its ring (once this returns)
ring_holder() {
	rm -f "$T/ring-ready"
	"$helper" "$2" "$3" "$T/ring-ready" 2>>"$T/ring.err" &
	cleanup_add "kill $!"
	printf -v "$1" '%s' "$!"
	for _ in $(seq 200); do [ -e "$T/ring-ready" ] && break; sleep 0.05; done
}
# the kernel shows registered files by path (before 2025, by their name alone)
ring_paths() { cat /proc/"$1"/fdinfo/* 2>/dev/null | grep -A1 '^UserFiles:' | grep -q '^ *0: /'; }
ring_free() { # ring_free NAME PID TARGET [confirm]: it ends, then TARGET is written
	kill "$2"
	wait "$2" 2>/dev/null
	"$DRIVEBENCH" $(write_args) --target "$3" ${4:+--yes-destroy="$3"} >/dev/null 2>"$T/e"
	check "$1" test $? -eq 0
}
mkloop ur "$(mkfile 32M ring.img)" -P
printf 'label: dos\n,8M,L\n,,L\n' | sfdisk -q "$ur" >/dev/null 2>&1
partx -a "$ur" 2>/dev/null || true
if [ ! -x "$helper" ]; then
	skip "io_uring" "no $helper (make tests)"
elif [ ! -b "${ur}p1" ]; then
	skip "io_uring" "could not partition a loop device"
else
	ring_holder p register "${ur}p1"
	if ! [ -e "$T/ring-ready" ]; then
		skip "io_uring" "the helper could not register a file: $(cat "$T/ring.err")"
	elif ! ring_paths "$p"; then
		skip "io_uring" "this kernel shows registered files by name, not path ($(uname -r))"
	else
		check "io_uring: the helper holds no descriptor of the partition" \
			test -z "$(find /proc/"$p"/fd -lname "${ur}p1" 2>/dev/null)"
		urn=$(basename "$ur")
		refused "io_uring: a partition registered in another process's ring" \
			$(write_args) --target "${ur}p1" --yes-destroy="${ur}p1"
		check "io_uring: the refusal names the ring's process" grep -qF \
			"it is in use (registered in an io_uring: ${urn}p1 by helper_uring (pid $p))" "$T/e"
		refused "io_uring: its whole disk" $(write_args) --target "$ur" --yes-destroy="$ur"
		"$DRIVEBENCH" $(write_args) --target "${ur}p2" --yes-destroy="${ur}p2" >/dev/null 2>"$T/e"
		check "io_uring: the sibling partition is written" test $? -eq 0
		"$DRIVEBENCH" list --json "${ur}p1" >"$T/ring.json" 2>"$T/e"
		check "io_uring: list says the disk is in use, and why" test "$(json "$T/ring.json" \
			'[r["text"] for x in d["drives"] for r in x["in_use"]["reasons"]]')" = \
			"['registered in an io_uring: ${urn}p1 by helper_uring (pid $p)']"
		ring_free "io_uring: free again once the ring's process ends" "$p" "${ur}p1" confirm
		"$DRIVEBENCH" list --json "${ur}p1" >"$T/ring.json" 2>"$T/e"
		check "io_uring: list says it is free again" \
			test "$(json "$T/ring.json" '[x["in_use"]["reasons"] for x in d["drives"]]')" = "[[]]"
		rf=$(mkfile 16M ring-file.img)
		ring_holder p direct "$rf"
		check "io_uring: the helper opened the file with no descriptor" \
			test -z "$(find /proc/"$p"/fd -lname "$rf" 2>/dev/null)"
		refused "io_uring: a file opened into another process's ring" $(write_args) --target "$rf"
		check "io_uring: the refusal names it" grep -qF \
			"it is in use (registered in an io_uring by helper_uring (pid $p))" "$T/e"
		ring_free "io_uring: the file is written once the ring's process ends" "$p" "$rf"
	fi
fi

# --- nothing that could block is opened: a FIFO is refused at once ------------------------
mkfifo "$T/fifo"
timeout 5 "$DRIVEBENCH" run --target "$T/fifo" --time 1s --quiet --out "$T/fifo.json" 2>"$T/e"
rc=$?
if [ $rc -eq 2 ] && grep -q "not a block device or a regular file" "$T/e"; then
	pass "FIFO target: exit 2 at once"
else
	fail "FIFO target" "exit $rc: $(cat "$T/e")"
fi

# --- a result that cannot be written is found before the run, not after it ---------------
mkfile 16M out-target.img >/dev/null
osum=$(md5sum <"$T/out-target.img")
touch "$T/plainfile"
mkdir -p "$T/ro"
outs=("$T/plainfile/x.json" "$T/no/such/dir/x.json")
if mount -t tmpfs -o ro,size=1m tmpfs "$T/ro"; then
	cleanup_add "umount $T/ro"
	outs+=("$T/ro/x.json")
fi
for out in "${outs[@]}"; do
	start=$(date +%s%N)
	"$DRIVEBENCH" run --target "$T/out-target.img" --rw randwrite --time 5s --quiet \
		--out "$out" 2>"$T/e"
	rc=$? ms=$((($(date +%s%N) - start) / 1000000))
	if [ $rc -eq 2 ] && [ $ms -lt 2500 ] && grep -qF "$out" "$T/e"; then
		pass "unwritable --out ${out#"$T"/}: exit 2 before the run (${ms} ms)"
	else
		fail "unwritable --out ${out#"$T"/}" "exit $rc after ${ms} ms: $(cat "$T/e")"
	fi
done
check "unwritable --out: the target was not written" test "$(md5sum <"$T/out-target.img")" = "$osum"

# --- back-to-back runs on one device: the claim is given back before each run ends -------
mkloop b2b "$(mkfile 32M b2b.img)"
ok=0
for i in 1 2 3 4 5 6; do
	"$DRIVEBENCH" run --target "$b2b" --yes-destroy="$b2b" --rw randwrite --time 0.3s \
		--quiet --out "$T/b2b$i.json" 2>>"$T/b2b.err" && ok=$((ok + 1))
done
if [ $ok -eq 6 ]; then pass "six back-to-back write runs on one device all run"; else
	fail "back-to-back runs" "$ok of 6 ran: $(sort -u "$T/b2b.err")"; fi

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

# --- what a device holds, said before it is destroyed ------------------------------------
mkloop sig "$(mkfile 64M sig.img)"
refused "signatures: an empty device, unconfirmed" $(write_args) --target "$sig"
check "signatures: an empty device holds nothing to name" test -z "$(grep "it holds" "$T/e")"
mkfs.ext4 -q -F -L "bench data" -U 0f6c0e2a-5d1c-4c4e-9a59-2f0c7f8e1d11 "$sig" 2>/dev/null
refused "signatures: an ext4 device, unconfirmed" $(write_args) --target "$sig"
check "signatures: the refusal says what it holds, as wipefs would" grep -qF \
	"(confirm with --yes-destroy=$sig); it holds ext4 file system 'bench data' (UUID 0f6c0e2a-5d1c-4c4e-9a59-2f0c7f8e1d11) at 0x438" "$T/e"
# a partition table and a swap area on the second partition's device, one more kind each
mkloop sig2 "$(mkfile 64M sig2.img)"
printf 'label: gpt\n,16M,L\n' | sfdisk -q "$sig2" >/dev/null 2>&1
refused "signatures: a partitioned device, unconfirmed" $(write_args) --target "$sig2"
check "signatures: a gpt partition table (and its protective dos)" \
	grep -qE "it holds (PMBR|dos) partition table at 0x1fe, gpt partition table at 0x200|it holds gpt partition table at 0x200" "$T/e"
mkloop sig3 "$(mkfile 16M sig3.img)"
mkswap -L $'sw\033[2J' "$sig3" >/dev/null 2>&1
refused "signatures: a swap area with a hostile label, unconfirmed" $(write_args) --target "$sig3"
check "signatures: the swap area named, its label made visible" \
	grep -qF "it holds swap area 'sw^[[2J'" "$T/e"

# --- a disk image: a regular file that holds a file system is confirmed as a device is ---
vm=$(mkfile 32M vm.img)
mkfs.ext4 -q -F -L "vm disk" "$vm" 2>/dev/null
vmsum=$(md5sum <"$vm")
rm -f "$T/w.json"
refused "disk image: an ext4 image file, unconfirmed" $(write_args) --target "$vm"
check "disk image: the refusal says it is one and what it holds" grep -qF \
	"refusing to write to $vm without confirmation: it is a disk image, and this destroys what it holds (confirm with --yes-destroy=$vm); it holds ext4 file system 'vm disk'" "$T/e"
check "disk image: unchanged, and no result left" \
	test "$(md5sum <"$vm")" = "$vmsum" -a ! -e "$T/w.json"
other=$(mkfile 8M other.img)
refused "disk image: a confirmation naming another file" $(write_args) --target "$vm" \
	--target "$other" --yes-destroy="$other"
"$DRIVEBENCH" run --rw randread --time 1s --quiet --out "$T/r.json" --target "$vm" >/dev/null 2>"$T/e"
check "disk image: reading it needs no confirmation" test $? -eq 0
ln "$vm" "$T/vm-link.img"
"$DRIVEBENCH" $(write_args) --target "$vm" --target "$other" --yes-destroy="$T/vm-link.img" \
	>/dev/null 2>"$T/e"
check "disk image: confirmed by another path to the file, with a plain file beside it" \
	test $? -eq 0 -a "$(md5sum <"$vm")" != "$vmsum"
head -c 8M /dev/urandom >"$other"
"$DRIVEBENCH" $(write_args) --target "$other" >/dev/null 2>"$T/e"
check "disk image: a file of anyone's bytes that holds nothing needs no confirmation" test $? -eq 0

# --- a file system mounted straight from a file, with no loop device (erofs over an image,
# CONFIG_EROFS_FS_BACKED_BY_FILE): mount(2) itself, since mount(8) would set up a loop ---
mount_file() { # mount_file IMAGE DIR FSTYPE: mount(2) with the image as the source
	python3 - "$@" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.mount(sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3].encode(), 1, None):
    sys.exit(os.strerror(ctypes.get_errno()))
PY
}
mkdir -p "$T/erofs-src" "$T/erofs-mnt"
head -c 64K /dev/urandom >"$T/erofs-src/data"
if command -v mkfs.erofs >/dev/null && mkfs.erofs --quiet "$T/e.img" "$T/erofs-src" >/dev/null 2>&1 &&
	mount_file "$T/e.img" "$T/erofs-mnt" erofs 2>/dev/null; then
	cleanup_add "umount $T/erofs-mnt"
	esum=$(md5sum <"$T/e.img")
	refused "file mount: the image an erofs is mounted from, confirmed" $(write_args) \
		--target "$T/e.img" --yes-destroy="$T/e.img"
	check "file mount: the reason says where it is mounted" grep -qF \
		"mounted: $T/e.img on $T/erofs-mnt (erofs over the file, no loop device)" "$T/e"
	mkloop eloop "$T/e.img"
	refused "file mount: a loop device over that image, confirmed" $(write_args) \
		--target "$eloop" --yes-destroy="$eloop"
	check "file mount: the reason names the chain" grep -qF \
		"$(basename "$eloop") is over $T/e.img, mounted: $T/e.img on $T/erofs-mnt" "$T/e"
	"$DRIVEBENCH" list "$eloop" >"$T/o" 2>&1
	check "file mount: list shows the loop device mounted" grep -qE \
		"^$(basename "$eloop") .*IN USE: mounted" "$T/o"
	check "file mount: the image is unchanged" test "$(md5sum <"$T/e.img")" = "$esum"
	check "file mount: the file system still reads" cmp -s "$T/erofs-src/data" "$T/erofs-mnt/data"
else
	skip "file mount" "no mkfs.erofs, or this kernel mounts no erofs from a file"
fi

# --- a writer's descriptor held by a thread only: one that unshared its table
# (unshare(CLONE_FILES), its descriptors in /proc/PID/task/TID/fd alone), and one whose
# process's main thread exited (pthread_exit(): the leader's fd directory is empty) ---
thread_holder() { # thread_holder VAR MODE PATH: a python3 whose thread holds PATH for writing
	local ready=$T/ready.$RANDOM pid i
	python3 - "$2" "$3" "$ready" <<'PY' &
import ctypes, os, sys, threading, time
libc = ctypes.CDLL(None, use_errno=True)
mode, path, ready = sys.argv[1:4]
def hold():
    if mode == "unshare" and libc.unshare(0x400):  # CLONE_FILES
        os._exit(1)
    os.open(path, os.O_RDWR)
    open(ready, "w").close()
    time.sleep(300)
t = threading.Thread(target=hold)
t.start()
if mode == "exit":
    while not os.path.exists(ready):
        time.sleep(0.01)
    libc.pthread_exit(None)
t.join()
PY
	pid=$!
	cleanup_add "kill $pid"
	for ((i = 0; i < 500; i++)); do
		if [ -e "$ready" ] && { [ "$2" != exit ] ||
			[ "$(awk '/^State:/ {print $2}' "/proc/$pid/status")" = Z ]; }; then
			break
		fi
		sleep 0.02
	done
	printf -v "$1" '%s' "$pid"
}
mkloop thr "$(mkfile 16M thread-dev.img)"
thread_holder tp unshare "$thr"
refused "thread: a device open for writing in a thread's own descriptor table" $(write_args) \
	--target "$thr" --yes-destroy="$thr"
check "thread: the refusal names the process" grep -qF \
	"it is in use (open for writing: $(basename "$thr") by python3 (pid $tp))" "$T/e"
"$DRIVEBENCH" list "$thr" >"$T/o" 2>&1
check "thread: list shows the device open for writing" grep -qE \
	"^$(basename "$thr") .*IN USE: open" "$T/o"
tfile=$(mkfile 16M thread-file.img)
thread_holder tq exit "$tfile"
check "thread: the process's main thread has exited" test -z "$(ls "/proc/$tq/fd" 2>/dev/null)"
refused "thread: a file open for writing by a process whose main thread exited" $(write_args) \
	--target "$tfile"
check "thread: that refusal names the process" grep -qF \
	"it is in use (open for writing by python3 (pid $tq))" "$T/e"

# --- a file system mounted during a run, through what the run does not hold --------------
# the run on loop A over an image holds A exclusively; a second loop B over the same
# image can still be made and mounted. The run is stopped once the mount appears, its
# result saved failed with why, and its writes end there.
gimg=$(mkfile 128M guard.img)
if mkfs.ext4 -q -F "$gimg" 2>/dev/null && mkloop ga "$gimg" && mkdir -p "$T/gmnt"; then
	"$DRIVEBENCH" run --target "$ga" --yes-destroy="$ga" --rw write --pattern sequential \
		--offset 64m --bs 64k --qdepth 4 --time 60s --quiet --out "$T/guard.json" \
		>/dev/null 2>"$T/guard.err" &
	gpid=$!
	until_ok 30 test -s "$T/guard.json"
	sleep 0.5
	mkloop gb "$gimg"
	if mount "$gb" "$T/gmnt" 2>/dev/null; then
		cleanup_add "umount $T/gmnt"
		t0=$SECONDS
		for _ in $(seq 300); do kill -0 $gpid 2>/dev/null || break; sleep 0.1; done
		took=$((SECONDS - t0))
		kill $gpid 2>/dev/null
		wait $gpid
		rc=$?
		check "guard: a mount during a 60 s run stops it (${took} s later), exit 1" \
			test $rc -eq 1 -a $took -lt 30
		check "guard: the run says why" grep -q \
			"$ga came into use during the run (.*mounted.*): stopped" "$T/guard.err"
		check "guard: the result is saved failed, with why" \
			test "$(json "$T/guard.json" 'd["status"] + " " + str("came into use" in d["error"])')" = "failed True"
		umount "$T/gmnt"
	else
		kill $gpid
		wait $gpid
		skip "guard" "the second loop's file system did not mount"
	fi
else
	skip "guard" "no ext4 image or loop device"
fi

#!/usr/bin/env bash
# The storage graph against real storage stacks: loop devices over files, over other loop
# devices and over partitions, ext4 mounted on some of them, swap on one, device mapper
# where dmsetup is installed. For each stack a write is attempted through `run` and
# `replay`; a stack that shares storage with something in use is refused (exit 3, the
# chain named), one that does not is written, and every mounted file system is checked
# afterwards: its precious file unchanged, e2fsck clean. Then outputs: --out, -o never
# name a target, what a target reaches, a loop's backing file or a device node.
# Every device here is made by this test over its own temp files and removed at exit.
. "$(dirname "$0")/lib.sh"

if ! is_root || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	skip "stacks" "needs root, losetup and mkfs.ext4"
	exit 0
fi

# A result to replay: a short write run on a file of this test's own.
seed=$(mkfile 16M seed.img)
if ! "$DRIVEBENCH" run --target "$seed" --rw randwrite --bs 4k --time 1s --quiet \
	--out "$T/seed.json" 2>"$T/e"; then
	fail "stacks: a seed result" "$(cat "$T/e")"
	exit 0
fi

have_tmux=0
if command -v tmux >/dev/null; then
	have_tmux=1
	. tests/tmux.sh
else
	skip "stacks: the TUI's queue" "tmux is not installed (scripts/deps.sh check)"
fi

n=0
# fsmount VAR DEV: ext4 on DEV mounted on a new directory with a precious file on it
fsmount() {
	local dir=$T/mnt$((n += 1))
	mkfs.ext4 -q -F "$2" >/dev/null 2>&1 || return 1
	mkdir -p "$dir" && mount "$2" "$dir" || return 1
	cleanup_add "umount -l $dir"
	head -c 1M /dev/urandom >"$dir/precious" && sync
	md5sum <"$dir/precious" >"$dir.sum"
	printf -v "$1" '%s' "$dir"
}
# intact NAME DIR DEV: the precious file is unchanged and the file system is clean
intact() {
	echo 3 >/proc/sys/vm/drop_caches
	check "$1: the mounted file is unchanged" cmp -s "$2.sum" <(md5sum <"$2/precious")
	if umount "$2"; then
		check "$1: the file system is clean" e2fsck -fn "$3" >/dev/null 2>&1
		mount "$3" "$2"
	else
		fail "$1: the file system is clean" "could not unmount $2"
	fi
}
write_run() { # TARGET: a one-second write through run
	"$DRIVEBENCH" run --target "$1" --rw randwrite --bs 4k --qdepth 4 --time 1s --quiet \
		--yes-destroy="$1" --out "$T/w$((n += 1)).json" >"$T/o" 2>"$T/e"
}
write_replay() { # TARGET: the seed result replayed on it
	"$DRIVEBENCH" replay "$T/seed.json" --target "$1" --yes-destroy="$1" \
		--out "$T/w$((n += 1)).json" >"$T/o" 2>"$T/e"
}
# The TUI's queue on TARGET: the quick preset (it writes), started, the name typed when
# asked (a rescan may have refused it at once); the screen must say it was refused.
tui_refused() { # NAME TARGET
	local s=q$n name
	name=$(basename "$2")
	start $s 120 40 C.UTF-8 xterm-256color --target "$2"
	wait_for $s "▶ $name " 5
	keys $s 2 Enter
	# s again if a rescan (the devices this test just made) swallowed the first one
	for _ in 1 2 3; do
		keys $s s
		wait_for $s "type $name and Enter|refused: $name is in use" 3 && break
	done
	if cap $s | grep -q "type $name and Enter"; then
		tm send-keys -t $s -l "$name"
		keys $s Enter
	fi
	expect $s "$1: the TUI's queue refused" \
		"(refusing to write to $2: it is in use|refused: $name is in use) \\($3"
	tm kill-session -t $s 2>/dev/null
}
# refused NAME TARGET WORDS [TUI-WORDS]: run and replay exit 3, the message names WORDS
# (grep -E); the TUI's queue refuses too, its status line starting with TUI-WORDS
refused() {
	local how
	for how in run replay; do
		write_$how "$2"
		local rc=$?
		if [ $rc -eq 3 ] && grep -qE -- "$3" "$T/e"; then
			pass "$1: $how refused"
		else
			fail "$1: $how refused" "exit $rc, want 3 and /$3/: $(cat "$T/e")"
		fi
	done
	[ -n "${4:-}" ] && [ $have_tmux = 1 ] && tui_refused "$1" "$2" "$4"
}
allowed() { # NAME TARGET: run writes it
	if write_run "$2"; then pass "$1: run writes"; else fail "$1: run writes" "$(cat "$T/e")"; fi
}
lname() { basename "$1"; }

# 1, 2: two loop devices over one image, either mounted
img=$(mkfile 64M shared.img)
mkloop la "$img" && mkloop lb "$img"
if fsmount m "$la"; then
	refused "two loops over one image, the first mounted" "$lb" \
		"$(lname "$lb") is over $img, which backs $(lname "$la") \(a loop device\), mounted: $(lname "$la") on $m" \
		"$(lname "$lb") is over $img"
	"$DRIVEBENCH" list --all >"$T/list" 2>&1
	check "two loops over one image: list says the other is in use, with the chain" \
		grep -qE "$(lname "$lb"): $(lname "$lb") is over $img, which backs $(lname "$la").*mounted" "$T/list"
	intact "two loops over one image" "$m" "$la"
	umount "$m"
	mount "$lb" "$m"
	refused "two loops over one image, the second mounted" "$la" \
		"which backs $(lname "$lb") \(a loop device\), mounted: $(lname "$lb") on $m"
	intact "two loops over one image (second)" "$m" "$lb"
	umount "$m"
	refused "two loops over one image, neither mounted" "$lb" "which backs $(lname "$la")"
else
	skip "two loops over one image" "could not make and mount ext4 on a loop device"
fi

# 3: a loop device over a mounted loop device
mkloop lc "$(mkfile 64M lower.img)"
if fsmount m "$lc" && mkloop ld "$lc"; then
	refused "a loop over a mounted loop" "$ld" \
		"$(lname "$ld") is over $(lname "$lc"), mounted: $(lname "$lc") on $m" \
		"$(lname "$ld") is over $(lname "$lc"), mounted"
	intact "a loop over a mounted loop" "$m" "$lc"
fi

# 4: a loop over a loop over a file on a mounted ext4: the file is the write's, nobody
# else's: written, and the file system around it stays clean
mkloop le "$(mkfile 96M host.img)"
if fsmount m "$le" && truncate -s 16M "$m/inner.img" && mkloop lf "$m/inner.img" &&
	mkloop lg "$lf"; then
	allowed "a loop over a loop over a file on a mounted ext4" "$lg"
	losetup -d "$lg" && losetup -d "$lf"
	intact "a loop over a loop over a file on a mounted ext4" "$m" "$le"
fi

# 5, 6: a loop over a partition of a partitioned loop device
if command -v sfdisk >/dev/null && mkloop lp "$(mkfile 96M parted.img)" -P &&
	printf 'label: dos\n,32M,L\n,,L\n' | sfdisk -q "$lp" >/dev/null 2>&1; then
	partx -a "$lp" 2>/dev/null || true
	if [ -b "${lp}p2" ] && fsmount m "${lp}p1"; then
		allowed "the partition itself, the sibling mounted" "${lp}p2"
		mkloop lq "${lp}p2"
		allowed "a loop over a partition, the sibling mounted" "$lq"
		refused "a partition a loop device is over" "${lp}p2" \
			"held by $(lname "$lq") \(a loop device over $(lname "$lp")p2\)"
		refused "the whole disk, a partition mounted" "$lp" "mounted: $(lname "$lp")p1 on $m"
		intact "a loop over a partition, the sibling mounted" "$m" "${lp}p1"
		umount "$m"
		mkfs.ext4 -q -F "${lp}p2" >/dev/null 2>&1
		mount "${lp}p2" "$m"
		refused "a loop over a partition, itself mounted" "$lq" \
			"$(lname "$lq") is over $(lname "$lp")p2, mounted: $(lname "$lp")p2 on $m" \
			"$(lname "$lq") is over $(lname "$lp")p2, mounted"
		umount "$m"
		# 7: a loop with an offset into the image of a disk whose partition is mounted
		mount "${lp}p1" "$m"
		mkloop lo "$T/parted.img" --offset $((64 * 1024 * 1024))
		refused "a loop at an offset into a disk image with a mounted partition" "$lo" \
			"backs $(lname "$lp") \(a loop device\), mounted: $(lname "$lp")p1"
		intact "a loop at an offset into a disk image" "$m" "${lp}p1"
	else
		skip "loop over a partition" "could not partition a loop device"
	fi
else
	skip "loop over a partition" "no sfdisk or no partitioned loop device"
fi

# 8: a file target whose file backs a mounted loop device
fimg=$(mkfile 64M backing.img)
if mkloop lh "$fimg" && fsmount m "$lh"; then
	refused "a file that backs a mounted loop" "$fimg" \
		"backs $(lname "$lh") \(a loop device\), mounted: $(lname "$lh") on $m" \
		"backs $(lname "$lh") \\(a loop device\\), mounted"
	intact "a file that backs a mounted loop" "$m" "$lh"
fi

# 9: swap on a loop device under another loop device
if mkloop ls "$(mkfile 32M swap.img)" && mkswap -q "$ls" >/dev/null 2>&1 &&
	swapon "$ls" 2>/dev/null; then
	cleanup_add "swapoff $ls"
	mkloop lt "$ls"
	refused "a loop over a swap device" "$lt" "$(lname "$lt") is over $(lname "$ls"), swap: $(lname "$ls")" \
		"$(lname "$lt") is over $(lname "$ls"), swap"
	swapoff "$ls"
else
	skip "a loop over a swap device" "swapon refused a loop device here"
fi

# 10: a plain stack nothing uses is written: a loop over a loop over a file
mkloop lu "$(mkfile 32M free.img)" && mkloop lv "$lu"
allowed "a loop over a loop, nothing mounted" "$lv"

# 11, 12: device mapper over a loop device, mounted; a second loop over the same image
if command -v dmsetup >/dev/null && mkloop lw "$(mkfile 64M dm.img)"; then
	dmn=dbstack$$
	if dmsetup create "$dmn" --table "0 $(blockdev --getsz "$lw") linear $lw 0" 2>/dev/null; then
		cleanup_add "dmsetup remove $dmn"
		dmdev=$(readlink -f /dev/mapper/$dmn)
		if fsmount m "$dmdev"; then
			refused "a loop device under a mounted dm device" "$lw" \
				"held by $(lname "$dmdev") \($dmn\), mounted: $(lname "$dmdev") on $m"
			mkloop lx "$T/dm.img"
			refused "a second loop over the image under a mounted dm device" "$lx" \
				"which backs $(lname "$lw") \(a loop device\), held by $(lname "$dmdev") \($dmn\), mounted"
			intact "dm over a loop" "$m" "$dmdev"
		fi
	else
		skip "dm over a loop" "dmsetup could not create a device"
	fi
else
	skip "dm over a loop" "dmsetup is not installed"
fi

# 13-15: file systems on several devices. A btrfs over two loop devices shows an anonymous
# number in mountinfo and names one of them: both are mounted, and so is a second loop
# over the other's image. An xfs's external log device is mounted as its data device is.
if command -v mkfs.btrfs >/dev/null && grep -qw btrfs /proc/filesystems &&
	mkloop ba "$(mkfile 320M btrfs-a.img)" && mkloop bb "$(mkfile 320M btrfs-b.img)" &&
	mkfs.btrfs -q -f -L dbtest -d raid1 -m raid1 "$ba" "$bb" >/dev/null 2>&1 &&
	mkdir -p "$T/bmnt" && mount "$ba" "$T/bmnt"; then
	cleanup_add "umount -l $T/bmnt"
	head -c 1M /dev/urandom >"$T/bmnt/precious" && sync
	md5sum <"$T/bmnt/precious" >"$T/bmnt.sum"
	"$DRIVEBENCH" list --all >"$T/list" 2>&1
	check "btrfs on two loops: list says the unnamed member is mounted" \
		grep -qF "$(lname "$bb"): mounted: $(lname "$bb") on $T/bmnt (one of 2 devices of btrfs 'dbtest')" "$T/list"
	refused "the btrfs member mountinfo does not name" "$bb" \
		"mounted: $(lname "$bb") on $T/bmnt \(one of 2 devices of btrfs 'dbtest'\)" \
		"mounted: $(lname "$bb") on $T/bmnt"
	refused "the btrfs member mountinfo names" "$ba" "mounted: $(lname "$ba") on $T/bmnt \(one"
	mkloop bc "$T/btrfs-b.img"
	refused "a second loop over a btrfs member's image" "$bc" \
		"which backs $(lname "$bb") \(a loop device\), mounted: $(lname "$bb") on $T/bmnt"
	losetup -d "$bc"
	echo 3 >/proc/sys/vm/drop_caches
	check "btrfs on two loops: the mounted file is unchanged" cmp -s "$T/bmnt.sum" <(md5sum <"$T/bmnt/precious")
	if umount "$T/bmnt"; then
		check "btrfs on two loops: the file system is clean" btrfs check --readonly "$ba" >/dev/null 2>&1
		allowed "a btrfs member once unmounted" "$bb"
	fi
else
	skip "btrfs on two loops" "no mkfs.btrfs (scripts/deps.sh check) or no btrfs in this kernel"
fi
if command -v mkfs.xfs >/dev/null && grep -qw xfs /proc/filesystems &&
	mkloop xd "$(mkfile 320M xfs-data.img)" && mkloop xl "$(mkfile 80M xfs-log.img)" &&
	mkfs.xfs -q -f -l logdev="$xl",size=64m "$xd" >/dev/null 2>&1 &&
	mkdir -p "$T/xmnt" && mount -o logdev="$xl" "$xd" "$T/xmnt"; then
	cleanup_add "umount -l $T/xmnt"
	refused "an xfs external log device" "$xl" \
		"mounted: $(lname "$xl") on $T/xmnt \(the xfs file system's external log\)" \
		"mounted: $(lname "$xl") on $T/xmnt"
	umount "$T/xmnt"
else
	skip "an xfs external log" "no mkfs.xfs or no xfs in this kernel"
fi

# 16: a file system mounted only in another mount namespace (a container's, a service's
# with private mounts): mounted there, as the namespace's process says
if command -v unshare >/dev/null && mkloop nsd "$(mkfile 64M ns.img)" &&
	mkfs.ext4 -q -F "$nsd" >/dev/null 2>&1 && mkdir -p "$T/nsmnt"; then
	unshare -m --propagation private sh -c \
		"mount '$nsd' '$T/nsmnt' && touch '$T/nsready' && exec sleep 600" &
	nsp=$!
	cleanup_add "kill $nsp"
	for _ in $(seq 600); do [ -e "$T/nsready" ] && break; sleep 0.05; done
	"$DRIVEBENCH" list --all >"$T/list" 2>&1
	check "another mount namespace: list says where it is mounted" \
		grep -qF "$(lname "$nsd"): mounted: $(lname "$nsd") on $T/nsmnt in the mount namespace of sleep (pid $nsp)" "$T/list"
	refused "a file system mounted in another mount namespace" "$nsd" \
		"mounted: $(lname "$nsd") on $T/nsmnt in the mount namespace of sleep \(pid $nsp\)"
	kill $nsp
	wait $nsp 2>/dev/null
	allowed "the namespace gone, its mount with it" "$nsd"
else
	skip "another mount namespace" "no unshare, or no ext4 on a loop device"
fi

# 17, 18: an ext4 unmounted lazily while a file on it is open lives on, in no mount
# table; an ext4's external journal device is as mounted as its data device
if mkloop lz "$(mkfile 64M lazy.img)" && fsmount m "$lz"; then
	sleep 600 3>"$m/held" &
	lzp=$!
	cleanup_add "kill $lzp"
	# the file open before the unmount, which a later open would not find
	for _ in $(seq 200); do [ -L /proc/$lzp/fd/3 ] && break; sleep 0.05; done
	umount -l "$m"
	refused "an ext4 unmounted lazily, a file on it still open" "$lz" \
		"mounted: $(lname "$lz") \(ext4\), though no mount table here shows where"
	kill $lzp
	wait $lzp 2>/dev/null
	allowed "the lazily unmounted ext4 once its last file is closed" "$lz"
fi
if mkloop jj "$(mkfile 16M journal.img)" && mkloop jd "$(mkfile 64M journaled.img)" &&
	mkfs.ext4 -q -F -O journal_dev "$jj" >/dev/null 2>&1 &&
	mkfs.ext4 -q -F -J device="$jj" "$jd" >/dev/null 2>&1 && mkdir -p "$T/jmnt" &&
	mount "$jd" "$T/jmnt"; then
	cleanup_add "umount -l $T/jmnt"
	refused "an ext4's external journal" "$jj" \
		"mounted: $(lname "$jj") on $T/jmnt \(the external journal of the ext4 on $(lname "$jd")\)"
	umount "$T/jmnt"
else
	skip "an ext4's external journal" "mkfs.ext4 could not make one on loop devices"
fi

# 18b: a file on an overlay (a container's root, an image build's layers) keeps its data
# in a file of the upper directory (a lower one's until it is copied up): a loop device
# over the overlay's path writes that file, and the other way round
mkdir -p "$T/ovl/lower" "$T/ovl/upper" "$T/ovl/work" "$T/ovl/m"
truncate -s 64M "$T/ovl/lower/base.img" "$T/ovl/lower/ro.img"
if mount -t overlay overlay -o "lowerdir=$T/ovl/lower,upperdir=$T/ovl/upper,workdir=$T/ovl/work" \
	"$T/ovl/m" 2>/dev/null; then
	cleanup_add "umount -l $T/ovl/m"
	# copied up as the loop device opens it for writing
	if mkloop lo1 "$T/ovl/m/base.img" && fsmount m "$lo1"; then
		refused "the upper file of an overlay's file a mounted loop device is over" \
			"$T/ovl/upper/base.img" \
			"backs $(lname "$lo1") \(a loop device\), mounted: $(lname "$lo1") on $m"
		intact "the upper file of an overlay's file under a mounted loop device" "$m" "$lo1"
	fi
	truncate -s 64M "$T/ovl/upper/up.img"
	if mkloop lo2 "$T/ovl/upper/up.img" && fsmount m "$lo2"; then
		refused "an overlay's file whose upper file a mounted loop device is over" \
			"$T/ovl/m/up.img" \
			"backs $(lname "$lo2") \(a loop device\), mounted: $(lname "$lo2") on $m"
	fi
	# read-only, it is not copied up: the lower file is what it reads
	if mkloop lo3 "$T/ovl/m/ro.img" -r; then
		check "a read-only loop device over an overlay's file leaves it in the lower directory" \
			test ! -e "$T/ovl/upper/ro.img"
		refused "the lower file under a read-only loop device over an overlay" \
			"$T/ovl/lower/ro.img" "backs $(lname "$lo3") \(a loop device\)"
	fi
	truncate -s 64M "$T/ovl/m/w.img"
	sleep 600 3<>"$T/ovl/m/w.img" &
	ow=$!
	cleanup_add "kill $ow"
	for _ in $(seq 200); do [ -L /proc/$ow/fd/3 ] && break; sleep 0.05; done
	refused "the upper file of an overlay's file another process writes" "$T/ovl/upper/w.img" \
		"open for writing by sleep \(pid $ow\)"
	kill $ow
	truncate -s 16M "$T/ovl/upper/plain.img"
	"$DRIVEBENCH" run --target "$T/ovl/upper/plain.img" --rw randwrite --time 1s --quiet \
		--out "$T/ovl/m/plain.img" >/dev/null 2>"$T/e"
	rc=$?
	check "an output named by the overlay's path of the target's file is refused" \
		test $rc -eq 2 -a -n "$(grep -F "refusing to write an output there: it is the target" "$T/e")"
else
	skip "an overlay" "mount -t overlay failed"
fi

# lower_read NAME WHAT MERGED LOWER: under a read-only loop device over the overlay's file
# MERGED, whose data is in LOWER, a write to LOWER is refused, and LOWER is unchanged
lower_read() {
	local l sum
	sum=$(md5sum <"$4")
	mkloop l "$3" -r || return 0
	refused "the lower file $2 under a read-only loop device" "$4" \
		"backs $(lname "$l") \(a loop device\)"
	check "$1: the lower file is unchanged" test "$sum" = "$(md5sum <"$4")"
}

# 18c: with metacopy=on (containers/storage's default on Fedora), a chmod copies up the
# metadata alone: the data stays in the lower file, which a read-only loop device over
# the overlay's file then reads, and writing that lower file changes what it reads
mkdir -p "$T/ovlm/lower" "$T/ovlm/upper" "$T/ovlm/work" "$T/ovlm/m"
head -c 1M /dev/urandom >"$T/ovlm/lower/meta.img"
truncate -s 64M "$T/ovlm/lower/meta.img"
if mount -t overlay overlay -o \
	"lowerdir=$T/ovlm/lower,upperdir=$T/ovlm/upper,workdir=$T/ovlm/work,metacopy=on" \
	"$T/ovlm/m" 2>/dev/null; then
	cleanup_add "umount -l $T/ovlm/m"
	chmod 600 "$T/ovlm/m/meta.img"
	check "metacopy: a chmod copies up no data" \
		test "$(stat -c %b "$T/ovlm/upper/meta.img")" -lt 64
	lower_read metacopy "holding the data of a metacopy file" "$T/ovlm/m/meta.img" \
		"$T/ovlm/lower/meta.img"
else
	skip "an overlay with metacopy=on" "mount -t overlay -o metacopy=on failed"
fi

# 18d: with redirect_dir=on, a directory renamed on the overlay is a new upper directory
# that points to its old place below: its files stay in the lower directory by the old
# name, which a read-only loop device over the overlay's file by the new one then reads
mkdir -p "$T/ovld/lower/d" "$T/ovld/upper" "$T/ovld/work" "$T/ovld/m"
head -c 1M /dev/urandom >"$T/ovld/lower/d/img"
truncate -s 64M "$T/ovld/lower/d/img"
if mount -t overlay overlay -o \
	"lowerdir=$T/ovld/lower,upperdir=$T/ovld/upper,workdir=$T/ovld/work,redirect_dir=on" \
	"$T/ovld/m" 2>/dev/null && mv "$T/ovld/m/d" "$T/ovld/m/e" 2>/dev/null; then
	cleanup_add "umount -l $T/ovld/m"
	check "redirect_dir: the renamed directory's file is not copied up" \
		test ! -e "$T/ovld/upper/e/img" -a -d "$T/ovld/upper/e"
	lower_read redirect_dir "of a directory renamed on the overlay" "$T/ovld/m/e/img" \
		"$T/ovld/lower/d/img"
else
	mountpoint -q "$T/ovld/m" && umount -l "$T/ovld/m"
	skip "an overlay with redirect_dir=on" "mount -t overlay -o redirect_dir=on, or a rename there, failed"
fi

# 19: a file open for writing on a FUSE file system whose daemon stops answering, as on a
# dead NFS server's mount: the snapshot knows it from the mount table and fdinfo, and
# never waits on a stat() there
if [ -c /dev/fuse ] && /usr/bin/python3 -c 'import fusepy' 2>/dev/null && mkdir -p "$T/hung"; then
	/usr/bin/python3 tests/fuse_hang.py "$T/hung" "$T/hang-now" 2>"$T/fuse.err" &
	fsp=$!
	cleanup_add "kill $fsp; umount -l $T/hung"
	for _ in $(seq 200); do grep -q " $T/hung " /proc/self/mountinfo && break; sleep 0.05; done
	sleep 600 3>"$T/hung/held" &
	hp=$!
	cleanup_add "kill $hp"
	# two loop devices over an image there (an ISO on NFS mounted with -o loop): one set
	# to autoclear as mount(8) sets it, held open for writing; the driver's own
	# LOOP_GET_STATUS64 asks the file system for the inode, so neither may be asked
	: >"$T/hung/img"
	hla=$(losetup --find --show "$T/hung/img" 2>/dev/null) && cleanup_add "losetup -d $hla"
	hlb=$(losetup --find --show "$T/hung/img" 2>/dev/null) && cleanup_add "losetup -d $hlb"
	if [ -n "$hla" ] && [ -n "$hlb" ]; then
		sleep 600 3<>"$hla" &
		cleanup_add "kill $!"
		/usr/bin/python3 -c 'import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
info = bytearray(232)                     # struct loop_info64; lo_flags at 52
fcntl.ioctl(fd, 0x4C05, info)             # LOOP_GET_STATUS64
struct.pack_into("I", info, 52, struct.unpack_from("I", info, 52)[0] | 4)  # AUTOCLEAR
fcntl.ioctl(fd, 0x4C04, bytes(info))      # LOOP_SET_STATUS64' "$hla"
	fi
	# the same file system again at another place (a bind mount, as a container's volume
	# is the host's mount of it): a third image there, a loop device over it by one path
	# and a writer of it by the other
	mkdir -p "$T/hung-alias"
	if mount --bind "$T/hung" "$T/hung-alias" 2>/dev/null; then
		cleanup_add "umount -l $T/hung-alias"
		: >"$T/hung/img3"
		hlc=$(losetup --find --show "$T/hung/img3" 2>/dev/null) && cleanup_add "losetup -d $hlc"
		sleep 600 3<>"$T/hung-alias/img3" &
		hw=$!
		cleanup_add "kill $hw"
		if [ -n "$hla" ]; then
			timeout -s KILL 60 "$DRIVEBENCH" run --target "$T/hung-alias/img" --rw randwrite \
				--time 1s --quiet --out "$T/hung-alias.json" >/dev/null 2>"$T/e"
			rc=$?
			check "the image under a loop device, by its path through a bind mount, is refused" \
				test $rc -eq 3 -a -n "$(grep "backs $(lname "$hla") (a loop device)" "$T/e")"
		fi
	else
		skip "a bind mount of a FUSE file system" "mount --bind failed"
	fi
	# an image there with something to read, under a loop device nothing uses: the
	# TUI's confirmation reads what it holds
	truncate -s 16M "$T/hung/img4" &&
		hld=$(losetup --find --show "$T/hung/img4" 2>/dev/null) && cleanup_add "losetup -d $hld"
	udevadm settle 2>/dev/null
	cleanup_add "rm -f $T/hang-now"
	# the file open first (its link is read without asking the file system), then the hang
	for _ in $(seq 200); do [ -L /proc/$hp/fd/3 ] && break; sleep 0.05; done
	touch "$T/hang-now"
	# what udev's probe read is cached: a read now goes to the file system
	[ -n "${hld:-}" ] && blockdev --flushbufs "$hld" && echo 1 >/proc/sys/vm/drop_caches
	timeout -s KILL 30 "$DRIVEBENCH" list --all >"$T/list" 2>&1
	check "a file open on a FUSE file system that stopped answering: list does not wait" \
		test $? -eq 0
	if [ "$(cat "/sys/block/$(lname "$hla")/loop/autoclear" 2>/dev/null)" = 1 ]; then
		check "loops over an image on a FUSE file system that stopped answering: list says" \
			grep -qE "^$(lname "$hlb") .*IN USE" "$T/list"
		timeout -s KILL 60 "$DRIVEBENCH" run --target "$hlb" --rw randwrite --time 1s \
			--quiet --out "$T/hung-loop.json" >/dev/null 2>"$T/e"
		rc=$?
		check "a second loop over an image on a FUSE file system that stopped answering is refused" \
			test $rc -eq 3
		check "... the chain named, by the image's path" grep -qE \
			"$(lname "$hlb") is over $T/hung/img, which backs $(lname "$hla") \(a loop device\), open for writing: $(lname "$hla") by sleep" \
			"$T/e"
	else
		skip "loops over an image on a FUSE file system" "no loop device over a FUSE file here"
	fi
	if [ -n "${hlc:-}" ]; then
		for _ in $(seq 200); do [ -L /proc/$hw/fd/3 ] && break; sleep 0.05; done
		timeout -s KILL 60 "$DRIVEBENCH" run --target "$hlc" --rw randwrite --time 1s \
			--yes-destroy="$hlc" --quiet --out "$T/hung-alias-loop.json" >/dev/null 2>"$T/e"
		rc=$?
		check "a loop over an image on a hung FUSE file system that a process writes by another mount's path is refused" \
			test $rc -eq 3 -a -n "$(grep -F "$(lname "$hlc") is over $T/hung/img3, open for writing by sleep (pid $hw)" "$T/e")"
	fi
	if [ -n "${hld:-}" ] && [ $have_tmux = 1 ]; then
		start hungtui 120 40 C.UTF-8 xterm-256color --target "$hld"
		if wait_for hungtui "▶ $(lname "$hld") " 10; then
			keys hungtui 2 Enter
			for _ in 1 2 3; do
				keys hungtui s
				wait_for hungtui "type $(lname "$hld") and Enter" 5 && break
			done
			expect hungtui "a loop over an image on a hung FUSE file system: the TUI asks its name without waiting for a read" \
				"what it holds is not known"
		else
			fail "a loop over an image on a hung FUSE file system: the TUI starts" "$(cap hungtui)"
		fi
		tm kill-session -t hungtui 2>/dev/null
	fi
	if [ -n "${hld:-}" ]; then
		# read through a pipe, as a script would: the pipe must end with drivebench
		(timeout -s KILL 30 "$DRIVEBENCH" run --target "$hld" --rw randwrite --time 1s \
			--quiet --out "$T/hung-unconfirmed.json" 2>&1 >/dev/null
		echo "exit $?") | cat >"$T/e" &
		pp=$!
		for _ in $(seq 400); do kill -0 $pp 2>/dev/null || break; sleep 0.1; done
		check "an unconfirmed run on a loop over an image on a hung FUSE file system is refused without waiting for a read" \
			grep -q "without confirmation.*what it holds is not known" "$T/e"
		check "... exit 3, and a pipe reading it ends" \
			test ! -e /proc/$pp -a "$(tail -n 1 "$T/e")" = "exit 3"
	fi
	hf2=$(mkfile 16M beside-hung.img)
	timeout -s KILL 60 "$DRIVEBENCH" run --target "$hf2" --rw randwrite --time 1s --quiet \
		--out "$T/beside-hung.json" >/dev/null 2>"$T/e"
	check "a file open on a FUSE file system that stopped answering: a run does not wait" \
		test $? -eq 0
	# a target or an output there: the door asks apart and does not wait (names never
	# looked up, so that no cached entry answers for the file system)
	(timeout -s KILL 30 "$DRIVEBENCH" run --target "$T/hung/never.img" --rw randread \
		--time 1s --quiet --out "$T/hung-target.json" 2>&1 >/dev/null
	echo "exit $?") | cat >"$T/e"
	check "a target on a FUSE file system that stopped answering is refused without waiting (exit 2)" \
		test "$(tail -n 1 "$T/e")" = "exit 2" -a \
		-n "$(grep "never.img: the target did not answer within 2 s" "$T/e")"
	(timeout -s KILL 30 "$DRIVEBENCH" run --target "$hf2" --rw randread --time 1s --quiet \
		--out "$T/hung/never/out.json" 2>&1 >/dev/null
	echo "exit $?") | cat >"$T/e"
	check "an output on a FUSE file system that stopped answering is refused without waiting (exit 2)" \
		test "$(tail -n 1 "$T/e")" = "exit 2" -a \
		-n "$(grep "never: the output's directory did not answer within 2 s" "$T/e")"
	rm -f "$T/hang-now"
	# hang_after FILE: the file system stops answering 1 s after FILE (a run's result,
	# written at its start) is there
	hang_after() {
		for _ in $(seq 100); do [ -s "$1" ] && break; sleep 0.1; done
		sleep 1
		touch "$T/hang-now"
	}
	# a run whose file stops answering mid-step (a dead NFS server, a hung daemon): the
	# step fails for no progress ($DRIVEBENCH_NO_PROGRESS shortens the minute), and the
	# run is saved and said while its thread is still held in the kernel
	truncate -s 64M "$T/hung/mid.img"
	DRIVEBENCH_NO_PROGRESS=2s timeout -s KILL 120 "$DRIVEBENCH" run --target "$T/hung/mid.img" \
		--rw randread --time 1h --interval 100ms --quiet --out "$T/mid.json" >/dev/null 2>"$T/me" &
	mp=$!
	hang_after "$T/mid.json"
	for _ in $(seq 300); do grep -q '"status": "failed"' "$T/mid.json" && break; sleep 0.1; done
	check "a run whose file stops answering mid-step is saved as failed while it still hangs" \
		grep -q '"status": "failed"' "$T/mid.json"
	check "... it says why" grep -q \
		"no progress: worker thread 1 completed no I/O for 2 s.*; 1 thread is left waiting in the kernel" "$T/me"
	check "... with what it measured before" /usr/bin/python3 -c 'import json, sys
st = json.load(open(sys.argv[1]))["phases"][0]["steps"][0]
sys.exit(not (st["samples"] and st["summary"]["all"]["ios"] > 0))' "$T/mid.json"
	rm -f "$T/hang-now"
	wait $mp
	check "... and exits 1 once the file system answers" test $? -eq 1
	# a run whose result's directory stops answering mid-run (a results directory on NFS,
	# its server gone): the saves wait on a thread of their own, the run goes on, and its
	# end gives up on that directory after the no-progress limit and saves elsewhere
	sv=$(mkfile 64M saver.img)
	DRIVEBENCH_NO_PROGRESS=2s timeout -s KILL 120 "$DRIVEBENCH" run --target "$sv" --rw randread \
		--time 10s --interval 200ms --autosave 300ms --quiet --out "$T/hung/saved.json" \
		>/dev/null 2>"$T/se" &
	sp=$!
	hang_after "$T/hung/saved.json"
	for _ in $(seq 300); do grep -q "saved in" "$T/se" && break; sleep 0.1; done
	check "a run whose result's directory stops answering ends, saved elsewhere, while it hangs" \
		grep -q "hung/saved.json: its directory did not answer a save within 2 s (is its file system's server gone.*; the result is saved in $XDG_DATA_HOME/drivebench/results/saved.json instead" "$T/se"
	check "... complete, with every interval" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
st = d["phases"][0]["steps"][0]
sys.exit(not (d["status"] == "complete" and len(st["samples"]["rows"]) >= 48))' \
		"$XDG_DATA_HOME/drivebench/results/saved.json"
	check "... and said while it ran that its saves were not answered" grep -q \
		"autosave failed: .*hung/saved.json: its directory has not answered a save for 2 s; the run goes on" "$T/se"
	rm -f "$T/hang-now"
	wait $sp
	check "... and exits 1 once the file system answers" test $? -eq 1
	# with the minute's limit, Ctrl-C ends the wait: the first signal stops the run, one
	# while its end waits for the directory saves elsewhere at once
	"$DRIVEBENCH" run --target "$sv" --rw randread --time 1h --interval 200ms \
		--autosave 300ms --quiet --out "$T/hung/int.json" >/dev/null 2>"$T/ie" &
	ip=$!
	cleanup_add "kill -9 $ip"
	hang_after "$T/hung/int.json"
	for _ in $(seq 15); do
		grep -q "saved in" "$T/ie" && break
		kill -INT $ip
		sleep 1
	done
	check "Ctrl-C while the end of a run waits for its result's directory saves elsewhere at once" \
		grep -q "hung/int.json: its directory did not answer a save within .*; the result is saved in $XDG_DATA_HOME/drivebench/results/int.json instead" "$T/ie"
	check "... the run aborted, with what it measured" /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["status"] == "aborted" and d["phases"][0]["steps"][0]["samples"]["rows"]))' \
		"$XDG_DATA_HOME/drivebench/results/int.json"
	rm -f "$T/hang-now"
	wait $ip
	kill $hp
	# the same in a mount namespace of its own (a container's volume): the kernel shows
	# the loop device's backing file by the namespace's path, which here is an empty
	# directory; the driver would still ask the hung file system
	mkdir -p "$T/nsfuse"
	unshare -m --propagation private /bin/bash -c '
		/usr/bin/python3 tests/fuse_hang.py "$1/nsfuse" "$1/hang-ns" 2>/dev/null &
		for _ in $(seq 200); do grep -q " $1/nsfuse " /proc/self/mountinfo && break; sleep 0.05; done
		: >"$1/nsfuse/img" && losetup --find --show "$1/nsfuse/img" >"$1/nsloop.tmp" &&
			mv "$1/nsloop.tmp" "$1/nsloop"
		exec sleep 600' _ "$T" 2>/dev/null &
	cleanup_add "kill $!; pkill -f 'fuse_hang.py $T/nsfuse'"
	for _ in $(seq 200); do [ -s "$T/nsloop" ] && break; sleep 0.05; done
	if [ -s "$T/nsloop" ]; then
		cleanup_add "losetup -d $(cat "$T/nsloop")"
		cleanup_add "rm -f $T/hang-ns"
		touch "$T/hang-ns"
		timeout -s KILL 30 "$DRIVEBENCH" list --all >"$T/list" 2>&1
		check "a loop device over a file on a hung FUSE file system in another mount namespace: list does not wait" \
			test $? -eq 0
		rm -f "$T/hang-ns"
	else
		skip "a hung FUSE file system in another mount namespace" "unshare or losetup failed"
	fi
else
	skip "a hung FUSE file system" "no /dev/fuse or no python3-fusepy (scripts/deps.sh check)"
fi

# Another process with a piece of the reach open for writing (a virtual machine on the
# disk, a dd, another run) is a use of it; one that only reads is not.
# hold VAR rw|ro PATH: a background process with PATH open (once this returns), its pid in VAR
hold() {
	if [ "$2" = rw ]; then sleep 600 3<>"$3" & else sleep 600 3<"$3" & fi
	cleanup_add "kill $!"
	printf -v "$1" '%s' "$!"
	for _ in $(seq 200); do [ -L /proc/$!/fd/3 ] && break; sleep 0.05; done
}
mkloop lh "$(mkfile 16M held.img)"
hold p rw "$lh"
refused "a loop device another process writes" "$lh" \
	"open for writing: $(lname "$lh") by sleep \(pid $p\)" "open for writing: $(lname "$lh") by sleep"
kill $p
hold p ro "$lh"
allowed "a loop device another process only reads" "$lh"
kill $p
hf=$(mkfile 16M held-file.img)
hold p rw "$hf"
refused "a file another process writes" "$hf" "it is in use \(open for writing by sleep \(pid $p\)\)"
mkloop li "$hf"
refused "a loop over a file another process writes" "$li" \
	"$(lname "$li") is over $hf, open for writing by sleep \(pid $p\)"
kill $p
# mapped shared and writable, the descriptor closed: the process's stores still reach it
mapper() { # VAR PATH [private]: a process that maps PATH, closes it and waits ($T/mapped)
	rm -f "$T/mapped"
	python3 -c '
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
fd = os.open(sys.argv[1], os.O_RDWR)
flags = 2 if len(sys.argv) > 3 else 1  # MAP_PRIVATE or MAP_SHARED
if libc.mmap(None, 4096, 3, flags, fd, 0) in (None, ctypes.c_void_p(-1).value):
    sys.exit("mmap failed")
os.close(fd)
open(sys.argv[2], "w").close()
time.sleep(600)' "$2" "$T/mapped" "${@:3}" &
	cleanup_add "kill $!"
	printf -v "$1" '%s' "$!"
}
mapped_ready() { for _ in $(seq 600); do [ -e "$T/mapped" ] && return; sleep 0.05; done; }
mf=$(mkfile 16M mapped-file.img)
mapper p "$mf"
mapped_ready
check "a mapped file: the mapping process holds no descriptor of it" \
	test -z "$(find /proc/$p/fd -lname "$mf" 2>/dev/null)"
refused "a file another process mapped for writing" "$mf" \
	"it is in use \(mapped for writing by python3 \(pid $p\)\)"
kill $p
mapper p "$mf" private
mapped_ready
allowed "a file another process mapped privately" "$mf"
kill $p
mkloop lm "$(mkfile 16M mapped-dev.img)"
mapper p "$lm"
mapped_ready
refused "a loop device another process mapped for writing" "$lm" \
	"mapped for writing: $(lname "$lm") by python3 \(pid $p\)"
kill $p
hf=$(mkfile 16M read-file.img)
hold p ro "$hf"
allowed "a file another process only reads" "$hf"
kill $p
# a process that claims a device exclusively, reading only: nothing in the graph explains
# the kernel's refusal, so the refusal names who has the device open
mkloop lx "$(mkfile 16M claimed.img)"
rm -f "$T/claimed"
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(600)' "$lx" "$T/claimed" &
p=$!
cleanup_add "kill $p"
for _ in $(seq 600); do [ -e "$T/claimed" ] && break; sleep 0.05; done
write_run "$lx"
rc=$?
check "a device another process claims: the refusal names it" \
	test $rc -eq 3 -a -n "$(grep "will not open it exclusively.*open by python3 (pid $p)" "$T/e")"
kill $p
# two runs writing one file at once: the second is refused, the first runs on
"$DRIVEBENCH" run --target "$hf" --rw randwrite --time 60s --quiet --out "$T/first.json" \
	>/dev/null 2>&1 &
first=$!
cleanup_add "kill $first"
for _ in $(seq 300); do [ -s "$T/first.json" ] && break; sleep 0.1; done
write_run "$hf"
rc=$?
check "two runs writing one file: the second is refused (exit 3), naming the first" \
	test $rc -eq 3 -a -n "$(grep "open for writing by drivebench (pid $first)" "$T/e")"
kill -TERM $first
wait $first
check "two runs writing one file: the first ran on" test $? -ne 3

# ask_typed SESSION NAME TARGET: the TUI on TARGET with the first preset queued and start
# asked (s again if a rescan swallowed it) until it asks for NAME to be typed
ask_typed() {
	start "$1" 120 40 C.UTF-8 xterm-256color --target "$3"
	wait_for "$1" "▶ $2 " 5
	keys "$1" 2 Enter
	for _ in 1 2 3; do
		keys "$1" s
		wait_for "$1" "type $2 and Enter" 3 && break
	done
}

# what a device holds, in the TUI's typed confirmation before it is destroyed
mkloop lsig "$(mkfile 32M sig.img)"
if [ $have_tmux = 1 ] && mkfs.ext4 -q -F -L benchfs "$lsig" 2>/dev/null; then
	s=sig name=$(basename "$lsig")
	ask_typed $s "$name" "$lsig"
	# the label alone: the dialog wraps the sentence where the paths' lengths put it
	expect $s "the TUI's confirmation says what the device holds" "'benchfs'"
	keys $s Escape
	tm kill-session -t $s 2>/dev/null
fi

# the drive chosen is the drive written: a loop device set up again over another image
# while the TUI asks for its name is another disk under the same name (its disk sequence
# number changed), and the run is refused
zold=$(mkfile 16M chosen.img)
znew=$(mkfile 16M other-disk.img)
head -c 16M /dev/urandom >"$znew"
znsum=$(md5sum <"$znew")
mkloop lz "$zold"
if [ $have_tmux = 1 ]; then
	s=swap name=$(basename "$lz")
	ask_typed $s "$name" "$lz"
	losetup -d "$lz" && losetup "$lz" "$znew"
	typed $s "$name"
	expect $s "another disk under the chosen name: the run is refused" \
		"no longer the drive that was chosen"
	if cap $s | grep -q "Quick look ·"; then
		fail "another disk under the chosen name: nothing runs" "$(cap $s)"
	else
		pass "another disk under the chosen name: nothing runs"
	fi
	check "another disk under the chosen name: it is unchanged" \
		test "$(md5sum <"$znew")" = "$znsum"
	tm kill-session -t $s 2>/dev/null
fi

# a disk image file is confirmed in the TUI as a device is: its name typed, then it runs
img=$(mkfile 32M vm.img)
if [ $have_tmux = 1 ] && mkfs.ext4 -q -F -L vmfs "$img" 2>/dev/null; then
	s=img
	ask_typed $s vm.img "$img"
	keys $s Escape
	expect $s "a disk image target: the queue says it will be destroyed" \
		"the queue writes to vm.img: its data will be destroyed"
	for _ in 1 2 3; do
		keys $s s
		wait_for $s "type vm.img and Enter" 3 && break
	done
	expect $s "a disk image target: its name is asked, saying what it holds" "disk image"
	expect $s "a disk image target: the label shown" "'vmfs'"
	typed $s vm.img
	expect $s "a disk image target: the typed name starts the run" "Quick look · vm.img"
	keys $s a
	keys $s y
	expect $s "a disk image target: aborted and saved" "aborted · saved" 20
	tm kill-session -t $s 2>/dev/null
fi

# a result another run is still writing is drivebench's own output, never a target
"$DRIVEBENCH" run --target "$seed" --rw randread --time 60s --quiet --out "$T/live.json" \
	>/dev/null 2>&1 &
live=$!
for _ in $(seq 300); do [ -s "$T/live.json" ] && break; sleep 0.1; done
"$DRIVEBENCH" run --target "$T/live.json" --rw randwrite --time 1s --quiet \
	--out "$T/w-live.json" >/dev/null 2>"$T/e"
rc=$?
kill -TERM $live 2>/dev/null
wait $live 2>/dev/null
check "a result being written is refused as a target (exit 3)" \
	test $rc -eq 3 -a "$(json "$T/live.json" 'd["status"]' 2>/dev/null)" = aborted
check "the refusal says it is another run's result" grep -q "another drivebench run" "$T/e"

# ---- outputs ------------------------------------------------------------------------
out_refused() { # NAME FILE-TO-KEEP ARGS...: exit 2, and FILE-TO-KEEP is unchanged
	local name=$1 keep=$2 sum
	shift 2
	sum=$(md5sum <"$keep")
	"$DRIVEBENCH" "$@" >"$T/o" 2>"$T/e"
	local rc=$?
	if [ $rc -eq 2 ] && [ "$(md5sum <"$keep")" = "$sum" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, want 2 and the file unchanged: $(cat "$T/e")"
	fi
}
v=$(mkfile 16M v.img)
head -c 1M /dev/urandom | dd of="$v" conv=notrunc status=none
read_args="run --rw randread --time 1s --quiet"
out_refused "--out: the target itself (a read-only run)" "$v" $read_args --target "$v" --out "$v"
check "--out: the target keeps its size" test "$(stat -c %s "$v")" -eq $((16 * 1024 * 1024))
mkloop ly "$v"
out_refused "--out: the backing file of the loop device that is the target" "$v" \
	$read_args --target "$ly" --out "$v"
out_refused "--out: the backing file of another loop device" "$v" \
	$read_args --target "$seed" --out "$v"
out_refused "--out: a device node" "$v" $read_args --target "$seed" --out "$ly"
check "--out: the node is still a block device" test -b "$ly"
mkfifo "$T/fifo"
out_refused "--out: a FIFO" "$v" $read_args --target "$seed" --out "$T/fifo"
out_refused "compare -o: a loop's backing file" "$v" compare "$T/seed.json" -o "$v"
out_refused "export-samples -o: a device node" "$v" export-samples "$T/seed.json" -o "$ly"
out_refused "export-fio -o: a loop's backing file" "$v" export-fio quick -o "$v"
out_refused "import --out: a loop's backing file" "$v" import tests/fixtures/fio/plain.json --out "$v"
# what is not drivebench's to replace: a disk image, a file another program writes
dimg=$(mkfile 16M guest.img)
mkfs.ext4 -q -F -L guest "$dimg" 2>/dev/null
out_refused "--out: a disk image" "$dimg" $read_args --target "$seed" --out "$dimg"
check "--out: the refusal says what the image holds" grep -q "it is a disk image (it holds ext4 file system 'guest'" "$T/e"
out_refused "compare -o: a disk image" "$dimg" compare "$T/seed.json" -o "$dimg"
vmq=$(mkfile 1M vm.qcow2)
echo "not a result" >"$vmq"
hold p rw "$vmq"
out_refused "--out: a file another program writes" "$vmq" $read_args --target "$seed" --out "$vmq"
check "--out: the refusal names the writer" grep -qF "sleep (pid $p) is writing it" "$T/e"
out_refused "export-samples -o: a file another program writes" "$vmq" export-samples "$T/seed.json" -o "$vmq"
kill $p
wait $p 2>/dev/null
# a writer named drivebench is excused only for a result it holds locked: a run's target
cp "$(command -v sleep)" "$T/drivebench"
(exec 3<>"$vmq" && exec "$T/drivebench" 600) &
p=$!
cleanup_add "kill $p"
for _ in $(seq 200); do [ -L /proc/$p/fd/3 ] && [ "$(cat /proc/$p/comm)" = drivebench ] && break; sleep 0.05; done
out_refused "presets -o: a file another drivebench writes, not a result it holds" "$vmq" presets -o "$vmq"
check "presets -o: the refusal names the writer" grep -qF "drivebench (pid $p) is writing it" "$T/e"
kill $p
wait $p 2>/dev/null
"$DRIVEBENCH" $read_args --target "$seed" --out "$vmq" >/dev/null 2>"$T/e"
check "--out: the same file, once nobody writes it, is replaced" \
	test $? -eq 0 -a "$(json "$vmq" 'd["format"]')" = drivebench-result

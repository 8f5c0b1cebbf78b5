#!/bin/sh
# Install the Debian packages drivebench needs to build, run and test.
# Idempotent: installs only what is missing. As root it uses apt-get; otherwise it
# prints the exact apt-get line and stops.
#   scripts/deps.sh [build|check|bench|fuzz|vm|package|app]...   (default: build)
set -eu

# build also brings the tools drivebench runs: smartctl (health of SATA and SAS drives)
# and hdparm (ATA secure erase); librsvg and cairo draw compare --charts' PNGs; check
# brings blktrace, whose blkparse makes the binary dumps `trace import` reads, and
# btrfs-progs and xfsprogs, whose file systems on several devices the storage graph meets,
# erofs-utils, an image a file system is mounted from with no loop device, and
# python3-fusepy, a FUSE file system that stops answering as a dead NFS server does
build="build-essential pkg-config liburing-dev libudev-dev libpci-dev pci.ids libblkid-dev
	libncurses-dev libjson-c-dev libnvme-dev smartmontools hdparm
	librsvg2-dev libcairo2-dev"
check="check umockdev libumockdev-dev tmux fio util-linux fdisk e2fsprogs
	libxml2-utils pciutils python3 groff-base strace blktrace zsh bash-completion file
	btrfs-progs xfsprogs erofs-utils python3-fusepy"
# bench: fio to measure against; check and umockdev for the health sampler's bench
bench="fio util-linux time python3 check umockdev libumockdev-dev"
fuzz="clang libclang-rt-14-dev"
# vm: the lab guest of `make check-vm` (scripts/vm/): QEMU, and what its initramfs is
# made of besides the Debian kernel, which scripts/vm/build.sh downloads itself
# app: the application benchmarks (sysbench OLTP on MariaDB, pgbench on PostgreSQL) and the
# file systems they are made on
app="mariadb-server mariadb-client sysbench postgresql postgresql-contrib e2fsprogs xfsprogs
	util-linux"
vm="qemu-system-x86 busybox-static kmod cpio nvme-cli fio dmsetup mdadm e2fsprogs jq udev
	lvm2"
# package: the Debian package's tools (dpkg-buildpackage, dh, lintian) and what
# `make check-package` checks the installed package with (man, git archive)
package="dpkg-dev debhelper lintian man-db git"

want=""
[ $# -eq 0 ] && set -- build
for what in "$@"; do
	case "$what" in
	build) want="$want $build" ;;
	check) want="$want $build $check $app" ;;
	app) want="$want $build $app" ;;
	bench) want="$want $build $bench" ;;
	fuzz) want="$want $build $fuzz" ;;
	vm) want="$want $build $vm" ;;
	package) want="$want $build $package" ;;
	*) echo "deps.sh: unknown group '$what' (build, check, bench, fuzz, vm, package, app)" >&2; exit 2 ;;
	esac
done

missing=""
for pkg in $want; do
	case " $missing " in *" $pkg "*) continue ;; esac
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $pkg"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "drivebench needs these Debian packages:$missing" >&2
	echo "run as root:  apt-get install -y$missing" >&2
	exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once if an install fails.
if ! apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; then
	apt-get update -qq
	apt-get install -y --no-install-recommends $missing
fi

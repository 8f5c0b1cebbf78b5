# Shared helpers for tests/t_*.sh. Source it; it sets a temp dir that is removed on exit,
# and helpers to make targets (files, loop devices) that are always cleaned up.
# Output protocol: "PASS: name", "FAIL: name: why", "SKIP: name: why", one per line.
set -u
DRIVEBENCH=${DRIVEBENCH:-$PWD/build/drivebench}
T=$(mktemp -d /tmp/drivebench-test.XXXXXX)
export XDG_DATA_HOME=$T/data XDG_CACHE_HOME=$T/cache XDG_CONFIG_HOME=$T/config
_cleanups=()
cleanup_add() { _cleanups+=("$*"); }
_cleanup() {
	local i
	for ((i = ${#_cleanups[@]} - 1; i >= 0; i--)); do eval "${_cleanups[i]}" >/dev/null 2>&1; done
	rm -rf "$T"
}
trap _cleanup EXIT
trap 'exit 130' INT TERM
# Debian's python3 (scripts/deps.sh), ahead of any other on PATH: the tests call it
# hundreds of times, and an interpreter manager's shim (pyenv) starts in 0.4 s where
# Debian's starts in 0.05 s; nor does another have Debian's python3-fusepy.
if [ -x /usr/bin/python3 ]; then
	mkdir "$T/bin" && ln -s /usr/bin/python3 "$T/bin/python3" && export PATH=$T/bin:$PATH
fi

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: ${2:-}"; }
skip() { echo "SKIP: $1: ${2:-}"; }
check() { # check NAME CMD... : PASS when CMD succeeds
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name" "command failed: $*"; fi
}
is_root() { [ "$(id -u)" -eq 0 ]; }

# mkfile SIZE [NAME]: a zero-filled temp file; prints its path
mkfile() {
	local f=$T/${2:-target.img}
	truncate -s "$1" "$f" && echo "$f"
}
# mkloop VAR FILE [extra losetup args]: a loop device over FILE (root), its path in VAR.
# (Not a $(...) helper: the cleanup must be registered in this shell, not a subshell.)
mkloop() {
	local _dev
	is_root || return 1
	_dev=$(losetup --find --show --direct-io=on "${@:3}" "$2") || return 1
	cleanup_add "losetup -d $_dev"
	printf -v "$1" '%s' "$_dev"
}
# mkzram VAR SIZE: a new zram device of SIZE (root; hot_add, never zram0 or another in
# use), its path in VAR; removed on exit. Same shape as mkloop.
mkzram() {
	local _n
	is_root && [ -w /sys/class/zram-control/hot_add ] || return 1
	_n=$(cat /sys/class/zram-control/hot_add) || return 1
	cleanup_add "echo $_n >/sys/class/zram-control/hot_remove"
	echo "$2" >"/sys/block/zram$_n/disksize" || return 1
	printf -v "$1" '/dev/zram%s' "$_n"
}
# json FILE EXPR: evaluate a python expression over the parsed JSON as `d`
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

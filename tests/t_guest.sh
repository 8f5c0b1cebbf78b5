#!/usr/bin/env bash
# run --host with fio's client as a guest (guest.h, drivebench(1) SAFETY): a fake fio
# found through DRIVEBENCH_TOOL_PATH reports who and where the client is (nobody, in a
# private 0700 directory, no new privileges) and what it may do (write outside, read a
# root-only file: neither); a hostile server (tests/fio_proxy.py, a proxy in front of a
# real fio --server that asks the client for a local file and renames the logs it sends
# back to a path outside) gets no file and creates nothing; IPv6 hosts and host names
# longer than a phase's name; a target whose name has ':'. Local fio servers on
# 127.0.0.1 and ::1 only, started and stopped here.
. tests/lib.sh

if ! command -v fio >/dev/null 2>&1; then
	skip "t_guest" "fio is not installed (Debian package fio; scripts/deps.sh check)"
	exit 0
fi
# the guest (nobody) passes through the test's directory to the fake fio and the job
chmod 711 "$T"
L=$(mkfile 32M lab.img)
base=$((30000 + ($$ % 10000) * 3))
p1=$base p2=$((base + 1)) p6=$((base + 2)) pproxy=$((base + 3))

# server NAME ADDR,PORT: fio --server in the background, stopped at the end; 0 once it listens
server() {
	(cd "$T" && exec timeout 300 fio --server="$2" >"$T/server.$1.log" 2>&1) &
	cleanup_add "kill $!"
	local addr=${2#*:} host port
	host=${addr%,*} port=${addr##*,}
	for _ in $(seq 50); do
		python3 -c 'import socket,sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 0.2)' \
			"$host" "$port" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
server one ip:127.0.0.1,$p1 || fail "fio --server on 127.0.0.1" "$(cat "$T/server.one.log")"
server two ip:127.0.0.1,$p2 || fail "fio --server on 127.0.0.1" "$(cat "$T/server.two.log")"
steps() { # FILE: "name ios samples" per phase
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["status"])
for p in d["phases"]:
    s = p["steps"][0]
    print(p["name"], s["summary"]["all"]["ios"], len(s.get("samples", {}).get("rows", [])))
' "$1"
}

# ---- who the client is: a fake fio reports, then runs the real one ----
mkdir -p "$T/bin" "$T/open" "$T/mine"
chmod 755 "$T/bin"
chmod 777 "$T/open" # anyone may write here: only the fence keeps the guest out
echo "secret-$$-$RANDOM" >"$T/secret"
chmod 600 "$T/secret"
cat >"$T/bin/fio" <<EOF
#!/bin/sh
{
	echo "uid \$(id -u) gid \$(id -g) groups \$(id -G)"
	echo "cwd \$(pwd) \$(stat -c '%a %u' .)"
	grep '^NoNewPrivs' /proc/self/status
	echo "target \$DRIVEBENCH_TARGET"
	echo x >"$T/open/from-guest" 2>/dev/null && echo "wrote $T/open"
	echo x >"$T/mine/from-guest" 2>/dev/null && echo "wrote $T/mine"
	cat "$T/secret" 2>/dev/null
	echo x >inside && echo "wrote inside"
} 2>&1 | sed 's/^/GUEST /' >&2
exec /usr/bin/fio "\$@"
EOF
chmod 755 "$T/bin/fio"
DRIVEBENCH_TOOL_PATH=$T/bin PATH=$T/bin:$PATH timeout 120 "$DRIVEBENCH" run --host 127.0.0.1,$p1 \
	--target "$L" --rw randread --time 1s --out "$T/fake.json" 2>"$T/fake.err" >/dev/null
rc=$?
check "fake fio: the run completes through it" test "$rc" -eq 0 -a -s "$T/fake.json"
g() { grep "^GUEST $1" "$T/fake.err"; }
if is_root; then
	nobody=$(id -u nobody 2>/dev/null || echo 65534)
	check "as root, fio's client runs as nobody, no other group" \
		test "$(g uid)" = "GUEST uid $nobody gid $(id -g nobody 2>/dev/null || echo 65534) groups $(id -g nobody 2>/dev/null || echo 65534)"
	check "its working directory is its own, mode 0700" \
		grep -qE "^GUEST cwd /tmp/drivebench-lab-[A-Za-z0-9]{6}/guest 700 $nobody\$" "$T/fake.err"
	check "it cannot read a file only root may read" \
		test -z "$(grep -F "$(cat "$T/secret")" "$T/fake.err")"
	check "it cannot write to root's directory" \
		test ! -e "$T/mine/from-guest" -a -z "$(g "wrote $T/mine")"
else
	skip "fio's client as nobody" "not root: the client runs as $(id -un)"
fi
check "it gains no privileges (PR_SET_NO_NEW_PRIVS)" grep -qE "^GUEST NoNewPrivs:.*1$" "$T/fake.err"
check "it writes in its directory" grep -q "^GUEST wrote inside" "$T/fake.err"
landlock=$(python3 -c '
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print(max(libc.syscall(444, None, 0, 1), 0))' 2>/dev/null || echo 0)
if [ "${landlock:-0}" -gt 0 ]; then
	check "Landlock: it cannot write outside, even where anyone may" \
		test ! -e "$T/open/from-guest" -a -z "$(g "wrote $T/open")"
else
	skip "the guest's fence" "no Landlock in this kernel: only its identity holds it back"
fi
top=$(sed -n 's|^GUEST cwd \(/tmp/drivebench-lab-[A-Za-z0-9]*\)/guest .*|\1|p' "$T/fake.err")
check "the client's directory is removed after" test -n "$top" -a ! -e "$top"

# ---- a hostile server: asks for a local file, names the logs' paths ----
outside=$T/mine
[ "${landlock:-0}" -gt 0 ] && outside=$T/open
python3 tests/fio_proxy.py "$pproxy" "$p2" "$T/secret" "$outside/pwned" "$T/proxy.report" \
	"$(cat "$T/secret")" 2>"$T/proxy.err" &
cleanup_add "kill $!"
for _ in $(seq 50); do grep -q ready "$T/proxy.report" 2>/dev/null && break; sleep 0.1; done
timeout 120 "$DRIVEBENCH" run --host 127.0.0.1,$pproxy --target "$L" --rw randread --time 2s \
	--quiet --out "$T/hostile.json" 2>"$T/hostile.err" >/dev/null
check "hostile server: it asked for the file and got a refusal" \
	grep -qE "^reply error=[1-9][0-9]* .* leaked=no$" "$T/proxy.report"
check "hostile server: the file's content never went out" \
	test -z "$(grep "leaked=yes" "$T/proxy.report")"
check "hostile server: it renamed the logs to a path outside" grep -q "^renamed " "$T/proxy.report"
check "hostile server: nothing was created outside the client's directory" \
	test -z "$(ls -A "$T/open" "$T/mine" | grep pwned)"
if is_root; then
	# the same server with fio's client as root, as drivebench ran it before: the attack
	# is real (the test would see it)
	printf '[j]\nfilename=${DRIVEBENCH_TARGET}\nrw=randread\nbs=4k\nsize=1m\n%s\n%s\n' \
		"write_iops_log=root" "log_avg_msec=100" >"$T/root.fio"
	(cd "$T" && DRIVEBENCH_TARGET=$L timeout 60 /usr/bin/fio --output-format=json \
		--client=ip:127.0.0.1,$pproxy "$T/root.fio" >/dev/null 2>&1)
	check "hostile server: against fio's client as root, it gets the file (the proxy works)" \
		grep -q "leaked=yes" "$T/proxy.report"
	rm -f "$T/open"/pwned* "$T/mine"/pwned*
fi

# ---- IPv6: fio's ip6: syntax ----
if server six "ip6:::1,$p6"; then
	timeout 120 "$DRIVEBENCH" run --host "ip6:::1,$p6" --host 127.0.0.1,$p1 --target "$L" \
		--rw randread --time 2s --quiet --out "$T/six.json" 2>"$T/six.err" >/dev/null
	check "IPv6 host: the run completes" test $? -eq 0
	steps "$T/six.json" >"$T/six.steps" 2>&1
	check "IPv6 host: its own phase, with its samples" \
		grep -qE "^run @::1:$p6 [1-9][0-9]* [1-9]" "$T/six.steps"
else
	skip "IPv6 host" "no fio server on ::1 (no IPv6 loopback here): $(head -c 200 "$T/server.six.log")"
fi

# ---- host names longer than a phase's name: two servers, one long name, two ports ----
long=0000000000000000000000000000000000000177.0.0.1 # 127.0.0.1, written long
timeout 120 "$DRIVEBENCH" run --host "$long,$p1" --host "$long,$p2" --target "$L" --rw randread \
	--time 1s --quiet --out "$T/long.json" 2>"$T/long.err" >/dev/null
check "long host names: the run completes" test $? -eq 0
steps "$T/long.json" >"$T/long.steps" 2>&1
check "long host names: a phase each, told apart, the sum of both" python3 - "$T/long.json" "$long" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = [p["name"] for p in d["phases"]]
assert len(names) == 3 and len(set(names)) == 3, names
ios = [p["steps"][0]["summary"]["all"]["ios"] for p in d["phases"]]
assert ios[1] > 0 and ios[2] > 0 and ios[0] == ios[1] + ios[2], ios
hosts = d["host"]["fio"]["hosts"]
assert sorted(h.rsplit(":", 1)[0] for h in hosts) == [sys.argv[2]] * 2, hosts
PY

# ---- a target with ':' in its name (as every /dev/disk/by-path name) ----
C=$(mkfile 16M "by-path:pci-0000:00:1f.2.img")
timeout 120 "$DRIVEBENCH" run --host 127.0.0.1,$p1 --target "$C" --rw randread --time 1s --quiet \
	--out "$T/colon.json" 2>"$T/colon.err" >/dev/null
check "':' in the target: the run completes" test $? -eq 0
check "':' in the target: fio opened the one file, laid out no other" \
	test -z "$(ls "$T" | grep -E '^by-path$|^pci-0000$|^00$|^1f\.2\.img$')"
check "':' in the target: the result names it" \
	test "$(json "$T/colon.json" 'd["target"]["path"]' 2>/dev/null)" = "$C"
check "':' in the target: it was measured" \
	test "$(json "$T/colon.json" 'd["phases"][0]["steps"][0]["summary"]["all"]["ios"] > 0' 2>/dev/null)" = True

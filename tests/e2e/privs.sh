#!/usr/bin/env bash
# Privilege drop (-Z, and by default as root for live capture).
#   privs.sh NFSSCOPE
# Always: -Z with an unknown user fails with one clear line. As root (else
# exit 77 = skipped): a live capture on lo switches, once the device and the
# output files are open, to the default user ('tcpdump', else 'nobody') and
# with -Z nobody to nobody, as /proc/PID/status shows; the report and the
# transaction log (opened as root before the switch) are written; traffic is
# RPC NULL calls sent to 127.0.0.1:2049 over UDP by this script.
set -u
N=$1
T=$(mktemp -d)
trap 'rm -rf "$T"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null' EXIT
fail=0
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LSan cannot ptrace a process that switched user

"$N" -r /dev/null -Z no-such-user-77 >"$T/out" 2>"$T/err"
rc=$?
if [ $rc != 1 ] || [ "$(cat "$T/err")" != "nfsscope: -Z no-such-user-77: no such user" ]; then
  echo "FAIL: -Z unknown user: exit $rc, stderr: $(cat "$T/err")"; fail=1
else
  echo "ok: -Z unknown user: $(cat "$T/err")"
fi
[ "$(id -u)" = 0 ] || { echo "not root: live capture checks skipped"; exit $((fail ? 1 : 77)); }

send_calls() { # RPC NULL calls (NFSv3) to 127.0.0.1:2049 until $1 exits
  python3 - "$1" <<'PY'
import os, socket, struct, sys, time
pid = int(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(100):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        break
    if open("/proc/%d/status" % pid).read().find("State:\tZ") >= 0:
        break
    s.sendto(struct.pack(">IIIIIIIIII", 0x77000000 + i, 0, 2, 100003, 3, 0, 0, 0, 0, 0), ("127.0.0.1", 2049))
    time.sleep(0.1)
PY
}

# live_check WANT_USER ARGS...: uid and gid switch to WANT_USER, report written
live_check() {
  local want=$1; shift
  local uid gid
  uid=$(id -u "$want") gid=$(id -g "$want")
  rm -f "$T/report.json" "$T/log.jsonl"
  "$N" -i lo -c 2 --format json -o "$T/report.json" --txn-log "$T/log.jsonl" "$@" udp port 2049 2>"$T/err" &
  pid=$!
  local ids="" i
  for i in $(seq 100); do # until the switch (the device is open by then)
    ids=$(awk '/^Uid:/ {u = $2 " " $3 " " $4 " " $5} /^Gid:/ {g = $2 " " $3 " " $4 " " $5} END {print u "/" g}' \
          "/proc/$pid/status" 2>/dev/null)
    [ "$ids" = "$uid $uid $uid $uid/$gid $gid $gid $gid" ] && break
    sleep 0.1
  done
  local groups; groups=$(awk '/^Groups:/ {$1 = ""; print}' "/proc/$pid/status" 2>/dev/null | xargs)
  send_calls "$pid"
  wait "$pid"
  local rc=$?
  pid=
  if [ "$ids" != "$uid $uid $uid $uid/$gid $gid $gid $gid" ]; then
    echo "FAIL: nfsscope -i lo $*: real/effective/saved/fs ids $ids, want $want ($uid/$gid)"; fail=1
  elif [ "$groups" != "$gid" ]; then
    echo "FAIL: nfsscope -i lo $*: supplementary groups '$groups', want $gid"; fail=1
  elif [ $rc != 0 ] || grep -qv -e '^nfsscope: listening on ' -e ' packets captured$' -e ' packets received by filter$' \
         -e ' packets dropped by kernel$' -e ' packets dropped by interface$' "$T/err"; then
    echo "FAIL: nfsscope -i lo $*: exit $rc, stderr: $(cat "$T/err")"; fail=1
  elif ! grep -q '"calls":[1-9]' "$T/report.json" || [ ! -s "$T/log.jsonl" ]; then
    echo "FAIL: nfsscope -i lo $*: report or transaction log missing the calls"; fail=1
  else
    echo "ok: nfsscope -i lo $* ran as $want ($uid/$gid), report and log written"
  fi
}

default=nobody
id tcpdump >/dev/null 2>&1 && default=tcpdump
live_check "$default"
live_check nobody -Z nobody
exit $fail

#!/bin/bash
# Record the nfsscope sample captures with real NFS software.
#
#   sudo samples/record.sh            # re-records every capture in samples/
#   sudo samples/record.sh nfsv3-tcp  # only the named captures (see "all_captures")
#   KEEP=1 sudo samples/record.sh     # keep the work dir (logs, configs) for debugging
#   KEEP=1 HOLD=600 sudo samples/record.sh hold   # set up, then idle (debugging)
#   OUT=DIR, WORK=DIR                  # where captures go / the scratch dir (removed)
#
# Everything happens in private network namespaces created here (nfsscope-srv,
# nfsscope-cli, nfsscope-proxy) joined by veth pairs; no traffic leaves them.
#
#   nfsscope-cli  nsc-s 10.77.0.2 fd77::2 <---> nss-c 10.77.0.1 fd77::1  nfsscope-srv
#   nfsscope-cli  nsc-p 10.77.2.2         <---> nsp-c 10.77.2.1          nfsscope-proxy
#   nfsscope-proxy nsp-s 10.77.1.2        <---> nss-p 10.77.1.1          nfsscope-srv
#
# Server: nfs-ganesha (FSAL VFS) + rpcbind in nfsscope-srv with a private /run.
# Clients: libnfs tools (NFSv3/NFSv4.0 over TCP), YANFS (NFSv3 over UDP), and a
# second ganesha with FSAL PROXY_V4 in nfsscope-proxy (a real NFSv4.1 client of
# the server). Clients run as an unprivileged user so their source ports are
# >= 1024 (tshark misreads some reserved ports as other protocols).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE}
LAB=$HERE/lab
WORK=${WORK:-/tmp/nfsscope-record}
NS_SRV=nfsscope-srv
NS_CLI=nfsscope-cli
NS_PRX=nfsscope-proxy
SRV4=10.77.0.1 CLI4=10.77.0.2 SRV6=fd77::1 CLI6=fd77::2
SRVP=10.77.1.1 PRXS=10.77.1.2 PRXC=10.77.2.1 CLIP=10.77.2.2
PLUGINS=/usr/lib/x86_64-linux-gnu/ganesha
YANFS_JAR=/usr/share/java/yanfs.jar
RUNAS=(setpriv --reuid=65534 --regid=65534 --clear-groups)   # nobody:nogroup

all_captures=(nfsv3-tcp nfsv40-tcp twin cooked nfsv3-udp nfsv3-udp-loss nfsv3-udp-loss5 nfsv41-proxy nfsv41-restart nfsv41-slots10)
if [ $# -gt 0 ]; then captures=("$@"); else captures=("${all_captures[@]}"); fi

[ "$(id -u)" -eq 0 ] || { echo "record.sh: run as root" >&2; exit 1; }
case $WORK in /*nfsscope*) ;; *) echo "record.sh: WORK must be an absolute path containing 'nfsscope' (it is deleted)" >&2; exit 1 ;; esac
for t in ip nsenter unshare setpriv ganesha.nfsd rpcbind tcpdump tshark editcap nft openssl \
         nfs-ls nfs-cat nfs-cp javac java; do
    command -v "$t" >/dev/null || { echo "record.sh: missing $t" >&2; exit 1; }
done

log() { printf '[record %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

# ---------------------------------------------------------------- cleanup ---
PIDS=()            # every daemon/tcpdump we started (pids)
# del_ns NS: remove one of our namespaces; anything still running inside it
# was started by this script (now or in an interrupted earlier run).
del_ns() {
    local p
    if ip netns list | grep -q "^$1\b"; then
        for p in $(ip netns pids "$1"); do kill -9 "$p" 2>/dev/null; done
        ip netns del "$1"
    fi
}
cleanup() {
    set +e
    local p ns
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    sleep 0.5
    for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
    for ns in $NS_CLI $NS_PRX $NS_SRV; do del_ns "$ns"; done
    if [ -z "${KEEP:-}" ]; then rm -rf "$WORK"; else log "work dir kept: $WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- network ---
setup_net() {
    local ns
    for ns in $NS_CLI $NS_PRX $NS_SRV; do
        del_ns "$ns"
        ip netns add "$ns"
        ip -n "$ns" link set lo up
    done
    ip link add nsc-s netns $NS_CLI type veth peer name nss-c netns $NS_SRV
    ip link add nsc-p netns $NS_CLI type veth peer name nsp-c netns $NS_PRX
    ip link add nsp-s netns $NS_PRX type veth peer name nss-p netns $NS_SRV
    ip -n $NS_CLI addr add $CLI4/24 dev nsc-s
    ip -n $NS_CLI addr add $CLI6/64 dev nsc-s nodad
    ip -n $NS_SRV addr add $SRV4/24 dev nss-c
    ip -n $NS_SRV addr add $SRV6/64 dev nss-c nodad
    ip -n $NS_CLI addr add $CLIP/24 dev nsc-p
    ip -n $NS_PRX addr add $PRXC/24 dev nsp-c
    ip -n $NS_PRX addr add $PRXS/24 dev nsp-s
    ip -n $NS_SRV addr add $SRVP/24 dev nss-p
    for ns in $NS_CLI $NS_PRX $NS_SRV; do
        for l in $(ip -n "$ns" -o link show | awk -F': ' '{print $2}' | cut -d@ -f1); do
            ip -n "$ns" link set "$l" up
        done
    done
}

# ----------------------------------------------------------- export data ---
setup_export() {
    local e=$WORK/export
    mkdir -p "$e/subdir" "$WORK/cli"
    printf 'Hello from nfsscope sample export.\n' > "$e/hello.txt"
    # Deterministic pseudo-random contents (no /dev/urandom, so re-recordings
    # carry the same payload bytes).
    gen() { (set +o pipefail; openssl enc -aes-128-ctr -pass pass:nfsscope-$1 -nosalt \
                -pbkdf2 </dev/zero 2>/dev/null | head -c "$2"); }
    gen small 4096 > "$e/small.bin"
    gen medium 102400 > "$e/medium.bin"
    gen udp 204800 > "$e/udp200k.bin"
    gen big 1048576 > "$e/big1m.bin"
    printf 'nested file\n' > "$e/subdir/nested.txt"
    ln -s hello.txt "$e/link-to-hello"
    # Sparse file: 256 KiB with data only at 0 and 128 KiB (fattr3 used < size).
    truncate -s 256K "$e/sparse.img"
    printf 'head' | dd of="$e/sparse.img" conv=notrunc status=none
    printf 'middle' | dd of="$e/sparse.img" bs=1 seek=131072 conv=notrunc status=none
    chmod 0777 "$e" "$e/subdir" "$WORK/cli"
    chmod 0644 "$e"/*.bin "$e"/*.txt "$e/sparse.img"
    # Local files the clients upload.
    gen upload 65536 > "$WORK/cli/upload64k.bin"
    gen upudp 204800 > "$WORK/cli/upload200k.bin"
    gen up1m 1048576 > "$WORK/cli/upload1m.bin"
    chmod 0644 "$WORK/cli"/*.bin
}

# ------------------------------------------------------------- ganesha ---
# write_server_conf FILE SLOTS
write_server_conf() {
    cat > "$1" <<EOF
# Generated by samples/record.sh (server: FSAL VFS)
NFS_CORE_PARAM {
    Plugins_Dir = "$PLUGINS";
    NFS_Port = 2049;
    MNT_Port = 20048;
    Protocols = 3, 4;
    Enable_UDP = true;
    Enable_NLM = false;
    Enable_RQUOTA = false;
    mount_path_pseudo = true;
}
NFSV4 {
    Minor_Versions = 0, 1, 2;
    Grace_Period = 20;
    Lease_Lifetime = 10;
    Slot_Table_Size = $2;
    RecoveryBackend = fs;
    RecoveryRoot = "$WORK/srv-recovery";
    Only_Numeric_Owners = true;
}
NFS_KRB5 { Active_krb5 = false; }
EXPORT {
    Export_Id = 1;
    Path = "$WORK/export";
    Pseudo = /export;
    Protocols = 3, 4;
    Transports = TCP, UDP;
    Access_Type = RW;
    Squash = No_Root_Squash;
    SecType = sys;
    MaxRead = 32768;
    MaxWrite = 32768;
    PrefRead = 32768;
    PrefWrite = 32768;
    FSAL { Name = VFS; }
}
LOG { Default_Log_Level = EVENT; }
EOF
}

write_proxy_conf() {
    cat > "$1" <<EOF
# Generated by samples/record.sh (proxy: FSAL PROXY_V4, NFSv4.1 client of $SRVP)
NFS_CORE_PARAM {
    Plugins_Dir = "$PLUGINS";
    NFS_Port = 2049;
    MNT_Port = 20048;
    Protocols = 3, 4;
    Enable_UDP = false;
    Enable_NLM = false;
    Enable_RQUOTA = false;
    mount_path_pseudo = true;
}
NFSV4 {
    Grace_Period = 5;
    Lease_Lifetime = 10;
    RecoveryBackend = fs;
    RecoveryRoot = "$WORK/prx-recovery";
    Only_Numeric_Owners = true;
}
NFS_KRB5 { Active_krb5 = false; }
PROXY_V4 { }
EXPORT {
    Export_Id = 1;
    Path = /export;
    Pseudo = /export;
    Protocols = 3, 4;
    Access_Type = RW;
    Squash = No_Root_Squash;
    SecType = sys;
    FSAL {
        Name = PROXY_V4;
        Srv_Addr = $SRVP;
        Use_Privileged_Client_Port = false;
        Retry_SleepTime = 1;
    }
}
LOG { Default_Log_Level = EVENT; }
EOF
}

# start_rpcbind NAME NS: rpcbind in NS with a private /run (its own mount ns).
# The ganeshas of NAME are later started inside that same mount namespace.
declare -A RPCBIND_PID GANESHA_PID
start_rpcbind() {
    local name=$1 ns=$2
    mkdir -p "$WORK/$name"
    ip netns exec "$ns" unshare -m --propagation private sh -c \
        'mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -p /run/rpcbind /run/ganesha && exec rpcbind -f -w' \
        >"$WORK/$name/rpcbind.log" 2>&1 &
    RPCBIND_PID[$name]=$!
    PIDS+=($!)
    local i
    for i in $(seq 50); do
        ip netns exec "$ns" ss -ltn 2>/dev/null | grep -q ':111 ' && return 0
        sleep 0.1
    done
    echo "rpcbind in $ns did not start" >&2; return 1
}

# start_ganesha NAME CONF: ganesha.nfsd in NAME's namespaces; waits for the
# listener and for the end of the grace period.
start_ganesha() {
    local name=$1 conf=$2 rp=${RPCBIND_PID[$1]}
    local logf=$WORK/$name/ganesha.log
    : > "$logf"
    mkdir -p "$WORK/$name-recovery" "$WORK/srv-recovery" "$WORK/prx-recovery"
    nsenter -t "$rp" -m -n ganesha.nfsd -F -f "$conf" -L "$logf" -p "$WORK/$name/ganesha.pid" \
        >>"$WORK/$name/ganesha.out" 2>&1 &
    GANESHA_PID[$name]=$!
    PIDS+=($!)
    local i
    for i in $(seq 600); do
        if ! kill -0 "${GANESHA_PID[$name]}" 2>/dev/null; then
            echo "ganesha $name died; log:" >&2; tail -30 "$logf" >&2; return 1
        fi
        if grep -q 'NOT IN GRACE' "$logf"; then
            log "ganesha $name ready (pid ${GANESHA_PID[$name]})"; return 0
        fi
        sleep 0.1
    done
    echo "ganesha $name: timeout waiting for end of grace" >&2; tail -30 "$logf" >&2; return 1
}

# wait_listening NAME: returns once ganesha is serving
# (still in grace).
wait_listening() {
    local name=$1 i
    for i in $(seq 300); do
        grep -q 'NFS SERVER INITIALIZED' "$WORK/$name/ganesha.log" && return 0
        sleep 0.1
    done
    echo "ganesha $name not initialized" >&2; return 1
}

stop_ganesha() {
    local name=$1 p=${GANESHA_PID[$1]:-} secs=${2:-10}
    [ -n "$p" ] || return 0
    kill "$p" 2>/dev/null || true
    local i
    for i in $(seq $((secs * 10))); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
    GANESHA_PID[$name]=
}

# ------------------------------------------------------------- tcpdump ---
# cap_start VAR NS IFACE FILE [tcpdump args...]
cap_start() {
    local var=$1 ns=$2 ifc=$3 file=$4; shift 4
    local err=$WORK/tcpdump-$(basename "$file").log
    ip netns exec "$ns" tcpdump -i "$ifc" -Z root -U -n -w "$file" "$@" 2>"$err" &
    local p=$!
    PIDS+=($p)
    printf -v "$var" '%s' "$p"
    local i
    for i in $(seq 100); do grep -q 'listening on' "$err" && break; sleep 0.05; done
    sleep 0.3
}
cap_stop() {
    local p=$1
    sleep 1
    kill -INT "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
}

# run in the client namespace as nobody
cli() { ip netns exec $NS_CLI "${RUNAS[@]}" "$@"; }
# a client step that may fail (e.g. a missing file on purpose)
cli_try() { cli "$@" || log "(expected failure or error: $*)"; }

# ------------------------------------------------------------ captures ---
cap_nfsv3_tcp() {
    local u=nfs://$SRV4/export f=$WORK/nfsv3-tcp.pcap c
    cap_start c $NS_CLI nsc-s "$f"
    cli nfs-ls "$u/"
    cli nfs-ls -R "$u/subdir"
    cli nfs-cat "$u/hello.txt" >/dev/null
    cli nfs-cp "$u/medium.bin" "$WORK/cli/medium.v3"
    cli nfs-cp "$u/sparse.img" "$WORK/cli/sparse.v3"
    cli nfs-cp "$WORK/cli/upload64k.bin" "$u/upload64k.v3"
    cli_try nfs-cat "$u/missing.txt" >/dev/null 2>&1
    cap_stop "$c"
    cmp "$WORK/cli/medium.v3" "$WORK/export/medium.bin"
    cmp "$WORK/cli/upload64k.bin" "$WORK/export/upload64k.v3"
    mv "$f" "$OUT/"
}

cap_nfsv40_tcp() {
    local u=nfs://$SRV4/export f=$WORK/nfsv40-tcp.pcap c
    cap_start c $NS_CLI nsc-s "$f"
    cli nfs-ls "$u/?version=4"
    cli nfs-ls "$u/subdir?version=4"
    cli nfs-cat "$u/hello.txt?version=4" >/dev/null
    cli nfs-cp "$u/medium.bin?version=4" "$WORK/cli/medium.v40"
    cli_try nfs-cat "$u/missing.txt?version=4" >/dev/null 2>&1
    cap_stop "$c"
    cmp "$WORK/cli/medium.v40" "$WORK/export/medium.bin"
    mv "$f" "$OUT/"
    rm -f "$OUT/nfsv40-tcp.pcapng"
    editcap -F pcapng "$OUT/nfsv40-tcp.pcap" "$OUT/nfsv40-tcp.pcapng"
}

# The same NFSv3 traffic captured at once on both veth ends: full and -s 200.
cap_twin() {
    local u=nfs://$SRV4/export a b
    cap_start a $NS_CLI nsc-s "$WORK/twin-full.pcap" -s 0
    cap_start b $NS_SRV nss-c "$WORK/twin-s200.pcap" -s 200
    cli nfs-cp "$WORK/cli/upload1m.bin" "$u/upload1m.twin"
    cli nfs-cp "$u/big1m.bin" "$WORK/cli/big1m.twin"
    cap_stop "$a"; cap_stop "$b"
    cmp "$WORK/cli/upload1m.bin" "$WORK/export/upload1m.twin"
    cmp "$WORK/cli/big1m.twin" "$WORK/export/big1m.bin"
    mv "$WORK/twin-full.pcap" "$WORK/twin-s200.pcap" "$OUT/"
}

# Linux cooked captures (tcpdump -i any) in the client namespace; NFSv4.0 and
# NFSv3 over IPv6. tcpdump 4.99.3/libpcap 1.10.3 write LINUX_SLL2 for "any" by
# default (cooked-any.pcap); -y LINUX_SLL gives the v1 header (cooked-any-sll1.pcap).
cooked_workload() {
    local u="nfs://$SRV6/export"   # libnfs 4.0 rejects [v6] brackets; bare works
    cli nfs-ls "$u/?version=4"
    cli nfs-cat "$u/hello.txt?version=4" >/dev/null
    cli nfs-cat "$u/small.bin" >/dev/null
}
cap_cooked() {
    local c
    cap_start c $NS_CLI any "$WORK/cooked-any.pcap"
    cooked_workload
    cap_stop "$c"
    cap_start c $NS_CLI any "$WORK/cooked-any-sll1.pcap" -y LINUX_SLL
    cooked_workload
    cap_stop "$c"
    mv "$WORK/cooked-any.pcap" "$WORK/cooked-any-sll1.pcap" "$OUT/"
}

# NFSv3 over UDP with YANFS: a 200 KB read and write in 32 KiB RPCs (IP-fragmented).
cap_nfsv3_udp() {
    local u=nfs://$SRV4:2049v3um/export c
    mkdir -p "$WORK/java"
    javac -d "$WORK/java" -cp "$YANFS_JAR" "$LAB/YanfsDriver.java"
    chmod -R a+rX "$WORK/java"
    cap_start c $NS_CLI nsc-s "$WORK/nfsv3-udp.pcap"
    cli java -cp "$YANFS_JAR:$WORK/java" YanfsDriver \
        "$u" udp200k.bin "$WORK/cli/upload200k.bin" upload200k.udp
    cap_stop "$c"
    cmp "$WORK/cli/upload200k.bin" "$WORK/export/upload200k.udp"
    mv "$WORK/nfsv3-udp.pcap" "$OUT/"
}

# The same YANFS workload with 2 % of the server's IPv4 packets (mostly reply
# fragments) dropped by an nftables netdev egress rule on the server's veth end;
# the capture on the client end shows incomplete datagrams and retransmitted
# calls (rpc.dup). Loss is random, so re-recordings differ.
cap_nfsv3_udp_loss() {
    local u=nfs://$SRV4:2049v3um/export c
    mkdir -p "$WORK/java"
    [ -f "$WORK/java/YanfsDriver.class" ] || javac -d "$WORK/java" -cp "$YANFS_JAR" "$LAB/YanfsDriver.java"
    chmod -R a+rX "$WORK/java"
    ip netns exec $NS_SRV nft -f - <<NFT
table netdev nfsscope_loss {
    chain egress {
        type filter hook egress device "nss-c" priority 0;
        meta protocol ip numgen random mod 1000 < 20 counter drop
    }
}
NFT
    cap_start c $NS_CLI nsc-s "$WORK/nfsv3-udp-loss.pcap"
    cli java -cp "$YANFS_JAR:$WORK/java" YanfsDriver \
        "$u" udp200k.bin "$WORK/cli/upload200k.bin" upload200k.loss
    cap_stop "$c"
    ip netns exec $NS_SRV nft list table netdev nfsscope_loss | grep counter >&2 || true
    ip netns exec $NS_SRV nft delete table netdev nfsscope_loss
    cmp "$WORK/cli/upload200k.bin" "$WORK/export/upload200k.loss"
    mv "$WORK/nfsv3-udp-loss.pcap" "$OUT/"
}

# Higher loss for the UDP timing analysis (issue 4): 5 % of the server's IPv4
# packets dropped, so about 70 % of the 23-fragment READ replies lose a
# fragment and YANFS resends on its timeouts, several times per call. A
# smaller workload keeps the file under 1 MB: read medium.bin (100 KiB, 4 READs),
# write 64 KiB (2 WRITEs). Random: every recording differs.
cap_nfsv3_udp_loss5() {
    local u=nfs://$SRV4:2049v3um/export c
    mkdir -p "$WORK/java"
    [ -f "$WORK/java/YanfsDriver.class" ] || javac -d "$WORK/java" -cp "$YANFS_JAR" "$LAB/YanfsDriver.java"
    chmod -R a+rX "$WORK/java"
    ip netns exec $NS_SRV nft -f - <<NFT
table netdev nfsscope_loss {
    chain egress {
        type filter hook egress device "nss-c" priority 0;
        meta protocol ip numgen random mod 1000 < 50 counter drop
    }
}
NFT
    cap_start c $NS_CLI nsc-s "$WORK/nfsv3-udp-loss5.pcap"
    cli java -cp "$YANFS_JAR:$WORK/java" YanfsDriver \
        "$u" medium.bin "$WORK/cli/upload64k.bin" upload64k.loss5
    cap_stop "$c"
    ip netns exec $NS_SRV nft list table netdev nfsscope_loss | grep counter >&2 || true
    ip netns exec $NS_SRV nft delete table netdev nfsscope_loss
    cmp "$WORK/cli/upload64k.bin" "$WORK/export/upload64k.loss5"
    mv "$WORK/nfsv3-udp-loss5.pcap" "$OUT/"
}

# Workload through the PROXY_V4 ganesha (libnfs NFSv3 to its front; it talks
# NFSv4.1 to the server). $1 = tag for file names.
proxy_workload() {
    local u=nfs://$PRXC/export t=$1
    cli nfs-ls "$u/"
    cli nfs-cat "$u/hello.txt" >/dev/null
    cli nfs-cp "$u/medium.bin" "$WORK/cli/medium.$t"
    cli nfs-cp "$WORK/cli/upload64k.bin" "$u/upload64k.$t"
    cli_try nfs-cat "$u/missing-$t.txt" >/dev/null 2>&1
    cmp "$WORK/cli/medium.$t" "$WORK/export/medium.bin"
    cmp "$WORK/cli/upload64k.bin" "$WORK/export/upload64k.$t"
}

start_proxy() {
    write_proxy_conf "$WORK/proxy.conf"
    [ -n "${RPCBIND_PID[proxy]:-}" ] || start_rpcbind proxy $NS_PRX
    if [ "${1:-}" = nowait ]; then
        local logf=$WORK/proxy/ganesha.log
        : > "$logf"
        nsenter -t "${RPCBIND_PID[proxy]}" -m -n ganesha.nfsd -F -f "$WORK/proxy.conf" \
            -L "$logf" -p "$WORK/proxy/ganesha.pid" >>"$WORK/proxy/ganesha.out" 2>&1 &
        GANESHA_PID[proxy]=$!; PIDS+=($!)
        wait_listening proxy
    else
        start_ganesha proxy "$WORK/proxy.conf"
    fi
}

cap_nfsv41_proxy() {
    local c
    cap_start c $NS_PRX nsp-s "$WORK/nfsv41-proxy.pcap"
    start_proxy
    proxy_workload p41
    stop_ganesha proxy 3    # (ganesha 4.3 PROXY_V4 sends no DESTROY_SESSION/CLIENTID)
    cap_stop "$c"
    mv "$WORK/nfsv41-proxy.pcap" "$OUT/"
}

cap_nfsv41_restart() {
    local c i logf=$WORK/srv/ganesha.log
    cap_start c $NS_PRX nsp-s "$WORK/nfsv41-restart.pcap"
    start_proxy
    proxy_workload r1
    log "restarting the server ganesha"
    stop_ganesha srv
    nsenter -t "${RPCBIND_PID[srv]}" -m -n ganesha.nfsd -F -f "$WORK/srv.conf" -L "$logf.2" \
        -p "$WORK/srv/ganesha.pid" >>"$WORK/srv/ganesha.out" 2>&1 &
    GANESHA_PID[srv]=$!; PIDS+=($!)
    for i in $(seq 300); do grep -q 'NFS SERVER INITIALIZED' "$logf.2" 2>/dev/null && break; sleep 0.1; done
    # Phase 1: the running proxy finds its connection reset, reconnects, gets
    # BADSESSION and STALE_CLIENTID, redoes EXCHANGE_ID/CREATE_SESSION. (ganesha
    # 4.3's PROXY_V4 then keeps its old slot sequence ids and gets
    # NFS4ERR_SEQ_MISORDERED on every request: it never recovers.) The libnfs
    # requests through it fail meanwhile.
    for i in $(seq 7); do
        cli_try nfs-cat "nfs://$PRXC/export/hello.txt" >/dev/null 2>&1
        sleep 1
    done
    # Phase 2: a fresh proxy (new client) while the server is still in grace:
    # its OPENs get NFS4ERR_GRACE until the grace period ends.
    log "restarting the proxy (server still in grace)"
    stop_ganesha proxy 3
    start_proxy nowait
    for i in $(seq 40); do
        cli_try nfs-cat "nfs://$PRXC/export/hello.txt" >/dev/null 2>&1
        cli_try nfs-cp "$WORK/cli/upload64k.bin" "nfs://$PRXC/export/upload64k.grace$i" >/dev/null 2>&1
        grep -q 'NOT IN GRACE' "$logf.2" && break
        sleep 1
    done
    for i in $(seq 300); do grep -q 'NOT IN GRACE' "$logf.2" && break; sleep 0.1; done
    sleep 1
    # Phase 3: after grace, normal service.
    proxy_workload r3
    stop_ganesha proxy 3
    cap_stop "$c"
    cat "$logf.2" >> "$logf"; rm -f "$logf.2"
    mv "$WORK/nfsv41-restart.pcap" "$OUT/"
}

cap_nfsv41_slots10() {
    local c
    stop_ganesha srv
    rm -rf "$WORK/srv-recovery"        # no clients to wait for: no grace period
    write_server_conf "$WORK/srv.conf" 10
    start_ganesha srv "$WORK/srv.conf"
    cap_start c $NS_PRX nsp-s "$WORK/nfsv41-slots10.pcap"
    start_proxy
    proxy_workload s10
    stop_ganesha proxy 3
    cap_stop "$c"
    mv "$WORK/nfsv41-slots10.pcap" "$OUT/"
}

# ---------------------------------------------------------------- main ---
rm -rf "$WORK"
mkdir -p "$WORK"
chmod 0755 "$WORK"
setup_net
setup_export
write_server_conf "$WORK/srv.conf" 64
start_rpcbind srv $NS_SRV
start_ganesha srv "$WORK/srv.conf"

for cap in "${captures[@]}"; do
    log "capture: $cap"
    case $cap in
        nfsv3-tcp) cap_nfsv3_tcp ;;
        nfsv40-tcp) cap_nfsv40_tcp ;;
        twin) cap_twin ;;
        cooked) cap_cooked ;;
        nfsv3-udp) cap_nfsv3_udp ;;
        nfsv3-udp-loss) cap_nfsv3_udp_loss ;;
        nfsv3-udp-loss5) cap_nfsv3_udp_loss5 ;;
        nfsv41-proxy) cap_nfsv41_proxy ;;
        nfsv41-restart) cap_nfsv41_restart ;;
        nfsv41-slots10) cap_nfsv41_slots10 ;;
        hold) log "holding for ${HOLD:-600}s (debug)"; sleep "${HOLD:-600}" ;;
        *) echo "unknown capture $cap" >&2; exit 2 ;;
    esac
done

chmod 0644 "$OUT"/*.pcap "$OUT"/*.pcapng 2>/dev/null || true
log "done"
ls -l "$OUT"/*.pcap* >&2

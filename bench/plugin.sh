#!/usr/bin/env bash
# What the Wireshark plugin costs inside tshark: time and peak memory of
# tshark on one capture replicated from samples/ (bench/pcap_replicate.c),
# without the plugin, with it (single pass), and with it two-pass (-2).
#   bench/plugin.sh [BUILD_DIR [SIZE_MB]]     defaults: build, 40
# As root tshark ignores plugin folders, so tshark runs as nobody.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$ROOT/build} size=${2:-40}
so=$build/dissector/4.0/epan/nfsscope.so
[ -f "$so" ] || { echo "bench/plugin.sh: $so not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/plugins/4.0/epan" "$tmp/none/4.0/epan" "$tmp/home"
cp "$so" "$tmp/plugins/4.0/epan/"
cc -O2 -o "$tmp/pcap_replicate" "$ROOT/bench/pcap_replicate.c" -lpcap
"$tmp/pcap_replicate" -o "$tmp/bench.pcap" -S "$size" "$ROOT"/samples/*.pcap 2>"$tmp/replicate.log"
tail -1 "$tmp/replicate.log"
chmod -R a+rX "$tmp"
run=()
if [ "$(id -u)" -eq 0 ] || [ "$(id -g)" -eq 0 ]; then chown nobody: "$tmp/home"; run=(runuser -u nobody --); fi

row() {
  local name=$1 dir=$2; shift 2
  /usr/bin/time -f "%e %M" -o "$tmp/t" "${run[@]}" env HOME="$tmp/home" WIRESHARK_PLUGIN_DIR="$dir" \
    tshark -n -r "$tmp/bench.pcap" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  read -r secs kib <"$tmp/t"
  printf '%-40s %8.2f s %8d MiB peak\n' "$name" "$secs" $((kib / 1024))
}
echo "tshark -T fields -e frame.number -e tcp.len ($(du -m "$tmp/bench.pcap" | cut -f1) MB capture)"
row "without the plugin" "$tmp/none" -T fields -e frame.number -e tcp.len
row "with the plugin" "$tmp/plugins" -T fields -e frame.number -e nfsscope.finding
row "with the plugin, -2" "$tmp/plugins" -2 -T fields -e frame.number -e nfsscope.finding
row "with the plugin, -z nfsscope,findings" "$tmp/plugins" -q -z nfsscope,findings

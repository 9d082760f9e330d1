#!/usr/bin/env bash
# Install the Debian 12 packages nfsscope needs to build and test.
set -euo pipefail
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
# iproute2, tcpreplay: the live tests (veth + namespaces); tcpdump: bench/live.sh; tmux: screen tests
# chromium: the HTML page in a browser; prometheus (brings promtool): the metrics tests
PKGS=(build-essential cmake pkg-config libpcap-dev libncurses-dev tshark python3 clang time iproute2 tcpreplay tcpdump tmux chromium prometheus)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ] || [ "${NFSSCOPE_FORCE_APT:-0}" = 1 ]; then
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${PKGS[@]}"
fi

#!/usr/bin/env bash
# Install the Debian 12 packages nfsscope needs.
#   scripts/deps.sh         to build and run the whole test suite (CI)
#   scripts/deps.sh --run   only to build and run the program (scripts/sample.sh)
set -euo pipefail
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
# the program: compiler, build system, libpcap, ncurses (the live screen)
RUN_PKGS=(build-essential cmake pkg-config libpcap-dev libncurses-dev)
# the tests: tshark (expected values), python3 (checkers), clang (fuzzers),
# time; iproute2, tcpreplay: the live tests (veth + namespaces); tcpdump:
# bench/live.sh; tmux: screen tests; dpkg-dev: the Debian package test;
# wireshark-dev, libwireshark-dev, libglib2.0-dev: the Wireshark plugin
# (dissector/) and its tshark tests; chromium: the HTML page in a browser;
# prometheus (brings promtool): the metrics tests
TEST_PKGS=(tshark python3 clang time iproute2 tcpreplay tcpdump tmux dpkg-dev libwireshark-dev wireshark-dev libglib2.0-dev chromium prometheus)
PKGS=("${RUN_PKGS[@]}")
[ "${1:-}" = --run ] || PKGS+=("${TEST_PKGS[@]}")
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ] || [ "${NFSSCOPE_FORCE_APT:-0}" = 1 ]; then
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${PKGS[@]}"
fi

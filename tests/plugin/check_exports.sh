#!/bin/sh
# The plugin exports Wireshark's loader entry points and nothing else (not
# the core's ns_* API nor the report printers it links in).
# Usage: check_exports.sh NM PLUGIN_SO
set -eu
nm=$1 so=$2
got=$("$nm" -D --defined-only "$so" | awk 'NF == 3 {print $3}' | sort | tr '\n' ' ')
want="plugin_register plugin_version plugin_want_major plugin_want_minor "
if [ "$got" != "$want" ]; then
  echo "$so exports: $got"; echo "expected:     $want"; exit 1
fi
echo "$so exports only: $got"

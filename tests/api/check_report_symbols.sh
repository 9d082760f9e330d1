#!/bin/sh
# The report archive's symbols (nm): every global it defines is
# ns_report_-prefixed (declared in nfsscope/report.h), and every ns_* it
# needs is one the core archive exports (the public API, nothing private).
# Usage: check_report_symbols.sh NM REPORT_ARCHIVE CORE_ARCHIVE
set -eu
nm=$1 rep=$2 core=$3
bad=$("$nm" -g --defined-only "$rep" | awk 'NF == 3 && $3 !~ /^ns_report_/ {print $3}')
if [ -n "$bad" ]; then
  echo "globals without the ns_report_ prefix in $rep:"; echo "$bad"; exit 1
fi
n=$("$nm" -g --defined-only "$rep" | awk 'NF == 3' | wc -l)
[ "$n" -gt 5 ] || { echo "only $n globals in $rep: is it the report library?"; exit 1; }
"$nm" -g --defined-only "$core" | awk 'NF == 3 {print $3}' | sort -u >"${TMPDIR:-/tmp}/core.$$"
missing=$("$nm" -u "$rep" | awk 'NF >= 2 && $2 ~ /^ns_/ {print $2}' | sort -u | comm -23 - "${TMPDIR:-/tmp}/core.$$")
rm -f "${TMPDIR:-/tmp}/core.$$"
if [ -n "$missing" ]; then
  echo "$rep needs ns_* symbols the core does not export:"; echo "$missing"; exit 1
fi
echo "$rep: $n ns_report_* globals, no other globals, only the core's public API used"

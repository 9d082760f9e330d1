#!/bin/sh
# One latency-unit rule (issue 23): the text report and the HTML page print
# their latency tables by the same code, analyzer/units/latency_units.c,
# built into both libraries, rather than each by a copy (html_units.c kept
# one: a change to the rule in one printer would have left the other behind).
#   - both archives define time_unit_for, fmt_percentile_within and fmt_exact,
#     the report's made local by its relink (it exports only ns_report_*);
#   - no other source under analyzer/ holds the rule's thresholds (10 ms and
#     100 s in nanoseconds, as the rule writes them).
# Usage: check_unit_rule.sh NM REPORT_ARCHIVE OUTPUT_ARCHIVE SOURCE_DIR
set -eu
nm=$1 rep=$2 out=$3 src=$4
for a in "$rep" "$out"; do
  for f in time_unit_for fmt_percentile_within fmt_exact; do
    "$nm" --defined-only "$a" | awk -v f="$f" '$3 == f {ok = 1} END {exit !ok}' ||
      { echo "FAIL: $a does not define $f (the shared rule, analyzer/units)"; exit 1; }
  done
done
copies=$(grep -rlE '100000000000ull|10000000ull' "$src/analyzer" --include='*.c' | sed "s|^$src/||" | sort)
if [ "$copies" != "analyzer/units/latency_units.c" ]; then
  echo "FAIL: the latency-unit rule is written in:"; echo "$copies"; exit 1
fi
echo "PASS: one latency-unit rule (analyzer/units/latency_units.c), built into the report and the page"

#!/bin/sh
# The core archive's symbols (nm): every global it defines is ns_-prefixed,
# and everything it needs from outside is memory, string or formatting (it
# formats packet times with gmtime_r and strftime; reading the clock is
# what is banned) -
# no output, file, clock, process or capture function (the core never
# prints, never reads files, never looks at the wall clock).
# Usage: check_symbols.sh NM ARCHIVE
set -eu
nm=$1 ar=$2
bad=$("$nm" -g --defined-only "$ar" | awk 'NF == 3 && $3 !~ /^ns_/ {print $3}')
if [ -n "$bad" ]; then
  echo "globals without the ns_ prefix in $ar:"; echo "$bad"; exit 1
fi
n=$("$nm" -g --defined-only "$ar" | awk 'NF == 3' | wc -l)
[ "$n" -gt 20 ] || { echo "only $n globals in $ar: is it the core?"; exit 1; }
allowed='^(_GLOBAL_OFFSET_TABLE_|calloc|malloc|realloc|free|memcmp|memcpy|memmove|memset|memchr|qsort|bsearch|snprintf|vsnprintf|strcmp|strncmp|strlen|strnlen|strncpy|strchr|strrchr|strstr|strcspn|strspn|gmtime_r|strftime|__stack_chk_fail|__(asan|ubsan|sanitizer|sancov)_.*|__asan.*)$'
foreign=$("$nm" -u "$ar" | awk 'NF >= 2 {print $2}' | sort -u | grep -Ev "$allowed" || true)
if [ -n "$foreign" ]; then
  echo "$ar needs functions the core must not use:"; echo "$foreign"; exit 1
fi
echo "$ar: $n ns_* globals, no other globals, no I/O, clock or capture calls"

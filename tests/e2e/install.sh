#!/usr/bin/env bash
# cmake --install into a scratch prefix: the program runs from there, the man
# page and docs are there, and a program built against the installed core
# library with pkg-config alone (nothing from the source tree) links and runs;
# so does one built against the report library, which prints what the
# installed nfsscope prints (tests/api/report_frontend.sh).
#   install.sh BUILD_DIR VERSION [CC_FLAGS]
# CC_FLAGS: what a sanitized build's archives need to link (-fsanitize=...).
set -u
B=$(realpath "$1") V=$2 X=${3:-}
S=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
cmake --install "$B" --prefix "$T/p" >"$T/log" 2>&1 || { cat "$T/log"; echo "FAIL: cmake --install"; exit 1; }
# everything lands under the prefix: a scratch install must not touch the
# system (the Wireshark plugin's folder was once absolute)
outside=$(sed -n 's/^-- \(Installing\|Up-to-date\): //p' "$T/log" | grep -v "^$T/p/" | head -3)
[ -z "$outside" ] && ok "every file under the prefix" || bad "installed outside the prefix: $outside"
v=$("$T/p/bin/nfsscope" --version)
[ "$v" = "nfsscope $V" ] && ok "installed bin/nfsscope --version: $v" || bad "bin/nfsscope --version: '$v'"
for f in share/man/man1/nfsscope.1 share/doc/nfsscope/README.md share/doc/nfsscope/doc/findings.md \
         share/doc/nfsscope/doc/json-report.md share/doc/nfsscope/doc/txn-log.md share/doc/nfsscope/doc/architecture.md \
         include/nfsscope/nfsscope.h include/nfsscope/view.h; do
  [ -s "$T/p/$f" ] || bad "not installed: $f"
done
ok "man page, docs and headers installed"
# every doc the installed README links to (and they to others) is installed
python3 "$S/tests/e2e/doc_links.py" "$T/p/share/doc/nfsscope/README.md" >"$T/links" &&
  ok "every link of the installed README resolves ($(grep -c '^ok' "$T/links") links)" ||
  bad "installed docs: $(grep FAIL "$T/links" | tr '\n' ' ')"
pc=$(find "$T/p" -name nfsscope.pc | head -1)
[ -n "$pc" ] || { bad "no nfsscope.pc"; exit 1; }
cat >"$T/use.c" <<'C'
#include <stdio.h>
#include <nfsscope/nfsscope.h>
int main(void)
{
    struct ns_config cfg = NS_CONFIG_INIT;
    char err[NS_ERRBUF_SIZE];
    ns_analyzer *a = ns_analyzer_new(&cfg, err, sizeof err);
    if (!a) { fprintf(stderr, "%s\n", err); return 1; }
    ns_analyzer_finish(a);
    printf("%s %llu\n", ns_version(), (unsigned long long)ns_analyzer_stats(a)->frames);
    ns_analyzer_free(a);
    return 0;
}
C
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs nfsscope) || { bad "pkg-config nfsscope"; exit 1; }
# the paths pkg-config prints are the install's, without a detour through
# lib/pkgconfig/../.. (what a person copies into a Makefile)
want="-I$T/p/include -L$T/p/lib -lnfsscope_core"
# shellcheck disable=SC2086
[ "$(echo $flags)" = "$want" ] && ok "pkg-config --cflags --libs nfsscope: $flags" ||
  bad "pkg-config --cflags --libs nfsscope: '$flags', want '$want'"
# shellcheck disable=SC2086
if cc -std=c11 -Wall -Werror $X -o "$T/use" "$T/use.c" $flags 2>"$T/cc.log"; then
  out=$("$T/use")
  [ "$out" = "$V 0" ] && ok "a program built with pkg-config --cflags --libs nfsscope ($flags) runs: $out" || bad "library program printed '$out'"
else bad "building against the installed library: $(cat "$T/cc.log")"; fi
"$S/tests/api/report_frontend.sh" "$T/p" "$S" "$X" || fail=1
exit $fail

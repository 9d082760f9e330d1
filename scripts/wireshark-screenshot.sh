#!/usr/bin/env bash
# Screenshot of Wireshark's GUI (under Xvfb) with the nfsscope plugin on a
# capture: the packet list with nfsscope columns, the nfsscope subtree of one
# frame expanded, and the Expert Information dialog below it. Run by hand
# (not in CI); the picture is kept in doc/ and shown in the README.
#   scripts/wireshark-screenshot.sh [BUILD_DIR [CAPTURE [FRAME [OUT.png]]]]
# Defaults: build, the thread-000 sample, frame 16, doc/wireshark-plugin.png.
# Installs what it needs (wireshark-qt, xvfb, xdotool, imagemagick) when
# missing. As root, Wireshark ignores plugin folders, so Wireshark runs as
# nobody with its own HOME; look at the picture before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} cap=${2:-samples/seed-000-nconnect-misbind.pcap} frame=${3:-16} out=${4:-doc/wireshark-plugin.png}
so=$build/dissector/4.0/epan/nfsscope.so
[ -f "$so" ] || { echo "wireshark-screenshot.sh: $so not built (cmake --build $build)" >&2; exit 1; }
[ -r "$cap" ] || { echo "wireshark-screenshot.sh: $cap: cannot read" >&2; exit 1; }

if [ "${1:-}" != --inner ]; then
  need=()
  for p in wireshark-qt xvfb xdotool imagemagick; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  if [ "${#need[@]}" -gt 0 ]; then
    SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
  fi
fi

tmp=$(mktemp -d)
trap 'kill "$xvfb" "$ws" 2>/dev/null || true; rm -rf "$tmp"' EXIT
xvfb= ws=
mkdir -p "$tmp/plugins/4.0/epan" "$tmp/home"
cp "$so" "$tmp/plugins/4.0/epan/"
cp "$cap" "$tmp/"
chmod -R a+rX "$tmp"
run=()
if [ "$(id -u)" -eq 0 ] || [ "$(id -g)" -eq 0 ]; then
  chown nobody: "$tmp/home"
  run=(runuser -u nobody --)
fi

# A display of our own: the first free number from 90.
d=90
while [ -e /tmp/.X11-unix/X$d ] || [ -e /tmp/.X$d-lock ]; do d=$((d + 1)); done
Xvfb ":$d" -screen 0 1600x1100x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY=:$d
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.2; done

cols='"No.","%m","Time","%t","Source","%s","Destination","%d","Protocol","%p",'
cols+='"nfsscope conn","%Cus:nfsscope.conn:0:R","slot verdict","%Cus:nfsscope.slot.verdict:0:R",'
cols+='"nfsscope finding","%Cus:nfsscope.finding:0:R","Info","%i"'
"${run[@]}" env HOME="$tmp/home" WIRESHARK_PLUGIN_DIR="$tmp/plugins" LC_ALL=C.UTF-8 \
  wireshark -r "$tmp/$(basename "$cap")" -g "$frame" -z expert \
  -o "gui.column.format:$cols" -o gui.layout_content_3:NONE >"$tmp/wireshark.log" 2>&1 &
ws=$!

# Wait for both windows, then lay them out: main on top, dialog below.
name=$(basename "$cap")
main= dlg=
for _ in $(seq 150); do
  main=$(xdotool search --name "^$name\$" 2>/dev/null | head -1 || true)
  dlg=$(xdotool search --name "Expert Information" 2>/dev/null | head -1 || true)
  [ -n "$main" ] && [ -n "$dlg" ] && break
  sleep 0.2
done
[ -n "$main" ] && [ -n "$dlg" ] || { echo "wireshark-screenshot.sh: Wireshark's windows did not appear" >&2; cat "$tmp/wireshark.log" >&2; exit 1; }
sleep 2
xdotool windowmove "$main" 0 0 windowsize "$main" 1600 800
xdotool windowmove "$dlg" 0 800 windowsize "$dlg" 1600 300
sleep 1
# The nfsscope subtree is the 7th (last) item of the packet details (frame,
# ethernet, IP, TCP, RPC, NFS, nfsscope): select the first, go down to it,
# expand it, then its slot and its finding (connection, transaction, XID,
# message, session, slot, finding: the slot is 6 down, the finding 6 below
# the slot once the slot is open).
xdotool mousemove 300 445 click 1
sleep 0.5
xdotool key --delay 150 Down Down Down Down Down Down Right
xdotool key --delay 150 Down Down Down Down Down Down Right
xdotool key --delay 150 Down Down Down Down Down Down Right
sleep 0.5
# The dialog: list each item under its severity ("Group by summary" off),
# then open the Error group.
geo=$(xdotool getwindowgeometry --shell "$dlg")
eval "$geo"
echo "dialog at $X,$Y ${WIDTH}x$HEIGHT"
xdotool mousemove $((X + 207)) $((Y + HEIGHT - 55)) click 1   # Group by summary
sleep 0.5
xdotool mousemove $((X + 22)) $((Y + 41)) click 1               # the first (Error) group's arrow
sleep 1
/usr/bin/import -window root "$tmp/full.png"
# Kept small for the docs (under 200 KB): without the menu, tool and filter
# bars, the dialog's buttons and the right end of the Info column, in 64
# colours (a window's flat colours lose nothing).
convert "$tmp/full.png" -crop 1470x912+0+93 +repage -colors 64 -define png:compression-level=9 "$out"
echo "wrote $out ($(stat -c %s "$out") bytes): look at it"

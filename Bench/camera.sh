#!/bin/sh
# make bench-camera: frames per second of `isbnscan camera` on the fake V4L2 device (Tests/FakeV4L2),
# 1280x720 YUYV delivered as fast as asked (FAKE_V4L2_FPS=0), band region of interest, without and
# with --preview. The preview's window goes to $DISPLAY, or to an Xvfb started here.
# Usage: Bench/camera.sh <isbnscan binary> <libfakev4l2.so> <frames>
set -u
BIN=$1 FAKE=$2 FRAMES=$3
XVFB_PID=
if [ -z "${DISPLAY:-}" ]; then
  ready=$(mktemp)
  Xvfb -displayfd 5 -screen 0 1600x1000x24 -nolisten tcp 5>"$ready" 2>/dev/null &
  XVFB_PID=$!
  i=0; while [ ! -s "$ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  DISPLAY=:$(cat "$ready"); export DISPLAY
  rm -f "$ready"
  trap 'kill $XVFB_PID 2>/dev/null' EXIT
fi

# run <label> <cpus> <frames> [options]: prints the summary line and sets RATE (frames/s).
run() {
  name=$1 cpus=$2 images=$3; shift 3
  line=$(LD_PRELOAD=$FAKE FAKE_V4L2_FRAMES=$images FAKE_V4L2_FPS=0 FAKE_V4L2_FORMATS=YUYV FAKE_V4L2_SIZES=1280x720 \
    SDL_VIDEODRIVER=x11 taskset -c "$cpus" "$BIN" camera --size 1280x720 --format YUYV --roi 0.05,0.4,0.9,0.15 \
    --continuous --max-frames "$FRAMES" "$@" 2>&1 >/dev/null | grep ' frames in ')
  RATE=$(echo "$line" | sed -n 's/.*(\([0-9.]*\) frames\/s.*/\1/p')
  # CPU ms per frame of the scanning thread: the process's without --preview, the session thread's with it.
  SCAN_MS=$(echo "$line" | sed -n 's/.*, \([0-9.]*\) ms of it on the scanning thread.*/\1/p')
  [ -n "$SCAN_MS" ] || SCAN_MS=$(echo "$line" | sed -n 's/.* \([0-9.]*\) ms CPU per frame.*/\1/p')
  echo "  $name: ${line#camera: }"
}

cost() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", (a - b) * 100 / a }'; }

echo "isbnscan camera, $FRAMES frames, 1280x720 YUYV, --roi 0.05,0.4,0.9,0.15 (DISPLAY=$DISPLAY):"
for case in "book in the band:TestImages/roi/band-inside.png" "no book:blank"; do
  label=${case%%:*} images=${case#*:}
  run "$label, one core, no preview" 0 "$images"; plain=$RATE plain_ms=$SCAN_MS
  run "$label, one core, --preview" 0 "$images" --preview; one=$RATE
  run "$label, two cores, --preview" 0,1 "$images" --preview; two=$RATE two_ms=$SCAN_MS
  echo "  $label: with --preview, $(cost "$plain" "$two") fewer frames/s on two cores, $(cost "$plain" "$one") on one core (wall clock: also counts other programs' load)"
  echo "  $label: the scanning thread's CPU per frame: $plain_ms ms without the preview, $two_ms ms with it: the preview costs the scanning $(cost "$(awk -v m="$plain_ms" 'BEGIN { print 1000 / m }')" "$(awk -v m="$two_ms" 'BEGIN { print 1000 / m }')") of the frames/s it can reach on a core of its own"
done

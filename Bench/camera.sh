#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make bench-camera: frames per second of `isbnscan camera` on the fake V4L2 device (Tests/FakeV4L2),
# 1280x720 YUYV delivered as fast as asked (FAKE_V4L2_FPS=0), band region of interest, without and
# with --preview. The preview's window goes to $DISPLAY, or to an Xvfb started here.
# Then realistic frames (Bench/make_camera_frames.py: a cover with text around and through the band,
# the barcode across it or none, slight blur, noise) at 1280x720 YUYV, 1280x720 MJPG and 1920x1080
# MJPG, one core, the band region: frames/s and CPU ms per frame, with the default spread scan and
# with --line-step 1 (every row and column of every frame); and with an older binary when
# BEFORE_BIN names one (e.g. a build from before issue 10's camera work: whole MJPG decodes too).
# Usage: Bench/camera.sh <isbnscan binary> <libfakev4l2.so> <frames> [<realistic frames folder>]
set -u
BIN=$1 FAKE=$2 FRAMES=$3 REAL=${4:-}
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

# REALISTIC_ONLY=1: only the realistic frames.
if [ "${REALISTIC_ONLY:-0}" != 1 ]; then
echo "isbnscan camera, $FRAMES frames, 1280x720 YUYV, --roi 0.05,0.4,0.9,0.15 (DISPLAY=$DISPLAY):"
for case in "book in the band:TestImages/roi/band-inside.png" "no book:blank"; do
  label=${case%%:*} images=${case#*:}
  run "$label, one core, no preview" 0 "$images"; plain=$RATE plain_ms=$SCAN_MS
  run "$label, one core, --preview" 0 "$images" --preview; one=$RATE
  run "$label, two cores, --preview" 0,1 "$images" --preview; two=$RATE two_ms=$SCAN_MS
  echo "  $label: with --preview, $(cost "$plain" "$two") fewer frames/s on two cores, $(cost "$plain" "$one") on one core (wall clock: also counts other programs' load)"
  echo "  $label: the scanning thread's CPU per frame: $plain_ms ms without the preview, $two_ms ms with it: the preview costs the scanning $(cost "$(awk -v m="$plain_ms" 'BEGIN { print 1000 / m }')" "$(awk -v m="$two_ms" 'BEGIN { print 1000 / m }')") of the frames/s it can reach on a core of its own"
done
fi

[ -n "$REAL" ] || exit 0
# realistic <binary> <format> <WxH> <book|cover> [options]: one core, prints frames/s and CPU ms per frame.
realistic() {
  bin=$1 format=$2 size=$3 kind=$4; shift 4
  images=$(ls "$REAL"/"$size"-"$kind"-*.pgm | tr '\n' ':' | sed 's/:$//')
  line=$(LD_PRELOAD=$FAKE FAKE_V4L2_FRAMES=$images FAKE_V4L2_FRAMES_PER_IMAGE=1 FAKE_V4L2_FPS=0 FAKE_V4L2_FORMATS=$format \
    FAKE_V4L2_SIZES=$size taskset -c 0 "$bin" camera --size "$size" --format "$format" --continuous \
    --max-frames "$FRAMES" "$@" 2>&1 >/dev/null | grep ' frames in ')
  rate=$(echo "$line" | sed -n 's/.*(\([0-9.]*\) frames\/s.*/\1/p')
  ms=$(echo "$line" | sed -n 's/.* \([0-9.]*\) ms CPU per frame.*/\1/p')
  printf '%8s fps %6s ms' "${rate:-?}" "${ms:-?}"
}
echo
echo "Realistic frames ($REAL), one core (taskset -c 0), band region, $FRAMES frames per run; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  frames/s and CPU ms per frame:  default (--line-step 2) | --line-step 1${BEFORE_BIN:+ | before ($BEFORE_BIN)}"
for case in "YUYV 1280x720" "MJPG 1280x720" "MJPG 1920x1080"; do
  set -- $case
  for kind in cover book; do
    printf '  %-15s %-6s' "$1 $2" "$kind:"
    realistic "$BIN" "$1" "$2" "$kind"; printf ' | '
    realistic "$BIN" "$1" "$2" "$kind" --line-step 1
    if [ -n "${BEFORE_BIN:-}" ]; then printf ' | '; realistic "$BEFORE_BIN" "$1" "$2" "$kind"; fi
    echo
  done
done

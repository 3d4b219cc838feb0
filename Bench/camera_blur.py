#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Time to the first ISBN for blurred books held in front of a webcam (make bench-camera).

    camera_blur.py --binary BIN --fake libfakev4l2.so --sets DIR [--timeout 10] [--label L --args "..."]...

Each sequence of Bench/make_camera_blur.py (DIR/tune and DIR/holdout) is served by the fake V4L2 device
as 1280x720 YUYV at 30 frames/s, looped, to `isbnscan camera --json` on one core (taskset -c 0). The
time is the wall clock from starting isbnscan to its first ISBN on stdout (start-up included), the frame
the one that printed it; the CPU per frame is the summary's. A run that prints nothing within --timeout
seconds counts as not read (979 ISBNs are accepted: some of the books have one); an ISBN other than the sequence's is a wrong ISBN. Each --label/--args pair
is one configuration (default: the default options, then --effort normal).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as B  # noqa: E402

TARGET_S = 2.0


def read_truth(part_dir):
    rows = []
    with open(os.path.join(part_dir, "truth.tsv")) as f:
        next(f)
        for line in f:
            seq, expected, detail = line.rstrip("\n").split("\t")
            info = dict(kv.split("=", 1) for kv in detail.split())
            rows.append((seq, expected, info))
    return rows


def run_sequence(binary, fake, frames, extra, timeout):
    env = dict(os.environ, LD_PRELOAD=fake, FAKE_V4L2_FRAMES=":".join(frames), FAKE_V4L2_FRAMES_PER_IMAGE="1",
               FAKE_V4L2_LOOP="1", FAKE_V4L2_FPS="30", FAKE_V4L2_FORMATS="YUYV", FAKE_V4L2_SIZES="1280x720")
    # The sequences' books include 979 ISBNs.
    cmd = ["taskset", "-c", "0", binary, "camera", "--size", "1280x720", "--format", "YUYV", "--json",
           "--accept", "979", "--timeout", str(timeout)] + extra
    start = time.monotonic()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    seconds = time.monotonic() - start
    _, err = p.communicate()
    isbn = frame = None
    if line.strip():
        obj = json.loads(line)
        isbns = obj.get("isbns") or [{}]
        isbn, frame = isbns[0].get("isbn13"), obj.get("frame")
    else:
        seconds = None
    m = re.search(r" ([0-9.]+) ms CPU per frame", err)
    return isbn, seconds, frame, float(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--fake", required=True)
    ap.add_argument("--sets", required=True)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--label", action="append", default=[])
    ap.add_argument("--args", action="append", default=[])
    ap.add_argument("--binary-for-label", action="append", default=[], metavar="LABEL=BIN",
                    help="run that configuration with another binary (an older build, to compare)")
    a = ap.parse_args()
    configs = list(zip(a.label, a.args)) or [("default", ""), ("--effort normal", "--effort normal")]
    binaries = dict(kv.split("=", 1) for kv in a.binary_for_label)
    print("Blurred books at 30 frames/s (Bench/make_camera_blur.py: 1.6-3 px/module, disk defocus radius "
          "1-2 modules, a hand's jitter), 1280x720 YUYV, one core; time to the first ISBN (start-up "
          "included), its frame, CPU ms per frame; '-' = nothing within %gs. Load: %s"
          % (a.timeout, open("/proc/loadavg").read().split()[0:3]))
    for part in ("tune", "holdout"):
        part_dir = os.path.join(a.sets, part)
        rows = read_truth(part_dir)
        table, totals = [], {label: [0, 0, []] for label, _ in configs}
        for seq, expected, info in rows:
            frames = sorted(os.path.join(part_dir, seq, f) for f in os.listdir(os.path.join(part_dir, seq)))
            cells = [seq, info["module_px"], info["radius_modules"]]
            for label, extra in configs:
                isbn, seconds, frame, cpu = run_sequence(binaries.get(label, a.binary), a.fake, frames, extra.split(), a.timeout)
                t = totals[label]
                if isbn and isbn != expected:
                    t[1] += 1
                    cells.append("WRONG %s" % isbn)
                elif isbn:
                    t[0] += seconds <= TARGET_S
                    t[2].append(seconds)
                    cells.append("%.2fs f%s %sms" % (seconds, frame, cpu))
                else:
                    cells.append("- %sms" % cpu)
            table.append(cells)
        print("\n%s (%d sequences):" % (part, len(rows)))
        print(B.table(["sequence", "px/module", "radius"] + [label for label, _ in configs], table))
        for label, _ in configs:
            within, wrong, times = totals[label]
            median = sorted(times)[len(times) // 2] if times else None
            print("  %s: read within %gs %d/%d, read at all %d/%d, median %s, wrong ISBNs %d"
                  % (label, TARGET_S, within, len(rows), len(times), len(rows),
                     "%.2fs" % median if median is not None else "-", wrong))
    return 0


if __name__ == "__main__":
    sys.exit(main())

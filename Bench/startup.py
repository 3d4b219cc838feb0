#!/usr/bin/env python3
"""Per-call cost (make bench): one small photo per invocation, isbnscan vs zbarimg, paired runs.

    startup.py --bin .build/release/isbnscan [--runs N] [FILE ...]

People call a scanner once per file from scripts (find -exec, a shell loop, a file-manager
action), so start-up is part of the job.  For each file (default: a 501x312 PNG and JPEG from
TestImages/isbn) the two tools run alternately, N times each (default 41), after two warm-up
calls; wall time per call from time.perf_counter around the child's whole life, with its
output discarded.  Prints the median and inter-quartile range per tool, the median of the
paired ratios isbnscan / zbarimg, and PASS/FAIL against the target (at most 0.6x zbarimg).
`isbnscan --version` is timed too: the start-up alone.  Standard library only.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

TARGET_RATIO = 0.6
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FILES = [os.path.join(HERE, "..", "TestImages", "isbn", name) for name in ("png-gray8.png", "jpeg-rgb.jpg")]


def call(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - start) * 1000


def quartiles(values):
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def paired(cmd_a, cmd_b, runs):
    for _ in range(2):
        call(cmd_a)
        call(cmd_b)
    a, b = [], []
    for i in range(runs):
        # Alternate which goes first, so that neither always runs on a cache the other warmed.
        if i % 2 == 0:
            a.append(call(cmd_a))
            b.append(call(cmd_b))
        else:
            b.append(call(cmd_b))
            a.append(call(cmd_a))
    return a, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=".build/release/isbnscan")
    ap.add_argument("--runs", type=int, default=41)
    ap.add_argument("files", nargs="*", default=DEFAULT_FILES)
    a = ap.parse_args()
    zbarimg = "/usr/bin/zbarimg"
    if not os.access(zbarimg, os.X_OK):
        sys.exit("startup.py: %s is missing (apt install zbar-tools, or make bench-deps)" % zbarimg)

    print("== make bench: per-call time, one small photo per invocation (%d paired runs, median) ==" % a.runs)
    rows, ok = [], True
    for path in a.files:
        name = os.path.basename(path)
        ours, theirs = paired([a.bin, "scan", path], [zbarimg, "-q", path], a.runs)
        ratio = statistics.median(x / y for x, y in zip(ours, theirs))
        ok = ok and ratio <= TARGET_RATIO
        rows.append((name, ours, theirs, ratio))
    version = [call([a.bin, "--version"]) for _ in range(a.runs)]

    print("$ %s scan FILE   vs   %s -q FILE" % (a.bin, zbarimg))
    print("%-16s %22s %22s %8s" % ("file", "isbnscan ms (IQR)", "zbarimg ms (IQR)", "ratio"))
    for name, ours, theirs, ratio in rows:
        lo, hi = quartiles(ours)
        zlo, zhi = quartiles(theirs)
        print("%-16s %8.1f (%5.1f-%5.1f) %8.1f (%5.1f-%5.1f) %7.2fx" % (
            name, statistics.median(ours), lo, hi, statistics.median(theirs), zlo, zhi, ratio))
    lo, hi = quartiles(version)
    print("%-16s %8.1f (%5.1f-%5.1f)" % ("--version", statistics.median(version), lo, hi))
    print("%s: per-call ratio at most %.1fx zbarimg's on every file" % ("PASS" if ok else "FAIL", TARGET_RATIO))


if __name__ == "__main__":
    main()

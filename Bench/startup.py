#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Per-call cost (make bench): one small photo per invocation, isbnscan vs zbarimg, paired runs.

    startup.py --bin .build/static/release/isbnscan [--bin OTHER ...] [--runs N] [FILE ...]

People call a scanner once per file from scripts (find -exec, a shell loop, a file-manager
action), so start-up is part of the job.  For each file (default: a 501x312 PNG and JPEG from
TestImages/isbn) zbarimg and each binary run in turn, N rounds (default 41; the order rotates
every round, so that none always runs on a cache another warmed), after two warm-up rounds;
wall time per call from time.perf_counter around the child's whole life, with its output
discarded.  Prints the median and inter-quartile range per tool, the median of the paired ratios
binary / zbarimg (same round), and PASS/FAIL against the target (at most 0.6x zbarimg) for the
first binary (make bench: the one `make install` installs).  `isbnscan --version` is timed too:
the start-up alone.  Standard library only.
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


def rounds(commands, runs):
    """Times of each command over `runs` rounds, every command once per round."""
    for _ in range(2):
        for cmd in commands:
            call(cmd)
    times = [[] for _ in commands]
    for i in range(runs):
        # Rotate who goes first, so that none always runs on a cache the others warmed.
        for k in range(len(commands)):
            j = (i + k) % len(commands)
            times[j].append(call(commands[j]))
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", action="append", help="isbnscan binary (repeat to compare several; the first is judged)")
    ap.add_argument("--runs", type=int, default=41)
    ap.add_argument("files", nargs="*", default=DEFAULT_FILES)
    a = ap.parse_args()
    bins = a.bin or [".build/release/isbnscan"]
    zbarimg = "/usr/bin/zbarimg"
    if not os.access(zbarimg, os.X_OK):
        sys.exit("startup.py: %s is missing (apt install zbar-tools, or make bench-deps)" % zbarimg)

    print("== make bench: per-call time, one small photo per invocation (%d rounds, median) ==" % a.runs)
    rows, ok = [], True
    for path in a.files:
        name = os.path.basename(path)
        times = rounds([[zbarimg, "-q", path]] + [[b, "scan", path] for b in bins], a.runs)
        theirs = times[0]
        for k, b in enumerate(bins):
            ours = times[k + 1]
            ratio = statistics.median(x / y for x, y in zip(ours, theirs))
            if k == 0:
                ok = ok and ratio <= TARGET_RATIO
            rows.append((name, b, ours, theirs, ratio))
    versions = rounds([[b, "--version"] for b in bins], a.runs)

    print("$ BIN scan FILE   vs   %s -q FILE" % zbarimg)
    print("%-16s %-34s %20s %20s %8s" % ("file", "binary", "isbnscan ms (IQR)", "zbarimg ms (IQR)", "ratio"))
    for name, b, ours, theirs, ratio in rows:
        lo, hi = quartiles(ours)
        zlo, zhi = quartiles(theirs)
        print("%-16s %-34s %6.1f (%5.1f-%5.1f) %6.1f (%5.1f-%5.1f) %7.2fx" % (
            name, b, statistics.median(ours), lo, hi, statistics.median(theirs), zlo, zhi, ratio))
    for b, version in zip(bins, versions):
        lo, hi = quartiles(version)
        print("%-16s %-34s %6.1f (%5.1f-%5.1f)" % ("--version", b, statistics.median(version), lo, hi))
    print("%s: per-call ratio of %s at most %.1fx zbarimg's on every file" % ("PASS" if ok else "FAIL", bins[0], TARGET_RATIO))


if __name__ == "__main__":
    main()

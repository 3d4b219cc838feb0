#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CPU time per file of two isbnscan binaries over the same files, side by side.

    cpu_per_file.py --before BIN --after BIN [--effort normal] [--rounds 5] FILE|DIR...

Each round runs `BIN scan --effort E FILES...` once per binary, alternating which goes first, and
takes the user + system seconds of that child (getrusage RUSAGE_CHILDREN): CPU time, which another
job on the machine disturbs far less than wall time. Prints the median per binary in ms per file
and the ratio after/before. Standard library only.
"""
import argparse, os, resource, statistics, subprocess, sys

IMAGE = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp", ".heic", ".pgm", ".ppm")


def files_of(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                out += [os.path.join(root, n) for n in sorted(names) if n.lower().endswith(IMAGE)]
        else:
            out.append(p)
    return out


def cpu_seconds(binary, effort, files):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([binary, "scan", "--effort", effort] + files, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--effort", default="normal")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = files_of(a.paths)
    if not files:
        sys.exit("cpu_per_file: no image files in %s" % " ".join(a.paths))
    runs = {"before": [], "after": []}
    for k in range(a.rounds):
        order = [("before", a.before), ("after", a.after)][:: 1 if k % 2 == 0 else -1]
        for label, binary in order:
            runs[label].append(cpu_seconds(binary, a.effort, files) / len(files) * 1000)
    b, f = statistics.median(runs["before"]), statistics.median(runs["after"])
    print("%d files, --effort %s, median of %d rounds: before %.1f ms/file, after %.1f ms/file, after/before %.2fx"
          % (len(files), a.effort, a.rounds, b, f, f / b))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Throughput benchmark (make bench): isbnscan vs zbarimg vs zxing-cpp on one folder of photos.

    throughput.py --bin .build/release/isbnscan --photos DIR --mem-photos DIR [--jobs N]

DIR is what Bench/make_photos.py wrote (DIR/images/*, DIR/truth.tsv).  Each tool reads every image of the
folder in ONE invocation; wall time and peak resident memory come from os.wait4 on that child process.
isbnscan runs with its default effort; when `isbnscan scan --help` mentions --jobs it is given the folder
and `-j N` (default: the number of cores), otherwise the file list.  zbarimg (zbar-tools) and the zxing-cpp
Python reader are single-threaded.  A second run measures isbnscan's peak RSS with -j 2 on 12-megapixel JPEGs.
Prints the command lines, a table, the ratios and PASS/FAIL against the targets of issue 3.
"""

import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as B  # noqa: E402

TARGET_VS_ZBAR = 8.0
TARGET_RSS_MB = 300.0


def isbnscan_cmd_args(images_dir, files, has_jobs, jobs):
    if has_jobs:
        return ["--json", "-q", "-j", str(jobs), images_dir]
    return ["--json", "-q"] + files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=".build/release/isbnscan")
    ap.add_argument("--photos", required=True)
    ap.add_argument("--mem-photos", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    a = ap.parse_args()

    truth = B.read_truth(os.path.join(a.photos, "truth.tsv"))
    images_dir = os.path.join(a.photos, "images")
    files = [r["file"] for r in truth]
    n = len(files)
    has_jobs = B.isbnscan_has_jobs(a.bin)
    zxing_version = B.zxing_available(sys.executable)
    mem_dir = os.path.join(a.mem_photos, "images")
    mem_files = sorted(glob.glob(os.path.join(mem_dir, "*")))

    print("== make bench: throughput on %s (%d images, %d cores) ==" % (images_dir, n, os.cpu_count()))
    print("zbarimg %s (single-threaded, all files in one invocation); zxing-cpp %s (Python reader, single-threaded)"
          % (B.zbarimg_version(), zxing_version or "not installed"))
    if has_jobs:
        print("isbnscan: default effort, folder mode with -j %d" % a.jobs)
    else:
        print("isbnscan: default effort; this build has no --jobs, so it gets the file list (one worker)")
    print()

    runs = []
    runs.append(B.run_isbnscan(a.bin, isbnscan_cmd_args(images_dir, files, has_jobs, a.jobs)))
    runs.append(B.run_zbarimg(files, addons=False))
    if zxing_version:
        runs.append(B.run_zxing(sys.executable, files, addons=False))
    else:
        print("NOTE: zxing-cpp is not installed (pip install failed or offline): its column is skipped.\n")

    for r in runs:
        print("$ " + B.shell_join(r.cmd))
    print()

    rows, result = [], {}
    for r in runs:
        ok, wrong, _ = B.score(truth, r.reads)
        result[r.tool] = {"decoded": ok, "wrong": wrong, "seconds": r.seconds, "ips": n / r.seconds,
                          "rss": r.peak_rss_mb}
        rows.append([r.tool, n, ok, wrong, "%.2f" % r.seconds, "%.2f" % (n / r.seconds), "%.0f" % r.peak_rss_mb])
    print(B.table(["tool", "images", "decoded", "wrong", "seconds", "images/s", "peak RSS MB"], rows))
    for r in runs:
        if r.note:
            print("note: %s: %s" % (r.tool, r.note))
        _, _, ok_files = B.score(truth, r.reads)
        missed = [os.path.basename(x["file"]) for x in truth if x["file"] not in ok_files]
        if missed:
            print("%s misses (%d): %s%s" % (r.tool, len(missed), " ".join(missed[:25]), " ..." if len(missed) > 25 else ""))
    print("decoded = the expected EAN-13/EAN-8 read (any verdict); wrong = images with a reading but not the right one")
    print()

    # Memory: isbnscan with -j 2 on 12-megapixel JPEGs.
    mem_args = ["--json", "-q"] + (["-j", "2", mem_dir] if has_jobs else mem_files)
    mem = B.run_isbnscan(a.bin, mem_args, label="isbnscan 12MP")
    mem_truth = B.read_truth(os.path.join(a.mem_photos, "truth.tsv"))
    mem_ok, mem_wrong, _ = B.score(mem_truth, mem.reads)
    print("$ " + B.shell_join(mem.cmd))
    print("12-megapixel set: %d JPEGs 4000x3000, %s: decoded %d, wrong %d, %.2f s, %.2f images/s, peak RSS %.0f MB"
          % (len(mem_files), "-j 2" if has_jobs else "no -j (single worker)", mem_ok, mem_wrong,
             mem.seconds, len(mem_files) / mem.seconds, mem.peak_rss_mb))
    print()

    isb, zb = result["isbnscan"], result["zbarimg"]
    checks = []
    ratio_z = isb["ips"] / zb["ips"]
    print("ratios: isbnscan/zbarimg throughput %.2fx" % ratio_z, end="")
    checks.append(("throughput >= %gx zbarimg" % TARGET_VS_ZBAR, ratio_z >= TARGET_VS_ZBAR, "%.2fx" % ratio_z))
    if "zxing-cpp" in result:
        ratio_x = isb["ips"] / result["zxing-cpp"]["ips"]
        print(", isbnscan/zxing-cpp %.2fx" % ratio_x, end="")
        checks.append(("faster than zxing-cpp", ratio_x > 1.0, "%.2fx" % ratio_x))
    print(", decoded isbnscan %d / zbarimg %d" % (isb["decoded"], zb["decoded"]))
    checks.append(("decoded >= zbarimg", isb["decoded"] >= zb["decoded"], "%d vs %d" % (isb["decoded"], zb["decoded"])))
    if has_jobs:
        checks.append(("peak RSS < %g MB on 12MP JPEGs with -j 2" % TARGET_RSS_MB,
                       mem.peak_rss_mb < TARGET_RSS_MB, "%.0f MB" % mem.peak_rss_mb))
    else:
        checks.append(("peak RSS < %g MB on 12MP JPEGs with -j 2" % TARGET_RSS_MB, None,
                       "%.0f MB with one worker; this build has no -j" % mem.peak_rss_mb))
    print()
    print(B.table(["target (issue 3)", "result", "value"],
                  [[name, {True: "PASS", False: "FAIL", None: "n/a"}[ok], value] for name, ok, value in checks],
                  left=3))
    print("\nFairness: zbarimg and the zxing-cpp reader use one core; isbnscan uses -j = cores when it has --jobs.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where there is nothing to find (make bench, issue 10): isbnscan at each effort with one and two
workers, zbarimg, and zxing-cpp in one and in two processes, side by side on

  (a) a mixed folder of phone-size photos, half without a barcode (Bench/make_mixed.py);
  (b) the real-photo corpus (../shared/corpus: its .txt files give the codes);
  (c) photos of 1, 4, 12, 24 and 48 megapixels with and without a barcode (Bench/make_sizes.py):
      CPU milliseconds per image and per megapixel, isbnscan --effort normal and fast, one worker.

    cost.py --bin .build/release/isbnscan --mixed DIR --sizes DIR [--corpus DIR]

isbnscan runs with --all (a product code read counts, as zbarimg's and zxing-cpp's do).  Each run is one
invocation over the whole folder (two for "2 processes": the file list split in halves,
started together); images/s is files over wall seconds, CPU ms is user + system time of the children
(os.wait4) per image, peak RSS the largest child's.  Prints the tables, the ratios and the targets of issue 10.
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as B  # noqa: E402
from accuracy import corpus_rows  # noqa: E402

TARGET_VS_ZXING2 = 1.5
TARGET_12MP_EMPTY_MS = 150.0
TARGET_EMPTY_VS_BARCODE = 1.5


def run_parallel(cmds):
    """Start every command at once; (stdouts, wall seconds, CPU seconds, peak RSS MB, statuses)."""
    outs, procs = [], []
    start = time.monotonic()
    for cmd in cmds:
        out = tempfile.TemporaryFile()
        outs.append(out)
        procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL))
    cpu, rss, statuses = 0.0, 0.0, []
    for proc in procs:
        _, status, ru = os.wait4(proc.pid, 0)
        cpu += ru.ru_utime + ru.ru_stime
        rss = max(rss, ru.ru_maxrss / 1024.0)
        statuses.append(os.waitstatus_to_exitcode(status))
    wall = time.monotonic() - start
    data = []
    for out in outs:
        out.seek(0)
        data.append(out.read())
        out.close()
    return data, wall, cpu, rss, statuses


def halves(files):
    return [files[0::2], files[1::2]]


def measure(name, cmds, parse, truth, files):
    data, wall, cpu, rss, _ = run_parallel(cmds)
    reads = {}
    for d in data:
        reads.update(parse(d))
    ok, wrong, _ = B.score([t for t in truth if t["main"]], reads)
    n = len(files)
    return {"tool": name, "decoded": ok, "wrong": wrong, "wall": wall, "ips": n / wall, "cpu_ms": 1000 * cpu / n,
            "rss": rss, "cmd": cmds[0]}


def zbar_cmd(files):
    return ["zbarimg", "-q", "-Sdisable", "-Sean13.enable", "-Sean8.enable", "--xml"] + list(files)


def zxing_cmd(files):
    return [sys.executable, os.path.join(B.HERE, "zxing_read.py"), "--"] + list(files)


def compare(title, binary, truth, files, folder=None):
    """All readers on one set of files; returns the rows by tool name."""
    rows = {}
    target = [folder] if folder else files
    for effort in ("fast", "normal", "thorough"):
        for jobs in (1, 2):
            cmd = [binary, "scan", "--json", "--all", "-q", "--effort", effort, "-j", str(jobs)] + target
            rows["isbnscan %s -j %d" % (effort, jobs)] = measure(
                "isbnscan %s -j %d" % (effort, jobs), [cmd], B.parse_isbnscan, truth, files)
    rows["zbarimg"] = measure("zbarimg", [zbar_cmd(files)], B.parse_zbarimg_xml, truth, files)
    if B.zxing_available(sys.executable):
        rows["zxing-cpp 1 process"] = measure("zxing-cpp 1 process", [zxing_cmd(files)], B.parse_zxing, truth, files)
        rows["zxing-cpp 2 processes"] = measure("zxing-cpp 2 processes", [zxing_cmd(h) for h in halves(files)],
                                                B.parse_zxing, truth, files)
    print("== %s: %d images, %d with a barcode ==" % (title, len(files), sum(1 for t in truth if t["main"])))
    print(B.table(["reader", "decoded", "wrong", "wall s", "images/s", "CPU ms/image", "peak RSS MB"],
                  [[r["tool"], r["decoded"], r["wrong"], "%.2f" % r["wall"], "%.1f" % r["ips"], "%.0f" % r["cpu_ms"],
                    "%.0f" % r["rss"]] for r in rows.values()]))
    print()
    return rows


def sizes_table(binary, sizes_dir):
    truth = B.read_truth(os.path.join(sizes_dir, "truth.tsv"))
    by_kind = {}
    for t in truth:
        mp, kind = t["category"].split("+")
        by_kind.setdefault((int(mp[:-2]), kind), []).append(t)
    rows, result = [], {}
    for effort in ("fast", "normal"):
        for mp in sorted({k[0] for k in by_kind}):
            cost = {}
            for kind in ("with", "without"):
                group = by_kind.get((mp, kind), [])
                files = [t["file"] for t in group]
                r = measure("isbnscan", [[binary, "scan", "--json", "-q", "--effort", effort, "-j", "1"] + files],
                            B.parse_isbnscan, group, files)
                cost[kind] = r
            w, wo = cost["with"], cost["without"]
            result[(effort, mp)] = (w["cpu_ms"], wo["cpu_ms"])
            rows.append([effort, "%d MP" % mp, "%.0f" % w["cpu_ms"], "%.0f" % wo["cpu_ms"], "%.1f" % (w["cpu_ms"] / mp),
                         "%.1f" % (wo["cpu_ms"] / mp), "%.2f" % (wo["cpu_ms"] / w["cpu_ms"]),
                         "%d/%d" % (w["decoded"], len(by_kind[(mp, "with")])), "%.0f" % max(w["rss"], wo["rss"])])
    print("== cost per image size (isbnscan -j 1, CPU of the process incl. start-up; JPEG) ==")
    print(B.table(["effort", "size", "CPU ms with", "without", "ms/MP with", "without", "without/with", "decoded",
                   "peak RSS MB"], rows))
    print()
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=".build/release/isbnscan")
    ap.add_argument("--mixed", required=True)
    ap.add_argument("--sizes", required=True)
    ap.add_argument("--corpus", default="../shared/corpus")
    a = ap.parse_args()

    mixed_truth = B.read_truth(os.path.join(a.mixed, "truth.tsv"))
    mixed = compare("mixed folder %s" % a.mixed, a.bin, mixed_truth, [t["file"] for t in mixed_truth],
                    folder=os.path.join(a.mixed, "images"))
    if os.path.isdir(a.corpus):
        truth = corpus_rows(a.corpus)
        compare("real-photo corpus %s" % a.corpus, a.bin, truth, [t["file"] for t in truth])
    sizes = sizes_table(a.bin, a.sizes)

    checks = []
    if "zxing-cpp 2 processes" in mixed:
        ratio = mixed["isbnscan normal -j 2"]["ips"] / mixed["zxing-cpp 2 processes"]["ips"]
        checks.append(("mixed folder: normal -j 2 >= %.1fx zxing-cpp in 2 processes" % TARGET_VS_ZXING2,
                       ratio >= TARGET_VS_ZXING2, "%.2fx" % ratio))
    if (("normal", 12)) in sizes:
        empty = sizes[("normal", 12)][1]
        checks.append(("12 MP without a barcode: < %.0f ms CPU at normal" % TARGET_12MP_EMPTY_MS,
                       empty < TARGET_12MP_EMPTY_MS, "%.0f ms" % empty))
    worst = max((wo / w, mp) for (effort, mp), (w, wo) in sizes.items() if effort == "normal")
    checks.append(("normal: cost per MP without a barcode <= %.1fx with" % TARGET_EMPTY_VS_BARCODE,
                   worst[0] <= TARGET_EMPTY_VS_BARCODE, "worst %.2fx at %d MP" % worst))
    print(B.table(["target (issue 10)", "result", "value"],
                  [[n, "PASS" if ok else "FAIL", v] for n, ok, v in checks], left=3))
    print("\nReading counts on the sets of make bench-accuracy are the other target: run it too.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

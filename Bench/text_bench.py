#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Printed-ISBN reading (`isbnscan scan --text`) on the pages of make_text_set.py: read rate, wrong ISBNs, time.

    text_bench.py --bin BIN --set DIR [--jobs 1]

For each part (DIR/tune, DIR/holdout), reported apart: the ISBN lines printed and how many were read,
per kind of page and per type size; wrong ISBNs (accepted and not printed on the page: the number that
must stay 0); pages without an ISBN that gave one; lines refused (an ISBN line whose readings disagree
or fail the check digit: reported, not accepted); and the time per page (wall time of one
`isbnscan scan --text --json -j JOBS` over the part's pages, CPU (user + system) and wall time divided by
their number; -j 1 by default. The CPU time is the figure to compare: the wall time grows with whatever
else the machine runs).
"""

import argparse
import csv
import json
import os
import resource
import subprocess
import time


def run_part(binary, part_dir, jobs):
    rows = list(csv.DictReader(open(os.path.join(part_dir, "truth.tsv")), delimiter="\t"))
    files = [os.path.join(part_dir, "images", r["file"]) for r in rows]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run([binary, "scan", "--text", "--json", "-q", "-j", str(jobs)] + files,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 4):
        raise SystemExit("text_bench: %s exited %d: %s" % (binary, proc.returncode, proc.stderr[-2000:]))
    results = {}
    for line in proc.stdout.splitlines():
        record = json.loads(line)
        results[os.path.basename(record["file"])] = record
    return rows, results, (wall, cpu)


def summarise(name, rows, results, times):
    wall, cpu = times
    printed = read = wrong = noisy_pages = refused = 0
    by_kind, by_size, misses, wrongs = {}, {}, [], []
    for r in rows:
        expected = set(r["expected"].split()) - {"-"}
        record = results.get(r["file"], {})
        accepted = {i["isbn13"] for i in record.get("isbns", [])}
        refused += sum(1 for s in record.get("symbols", []) if s["type"] == "ISBN text" and s["verdict"] == "rejected")
        hits = len(expected & accepted)
        printed += len(expected)
        read += hits
        bad = accepted - expected
        wrong += len(bad)
        if bad:
            wrongs.append("%s: %s" % (r["file"], " ".join(sorted(bad))))
        if not expected and accepted:
            noisy_pages += 1
        for table, key in ((by_kind, r["kind"]), (by_size, "%s pt" % r["pt"])):
            got, total = table.get(key, (0, 0))
            table[key] = (got + hits, total + len(expected))
        if expected - accepted:
            misses.append("%s (%s %s pt %s dpi turn %s blur %s light %s)" % (r["file"], r["font"], r["pt"], r["dpi"], r["turn"],
                                                                             r["blur"], r["light"]))
    pages = len(rows)
    none_pages = sum(1 for r in rows if r["expected"] == "-")
    print("== %s: %d pages (%d without an ISBN), %d ISBN lines printed" % (name, pages, none_pages, printed))
    print("  read %d/%d (%.1f %%), wrong ISBNs %d, pages without an ISBN that gave one %d/%d, lines refused %d, "
          "%.0f ms CPU/page (%.0f ms wall/page)"
          % (read, printed, 100.0 * read / max(1, printed), wrong, noisy_pages, none_pages, refused, 1000 * cpu / max(1, pages),
             1000 * wall / max(1, pages)))
    print("  by kind: " + ", ".join("%s %d/%d" % (k, g, t) for k, (g, t) in sorted(by_kind.items()) if t))
    print("  by size: " + ", ".join("%s %d/%d" % (k, g, t) for k, (g, t) in sorted(by_size.items(), key=lambda kv: int(kv[0].split()[0])) if t))
    for line in wrongs:
        print("  WRONG " + line)
    for line in misses:
        print("  missed " + line)
    return {"part": name, "pages": pages, "printed": printed, "read": read, "wrong": wrong, "noisy_pages": noisy_pages,
            "refused": refused, "cpu_ms_per_page": 1000 * cpu / max(1, pages), "wall_ms_per_page": 1000 * wall / max(1, pages)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--set", required=True, help="the folder make_text_set.py wrote")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    for part in ("tune", "holdout"):
        rows, results, seconds = run_part(args.bin, os.path.join(args.set, part), args.jobs)
        summarise(part, rows, results, seconds)


if __name__ == "__main__":
    main()

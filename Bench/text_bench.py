#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Printed-ISBN reading (`isbnscan scan --text`) on the pages of make_text_set.py: read rate, wrong ISBNs, time.

    text_bench.py --bin BIN [--set DIR] [--small DIR] [--covered DIR [--tesseract]] [--jobs 1]

For each part (DIR/tune, DIR/holdout), reported apart: the ISBN lines printed and how many were read,
per kind of page and per type size; wrong ISBNs (accepted and not printed on the page: the number that
must stay 0); pages without an ISBN that gave one; lines refused (an ISBN line whose readings disagree
or fail the check digit: reported, not accepted); and the time per page (wall time of one
`isbnscan scan --text --json -j JOBS` over the part's pages, CPU (user + system) and wall time divided by
their number; -j 1 by default. The CPU time is the figure to compare: the wall time grows with whatever
else the machine runs).

--small DIR: the small-type photos of make_small_type_set.py (ISBN lines with capitals 5-10 pixels tall
above a covered barcode's place), parts DIR/tune and DIR/blind reported apart: read rate per capital
height, wrong ISBNs, images without an ISBN that gave one, lines refused, time per image.

--covered DIR: the real photos of book barcodes whose bars make_covered_set.py covered. Read rate on
the photos whose `ISBN ...` line is legible (each photo twice: a paper-coloured patch, a price
sticker), counting only an ISBN read from the printed line (type `ISBN text`); wrong ISBNs on all of
them; any EAN-13 still read from the bars (the cover failed: must be 0); ms per photo. With
--tesseract, the same photos through the plain `tesseract FILE stdout` (its defaults: page layout
analysis, English): a photo counts as read when a line of its output has the ISBN-13 or ISBN-10 once
spaces, hyphens and dots are taken out (no check digit, no keyword: generous to it).
"""

import argparse
import csv
import json
import os
import resource
import shutil
import subprocess
import time


def run_part(binary, part_dir, jobs):
    """The rows of part_dir/truth.tsv, isbnscan's JSON record per file name, (wall, CPU) seconds:
    one `scan --text --json` over part_dir/images."""
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


def summarise_small(name, rows, results, times):
    wall, cpu = times
    read = printed = wrong = noisy = refused = 0
    by_cap, wrongs, misses = {}, [], []
    for r in rows:
        expected = set() if r["expected"] == "-" else {r["expected"]}
        record = results.get(r["file"], {})
        accepted = {i["isbn13"] for i in record.get("isbns", [])}
        refused += sum(1 for s in record.get("symbols", []) if s["type"] == "ISBN text" and s["verdict"] == "rejected")
        hits = len(expected & accepted)
        read += hits
        printed += len(expected)
        bad = accepted - expected
        wrong += len(bad)
        if bad:
            wrongs.append("%s: %s (printed %s)" % (r["file"], " ".join(sorted(bad)), r["line"]))
        if not expected and accepted:
            noisy += 1
        if expected:
            got, total = by_cap.get(int(r["cap_px"]), (0, 0))
            by_cap[int(r["cap_px"])] = (got + hits, total + 1)
            if not hits:
                misses.append("%s (%s, %s px, tracking %s, blur %s)" % (r["file"], r["font"], r["cap_px"], r["tracking"], r["blur"]))
    pages = len(rows)
    none_pages = sum(1 for r in rows if r["expected"] == "-")
    print("== small type %s: %d images (%d without an ISBN)" % (name, pages, none_pages))
    print("  read %d/%d (%.1f %%), wrong ISBNs %d, images without an ISBN that gave one %d/%d, lines refused %d, "
          "%.0f ms CPU/image (%.0f ms wall/image)"
          % (read, printed, 100.0 * read / max(1, printed), wrong, noisy, none_pages, refused, 1000 * cpu / max(1, pages),
             1000 * wall / max(1, pages)))
    print("  by capital height: " + ", ".join("%d px %d/%d" % (k, g, t) for k, (g, t) in sorted(by_cap.items())))
    for line in wrongs:
        print("  WRONG " + line)
    for line in misses:
        print("  missed " + line)
    return {"part": "small-" + name, "images": pages, "printed": printed, "read": read, "wrong": wrong, "noisy_pages": noisy,
            "refused": refused, "cpu_ms_per_image": 1000 * cpu / max(1, pages)}


def run_covered(binary, folder, jobs, tesseract):
    rows, results, (wall, cpu) = run_part(binary, folder, jobs)
    legible = [r for r in rows if r["part"] == "legible"]
    read = wrong = bars = 0
    lines = []
    for r in rows:
        record = results.get(r["file"], {})
        accepted = {i["isbn13"] for i in record.get("isbns", [])}
        from_text = {s["data"] for s in record.get("symbols", []) if s["type"] == "ISBN text" and s["verdict"] == "accepted"}
        bars += sum(1 for s in record.get("symbols", []) if s["type"] == "EAN-13")
        bad = accepted - {r["expected"]}
        wrong += len(bad)
        hit = r["expected"] in from_text
        if r["part"] == "legible" and hit:
            read += 1
        refused = ["%s %s" % (s["data"], s["reason"] if "reason" in s else s["verdict"])
                   for s in record.get("symbols", []) if s["type"] == "ISBN text" and s["verdict"] != "accepted"]
        status = "WRONG %s" % " ".join(sorted(bad)) if bad else ("read" if hit else ("missed" if r["part"] == "legible" else "-"))
        lines.append("  %-6s %-8s %-55s %s" % (r["part"], status, r["file"], ("refused " + ", ".join(refused)) if refused else ""))
    n = len(rows)
    print("== covered: %d covered photos from %d real photos (%d legible ISBN lines x 2 covers)"
          % (n, len({r["source"] for r in rows}), len({r["source"] for r in legible})))
    print("  isbnscan scan --text: read %d/%d (%.1f %%), wrong ISBNs %d (on all %d), EAN-13 still read from the bars %d, "
          "%.0f ms CPU/photo (%.0f ms wall/photo)"
          % (read, len(legible), 100.0 * read / max(1, len(legible)), wrong, n, bars, 1000 * cpu / max(1, n), 1000 * wall / max(1, n)))
    for line in lines:
        print(line)
    summary = {"part": "covered", "photos": n, "legible": len(legible), "read": read, "wrong": wrong, "bars": bars,
               "cpu_ms_per_photo": 1000 * cpu / max(1, n), "wall_ms_per_photo": 1000 * wall / max(1, n)}
    if tesseract and not shutil.which("tesseract"):
        print("  tesseract (plain CLI): skipped, no tesseract command (apt install tesseract-ocr; make bench-deps does)")
    elif tesseract:
        got = 0
        start = time.monotonic()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for r in legible:
            out = subprocess.run(["tesseract", os.path.join(folder, "images", r["file"]), "stdout"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
            isbn10 = isbn10_of(r["expected"])
            squeezed = [line.translate(str.maketrans("", "", " -.\u2013\u2014")).upper() for line in out.splitlines()]
            if any(r["expected"] in line or (isbn10 and isbn10 in line) for line in squeezed):
                got += 1
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print("  tesseract (plain CLI): read %d/%d (%.1f %%), %.0f ms CPU/photo"
              % (got, len(legible), 100.0 * got / max(1, len(legible)), 1000 * cpu / max(1, len(legible))))
        summary["tesseract_read"] = got
    return summary


def isbn10_of(isbn13):
    """The ISBN-10 of a 978 ISBN-13, or None."""
    if not isbn13.startswith("978"):
        return None
    nine = isbn13[3:12]
    check = (11 - sum((10 - i) * int(d) for i, d in enumerate(nine)) % 11) % 11
    return nine + ("X" if check == 10 else str(check))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--set", help="the folder make_text_set.py wrote")
    parser.add_argument("--small", help="the folder make_small_type_set.py wrote")
    parser.add_argument("--covered", help="the folder make_covered_set.py wrote")
    parser.add_argument("--tesseract", action="store_true", help="also run the plain tesseract CLI on --covered")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if not args.set and not args.small and not args.covered:
        parser.error("give --set, --small, --covered or several")
    if args.set:
        for part in ("tune", "holdout"):
            rows, results, seconds = run_part(args.bin, os.path.join(args.set, part), args.jobs)
            summarise(part, rows, results, seconds)
    if args.small:
        for part in ("tune", "blind"):
            rows, results, seconds = run_part(args.bin, os.path.join(args.small, part), args.jobs)
            summarise_small(part, rows, results, seconds)
    if args.covered:
        run_covered(args.bin, args.covered, args.jobs, args.tesseract)


if __name__ == "__main__":
    main()

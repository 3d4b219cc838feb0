# SPDX-License-Identifier: Apache-2.0
"""Reads a set made by Bench/make_blur_check.py and tells, per category, how
many images each reader read right and how many wrong ISBNs it accepted.

Readers: isbnscan at each effort given (one run per effort over the whole
set: scan --json --all -j 1 --effort E), zbarimg (EAN-13 only) and zxing-cpp
(the python module zxingcpp, EAN-13 only). An image is read when an accepted
ISBN equals the truth; a wrong ISBN is an accepted ISBN that differs from it
(for zbar and zxing-cpp, which accept no ISBNs: any EAN-13 starting 978 or
979, their check digit already verified). Also counts the files where a
higher effort reads less than the one below it.

    python3 Bench/check_blur.py --bin .build/release/isbnscan DIR [DIR...]

Give it a copy of the binary when a build may replace it during the run
(a whole set at thorough takes minutes): the counts are of one binary only.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import time

BANDS = [(0, 2.0, "ppm<2"), (2.0, 3.0, "ppm 2-3"), (3.0, 99, "ppm>=3")]


def load_truth(d):
    with open(os.path.join(d, "truth.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for r in rows:
        r["path"] = os.path.join(d, r["file"])
    return rows


def run_isbnscan(binary, effort, rows, refused):
    """{path: set of accepted 13-digit codes}, wall seconds; fills refused
    with {path: set of codes read but refused}."""
    paths = [r["path"] for r in rows]
    t0 = time.time()
    p = subprocess.run([binary, "scan", "--json", "--all", "-j", "1",
                        "--effort", effort] + paths,
                       capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode not in (0, 4):
        sys.stderr.write("isbnscan --effort %s: status %d\n%s" %
                         (effort, p.returncode, p.stderr[-2000:]))
    got = {}
    for line in p.stdout.splitlines():
        if not line.startswith("{"):
            continue
        o = json.loads(line)
        if "file" not in o:
            continue
        acc = set()
        for s in o.get("symbols") or []:
            if s.get("verdict") == "accepted":
                acc.add(s["data"])
        for i in o.get("isbns") or []:
            acc.add(i["isbn13"])
        refused[o["file"]] = {r["data"] for r in o.get("rejected") or []}
        if o.get("error"):
            sys.stderr.write("%s: %s\n" % (o["file"], o["error"]))
        got[o["file"]] = acc
    missing = [q for q in paths if q not in got]
    if missing:
        sys.stderr.write("isbnscan --effort %s: no result for %d files, e.g. %s\n"
                         % (effort, len(missing), missing[0]))
    return got, wall


def isbn_like(code):
    return len(code) == 13 and code.isdigit() and code[:3] in ("978", "979")


def run_zbar(rows):
    got = {}
    t0 = time.time()
    for r in rows:
        p = subprocess.run(["zbarimg", "-q", "--raw", "-Sdisable", "-Sean13.enable",
                            r["path"]], capture_output=True, text=True)
        got[r["path"]] = {c for c in p.stdout.split() if isbn_like(c)}
    return got, time.time() - t0


def run_zxing(rows):
    import zxingcpp
    from PIL import Image
    got = {}
    t0 = time.time()
    for r in rows:
        with Image.open(r["path"]) as im:
            res = zxingcpp.read_barcodes(im, formats=zxingcpp.BarcodeFormat.EAN13)
        got[r["path"]] = {b.text for b in res if isbn_like(b.text)}
    return got, time.time() - t0


def cell(rows, got):
    read = sum(1 for r in rows if r["expected"] in got.get(r["path"], ()))
    wrong = sum(len(got.get(r["path"], set()) - {r["expected"]}) for r in rows)
    return read, wrong


def table(title, groups, readers, results, out):
    names = [n for n in readers]
    w = max(12, max(len(g) for g, _ in groups) + 1)
    out.write("\n%s\n" % title)
    out.write("%-*s %5s" % (w, "category", "n") +
              "".join(" %12s" % n for n in names) + "\n")
    for g, rows in groups:
        out.write("%-*s %5d" % (w, g, len(rows)))
        for n in names:
            r, wr = cell(rows, results[n])
            out.write(" %12s" % ("%d%s" % (r, (" (%dw)" % wr) if wr else "")))
        out.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="+", help="folders with truth.tsv and images/")
    ap.add_argument("--bin", default="/work/main/.build/release/isbnscan",
                    help="the isbnscan binary")
    ap.add_argument("--efforts", default="fast,normal,thorough")
    ap.add_argument("--no-zbar", action="store_true")
    ap.add_argument("--no-zxing", action="store_true")
    ap.add_argument("--save", help="write a per-file TSV of what each reader accepted")
    args = ap.parse_args()

    out = sys.stdout
    efforts = [e for e in args.efforts.split(",") if e]
    for d in args.sets:
        rows = load_truth(d)
        results, walls, refused = {}, {}, {}
        for e in efforts:
            refused[e] = {}
            results[e], walls[e] = run_isbnscan(args.bin, e, rows, refused[e])
        if not args.no_zbar:
            results["zbarimg"], walls["zbarimg"] = run_zbar(rows)
        if not args.no_zxing:
            results["zxing-cpp"], walls["zxing-cpp"] = run_zxing(rows)
        readers = list(results)

        out.write("\n=== %s: %d images; read (wrong ISBNs accepted) ===\n"
                  % (d, len(rows)))
        cats = []
        for r in rows:
            if r["category"] not in cats:
                cats.append(r["category"])
        groups = [(c, [r for r in rows if r["category"] == c]) for c in cats]
        kinds = []
        for c in cats:
            k = c.rsplit("-", 1)[0]
            if k not in kinds:
                kinds.append(k)
        groups += [("all " + k, [r for r in rows
                                 if r["category"].rsplit("-", 1)[0] == k])
                   for k in kinds]
        groups.append(("total", rows))
        table("per category", groups, readers, results, out)
        bands = [(name, [r for r in rows
                         if lo <= float(r["px_per_module"]) < hi])
                 for lo, hi, name in BANDS]
        table("per px/module", bands, readers, results, out)

        # A right reading refused (misread, ambiguous) is a read lost to
        # the arbiter rather than to the bars.
        for e in efforts:
            lost = [r["file"] for r in rows
                    if r["expected"] in refused[e].get(r["path"], ())
                    and r["expected"] not in results[e].get(r["path"], ())]
            out.write("%s: right code read but refused in %d files%s\n"
                      % (e, len(lost), (": " + " ".join(lost)) if lost else ""))
        out.write("\nseconds (whole set, one process, -j 1):" +
                  "".join(" %s %.1f" % (n, walls[n]) for n in readers) + "\n")
        if len(efforts) > 1:
            worse = []
            for r in rows:
                ok = [r["expected"] in results[e].get(r["path"], ()) for e in efforts]
                if any(ok[i + 1] < ok[i] for i in range(len(ok) - 1)):
                    worse.append("%s (%s)" % (r["file"], " ".join(
                        "%s=%d" % (e, o) for e, o in zip(efforts, ok))))
            out.write("monotonicity: %d files where a higher effort reads less%s\n"
                      % (len(worse), "".join("\n  " + w for w in worse)))
        if args.save:
            path = args.save if len(args.sets) == 1 else \
                "%s.%s" % (args.save, os.path.basename(os.path.normpath(d)))
            with open(path, "w") as f:
                f.write("file\tcategory\texpected\tpx_per_module\t" +
                        "\t".join(readers) + "\n")
                for r in rows:
                    f.write("\t".join([r["file"], r["category"], r["expected"],
                                       r["px_per_module"]] +
                                      [",".join(sorted(results[n].get(r["path"], ())))
                                       or "-" for n in readers]) + "\n")
        out.flush()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Photos of several books at once (Bench/make_many_books.py): books read per reader and effort.

    many_books.py --bin ISBNSCAN [--bin-label LABEL] [--efforts fast normal thorough] [--zxing PYTHON]
                  [--no-others] [--per-file] SET [SET...]

For each set (a folder with images/ and truth.tsv) and each effort: the books read right (an accepted ISBN
that is the EAN-13 of one of the photo's books), wrong ISBNs (accepted, and no book of the photo), the
photos where a higher effort accepts fewer of the lower effort's books than it (nesting), and the CPU
(user + system) per photo of the whole process, one core (`-j 1`, each photo in its own process, so
the image's decoding is counted). zbarimg and zxing-cpp read the same photos beside it: for them every
978 reading with a valid check digit is an ISBN they would hand on. Pictures without a barcode
(books 0) are reported apart: their CPU per picture (median, maximum) and any code accepted there.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as B  # noqa: E402


def truth(set_dir):
    rows = []
    with open(os.path.join(set_dir, "truth.tsv")) as f:
        next(f)
        for line in f:
            name, books, expected = (line.rstrip("\n").split("\t") + [""])[:3]
            eans = [e.split("+")[0] for e in expected.split(",") if e]
            rows.append({"name": name, "file": os.path.realpath(os.path.join(set_dir, "images", name)), "eans": eans})
    return rows


def cpu_of(cmd):
    """(stdout, CPU seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def isbnscan(binary, effort, path):
    out, cpu = cpu_of([binary, "scan", "--json", "-j", "1", "--effort", effort, path])
    accepted = set()
    for line in out.decode(errors="replace").splitlines():
        if line.startswith("{"):
            accepted |= {i["isbn13"] for i in json.loads(line).get("isbns") or []}
    return accepted, cpu


def zbarimg(path):
    out, cpu = cpu_of(["zbarimg", "-q", "-Sdisable", "-Sean13.enable", "--xml", path])
    reads = B.parse_zbarimg_xml(out)
    return {r.data for rs in reads.values() for r in rs if B.is_isbn13(r.data)}, cpu


def zxing(python, path):
    out, cpu = cpu_of([python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "zxing_read.py"), "--", path])
    reads = B.parse_zxing(out)
    return {r.data for rs in reads.values() for r in rs if B.is_isbn13(r.data)}, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", action="append", required=True)
    ap.add_argument("--bin-label", action="append")
    ap.add_argument("--efforts", nargs="+", default=["fast", "normal", "thorough"])
    ap.add_argument("--zxing", default=sys.executable)
    ap.add_argument("--no-others", action="store_true", help="do not run zbarimg and zxing-cpp")
    ap.add_argument("--per-file", action="store_true")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    labels = a.bin_label or [os.path.basename(b) for b in a.bin]
    have_zxing = not a.no_others and B.zxing_available(a.zxing)
    for set_dir in a.sets:
        rows = truth(set_dir)
        books = [r for r in rows if r["eans"]]
        empty = [r for r in rows if not r["eans"]]
        n_books = sum(sum(1 for e in r["eans"] if e.startswith("978")) for r in books)
        print("\n## %s: %d photos of %d ISBN books (%d codes in all), %d pictures without a barcode"
              % (set_dir, len(books), n_books, sum(len(r["eans"]) for r in books), len(empty)))
        readers = []
        for binary, label in zip(a.bin, labels):
            for effort in a.efforts:
                readers.append(("%s %s" % (label, effort), lambda p, b=binary, e=effort: isbnscan(b, e, p), (label, effort)))
        if not a.no_others:
            readers.append(("zbarimg", zbarimg, None))
            if have_zxing:
                readers.append(("zxing-cpp", lambda p: zxing(a.zxing, p), None))
        results = {}
        for name, read, _ in readers:
            results[name] = {r["name"]: read(r["file"]) for r in rows}
        table = []
        for name, _, key in readers:
            res = results[name]
            right = sum(len(res[r["name"]][0] & set(r["eans"])) for r in books)
            wrong = sum(len(res[r["name"]][0] - set(r["eans"])) for r in rows)
            cpu = [res[r["name"]][1] for r in books]
            cpu0 = [res[r["name"]][1] for r in empty]
            table.append([name, "%d/%d (%.1f %%)" % (right, n_books, 100.0 * right / max(1, n_books)), str(wrong),
                          "%.2f" % (sum(cpu) / max(1, len(cpu))),
                          ("%.0f / %.0f" % (1000 * statistics.median(cpu0), 1000 * max(cpu0))) if cpu0 else "-"])
        print(B.table(["reader", "books read right", "wrong ISBNs", "CPU s/photo", "no barcode: ms median / max"], table))
        # Nesting: what a lower effort accepts, a higher one accepts too, photo by photo.
        for label in labels:
            for lo, hi in zip(a.efforts, a.efforts[1:]):
                lost = [(r["name"], sorted(results["%s %s" % (label, lo)][r["name"]][0]
                                           - results["%s %s" % (label, hi)][r["name"]][0])) for r in rows]
                lost = [x for x in lost if x[1]]
                print("%s: %s -> %s: %d photos where %s accepts fewer of the books %s accepts%s"
                      % (label, lo, hi, len(lost), hi, lo, (": " + "; ".join("%s %s" % (n, " ".join(c)) for n, c in lost)) if lost else ""))
        # The union of the others' right reads that isbnscan misses.
        if not a.no_others:
            for label in labels:
                mine = results["%s normal" % label] if "normal" in a.efforts else results["%s %s" % (label, a.efforts[-1])]
                missed = []
                for r in books:
                    others = set()
                    for other in ("zbarimg", "zxing-cpp"):
                        if other in results:
                            others |= results[other][r["name"]][0] & set(r["eans"])
                    for code in sorted(others - mine[r["name"]][0]):
                        missed.append("%s %s" % (r["name"], code))
                print("%s: books zbarimg or zxing-cpp read right that it misses: %d%s"
                      % (label, len(missed), (": " + ", ".join(missed)) if missed else ""))
        if a.per_file:
            for r in rows:
                cells = []
                for name, _, _ in readers:
                    acc, cpu = results[name][r["name"]]
                    cells.append("%s=%d/%d+%dw %.2fs" % (name, len(acc & set(r["eans"])), sum(1 for e in r["eans"] if e.startswith("978")),
                                                       len(acc - set(r["eans"])), cpu))
                print(r["name"], " ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())

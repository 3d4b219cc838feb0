#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where do the digits printed under the bars change a verdict? A bench set's photos with rivals.

    witness_reach.py --bin BIN SET_DIR [SET_DIR ...]

Each SET_DIR is a generated set with a truth.tsv (file, expected, ...), as `make bench-accuracy`
writes them under .build/bench. The set is scanned with `scan --json --effort normal`; the photos
where some place has rival readings (a code refused as `misread` or `ambiguous`) are scanned again
with `--text` (which has the digits under the bars read where the bars leave a place in doubt).
Prints, per photo where the printed digits were read or the accepted ISBNs differ, the truth, the
ISBNs before and after and the digits read; then one summary line per set (with how many photos
have a place refused as ambiguous at normal: in doubt, so the digits were asked for there). Standard library only.
"""

import argparse
import csv
import json
import os
import subprocess


def scan(binary, files, *extra):
    """`scan --json --effort normal -q` of `files`: {file: record}."""
    if not files:
        return {}
    out = subprocess.run([binary, "scan", "--json", "--effort", "normal", "-q", *extra, *files],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=False).stdout
    return {r["file"]: r for r in map(json.loads, out.splitlines())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    for folder in a.sets:
        with open(os.path.join(folder, "truth.tsv")) as f:
            truth = {os.path.join(folder, row["file"]): row["expected"] for row in csv.DictReader(f, delimiter="\t")}
        before = scan(a.bin, sorted(truth))
        rivals = [f for f, r in before.items() if any(s.get("reason") in ("misread", "ambiguous") for s in r["symbols"])]
        ambiguous = sum(any(s.get("reason") == "ambiguous" for s in before[f]["symbols"]) for f in rivals)
        after = scan(a.bin, rivals, "--text")
        touched = 0
        for f in rivals:
            isbns = lambda r: sorted({i["isbn13"] for i in r["isbns"]})  # noqa: E731
            printed = sorted({s["printed_digits"] for s in after[f]["symbols"] if s.get("printed_digits")})
            if printed or isbns(before[f]) != isbns(after[f]):
                touched += 1
                print("%s truth=%s before=%s after=%s printed=%s" % (f, truth[f], isbns(before[f]), isbns(after[f]), printed))
        print("%s: %d photos, %d with rivals at normal (%d refused as ambiguous), %d where the printed digits were read "
              "or the ISBNs changed" % (folder, len(before), len(rivals), ambiguous, touched))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate photos of five sizes, with and without a barcode, for the per-size cost benchmark (make bench).

    make_sizes.py --out DIR [--per-kind 2] [--seed 9]

For each size (1, 4, 12, 24 and 48 megapixels) `--per-kind` JPEG photos of a book back with an EAN-13 (as
Bench/make_photos.py makes them) and as many without any barcode (a cover with text, as Bench/make_mixed.py
makes them).  Writes DIR/images/size_<MP>mp_<with|without>_<n>.jpg, DIR/truth.tsv and DIR/stamp.json.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth as S  # noqa: E402
import make_photos as P  # noqa: E402
import make_mixed as M  # noqa: E402

SIZES = {1: (1152, 864), 4: (2304, 1728), 12: (4000, 3000), 24: (6000, 4000), 48: (8000, 6000)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-kind", type=int, default=2)
    ap.add_argument("--seed", type=int, default=9)
    a = ap.parse_args()
    params = {"per_kind": a.per_kind, "seed": a.seed, "sources": S.sources_digest(__file__, S.__file__, P.__file__, M.__file__)}
    if S.cached(a.out, params):
        print("make_sizes: %s is up to date" % a.out)
        return 0
    images = os.path.join(a.out, "images")
    S.fresh_dir(images)
    rows = []
    for mp, size in SIZES.items():
        for n in range(a.per_kind):
            rng = random.Random(a.seed * 1000 + mp * 10 + n)
            photo, _, quality, expected, _ = P.make_one(rng, size, jpeg_only=True)
            name = "size_%02dmp_with_%d.jpg" % (mp, n + 1)
            S.save_photo(photo, os.path.join(images, name), "jpg", quality)
            rows.append(("images/" + name, "%dmp+with" % mp, expected))
            photo = [M.cover, M.page, M.shelf, M.snapshot][n % 4](rng, *size)
            name = "size_%02dmp_without_%d.jpg" % (mp, n + 1)
            S.save_photo(photo, os.path.join(images, name), "jpg", rng.randrange(80, 93))
            rows.append(("images/" + name, "%dmp+without" % mp, ""))
    with open(os.path.join(a.out, "truth.tsv"), "w") as f:
        f.write("file\tcategory\texpected\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    S.write_stamp(a.out, params)
    print("make_sizes: wrote %d photos to %s" % (len(rows), images))
    return 0


if __name__ == "__main__":
    sys.exit(main())

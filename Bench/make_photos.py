#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate reproducible 'photos of book backs' for the throughput benchmark (make bench).

    make_photos.py --out DIR [--count 300] [--seed 1] [--size WxH] [--jpeg-only]

Each photo: a synthetic cover (colour gradient, blotches, paper grain, text-like blocks), a zint EAN-13
(mostly 978 ISBNs, some with an EAN-5 price add-on, some 979 ISBNs, non-book products and EAN-8s) on a
light label pasted at a random place with module width 2-6 px (4-12 px on 12-megapixel photos), a small
hand-held tilt on many and 5-15 degrees on some, uneven light, blur or sensor noise on some.
Sizes: 1200x1600 (about 85%) and 3000x4000; JPEG quality 80-92 (about 80%) or PNG.
`--size` forces one size for all (the 12-megapixel memory set uses --size 4000x3000 --jpeg-only).

Writes DIR/images/photo_NNNN.{jpg,png}, DIR/truth.tsv (file, category, expected: EAN digits followed
directly by the add-on digits, as in the corpus .txt files) and DIR/stamp.json.  When the stamp matches
the parameters and the generator sources, nothing is regenerated.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth as S  # noqa: E402

from PIL import ImageFilter  # noqa: E402

CODE_MIX = {"isbn": 70, "isbn_addon5": 15, "isbn979": 5, "product": 7, "ean8": 3}


def make_one(rng, size, jpeg_only):
    w, h = size
    big = w * h > 6_000_000
    ean, addon = S.random_code(rng, CODE_MIX)
    module = rng.choice([2, 2.5, 3, 3.5, 4, 5, 6]) * (2 if big else 1)
    height = rng.choice([None, None, None, rng.randrange(30, 55)])
    render = S.zint_render(ean, addon, module_px=module, height=height)
    label = S.label_from_render(render, rng, module_px=module, margin_modules=rng.uniform(1, 4))
    r = rng.random()
    angle = rng.uniform(-4, 4) if r < 0.45 else (rng.choice([-1, 1]) * rng.uniform(5, 15) if r < 0.60 else 0.0)
    rgb, mask = S.transform_label(label, angle=angle)
    photo = S.cover_background(rng, w, h)
    S.paste_somewhere(rng, photo, rgb, mask)
    if rng.random() < 0.6:
        photo = S.lighting(rng, photo, rng.uniform(0.1, 0.45))
    if rng.random() < 0.2:
        photo = photo.filter(ImageFilter.GaussianBlur(rng.uniform(0.25, 0.45) * module))
    else:
        photo = photo.filter(ImageFilter.GaussianBlur(0.6))  # lens softness
    if rng.random() < 0.2:
        photo = S.add_noise(photo, rng.uniform(5, 15))
    fmt = "jpg" if jpeg_only or rng.random() < 0.8 else "png"
    quality = rng.randrange(80, 93)
    tags = ["%dx%d" % (w, h), fmt]
    if angle and abs(angle) >= 5:
        tags.append("rot")
    return photo, fmt, quality, S.expected_text(ean, addon), "+".join(tags)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", help="WxH for every photo (default: 1200x1600, about 15%% 3000x4000)")
    ap.add_argument("--jpeg-only", action="store_true")
    a = ap.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))
    params = {"count": a.count, "seed": a.seed, "size": a.size, "jpeg_only": a.jpeg_only,
              "sources": S.sources_digest(__file__, os.path.join(here, "synth.py"))}
    if S.cached(a.out, params):
        print("make_photos: %s is up to date (%d photos)" % (a.out, a.count), file=sys.stderr)
        return 0
    S.fresh_dir(a.out)
    os.makedirs(os.path.join(a.out, "images"))
    fixed = tuple(int(v) for v in a.size.lower().split("x")) if a.size else None
    lines = ["file\tcategory\texpected"]
    for i in range(a.count):
        rng = random.Random(a.seed * 1_000_003 + i)  # one stream per photo: photo i does not depend on the others
        size = fixed or ((3000, 4000) if rng.random() < 0.15 else (1200, 1600))
        photo, fmt, quality, expected, tags = make_one(rng, size, a.jpeg_only)
        name = "images/photo_%04d.%s" % (i + 1, fmt)
        S.save_photo(photo, os.path.join(a.out, name), fmt, quality)
        lines.append("%s\t%s\t%s" % (name, tags, expected))
        if (i + 1) % 50 == 0:
            print("make_photos: %d/%d" % (i + 1, a.count), file=sys.stderr)
    with open(os.path.join(a.out, "truth.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    S.write_stamp(a.out, params)
    print("make_photos: wrote %d photos to %s" % (a.count, a.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

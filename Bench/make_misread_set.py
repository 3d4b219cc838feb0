#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the misread-prone set for the accuracy benchmark (make bench-accuracy), reproducibly.

    make_misread_set.py --out DIR [--seed 11] [--count 120]

Phone-size photos (2000x1500 and 4000x3000) of book covers with a small 978 ISBN barcode whose bars were
printed too thick (ink spread) or too thin (overexposure): every bar widened or narrowed by 0.3-0.7 of a
module (the spaces change by the opposite amount), 1.3-2.2 pixels per module, mild lens blur and JPEG.
That is where zbar confuses 1 with 7 and 2 with 8 (same edge-to-similar-edge distances, told apart only by
bar widths: GS1 General Specifications 5.2.1) and two such confusions can still pass the check digit.
The ISBNs are drawn with many 1, 2, 7 and 8 digits to make the confusion likely.

Writes DIR/images/misread_NNN.jpg, DIR/truth.tsv (file, category, expected, detail; category is 'thick'
or 'thin') and DIR/stamp.json (nothing is regenerated when parameters and generator sources are unchanged).
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth as S  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image, ImageFilter  # noqa: E402

RENDER_PX = 8  # zint render: pixels per module before the spread is applied and the image is downscaled
SIZES = [(2000, 1500), (1500, 2000), (4000, 3000)]


def confusable_isbn(rng):
    """A 978 ISBN-13 whose body digits are half from {1, 2, 7, 8}."""
    body = "978" + "".join(rng.choice("1278") if rng.random() < 0.5 else str(rng.randrange(10)) for _ in range(9))
    return S.with_check(body)


def spread(render, modules):
    """Every dark bar of an 'L' render widened (modules > 0) or narrowed (< 0) by |modules| along x."""
    a = np.asarray(render, dtype=np.uint8)
    k = int(round(abs(modules) * RENDER_PX))
    out = a.copy()
    for s in range(1, k + 1):
        shifted = np.empty_like(a)
        shifted[:, s:] = a[:, :-s]
        shifted[:, :s] = a[:, :1]
        # Widening the dark: a pixel is dark if it or one up to k to its left is dark (min);
        # narrowing: light if it or one to its left is light (max).
        out = np.minimum(out, shifted) if modules > 0 else np.maximum(out, shifted)
    return Image.fromarray(out)


def make_one(idx, rng):
    ean = confusable_isbn(rng)
    amount = rng.uniform(0.3, 0.7) * (1 if idx % 2 == 0 else -1)
    module = rng.uniform(1.3, 2.2)
    size = SIZES[idx % len(SIZES)]
    render = spread(S.zint_render(ean, None, module_px=RENDER_PX), amount)
    f = module / RENDER_PX
    render = render.resize((max(1, round(render.width * f)), max(1, round(render.height * f))),
                           Image.Resampling.BOX)
    label = S.label_from_render(render, rng, module_px=module, margin_modules=rng.uniform(1.5, 4))
    rgb, mask = S.transform_label(label, angle=rng.uniform(-3, 3))
    photo = S.cover_background(rng, *size)
    S.paste_somewhere(rng, photo, rgb, mask)
    photo = S.lighting(rng, photo, rng.uniform(0.05, 0.3))
    blur = rng.uniform(0.3, 0.7)
    photo = photo.filter(ImageFilter.GaussianBlur(blur))
    quality = rng.randrange(80, 94)
    detail = "spread=%+.2f module=%.2f blur=%.2f quality=%d size=%dx%d" % (amount, module, blur, quality, *size)
    return photo, quality, ean, ("thick" if amount > 0 else "thin"), detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--count", type=int, default=120)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    params = {"seed": a.seed, "count": a.count,
              "sources": S.sources_digest(__file__, os.path.join(here, "synth.py"))}
    if S.cached(a.out, params):
        print("make_misread_set: %s is up to date" % a.out, file=sys.stderr)
        return 0
    S.fresh_dir(a.out)
    os.makedirs(os.path.join(a.out, "images"))
    lines = ["file\tcategory\texpected\tdetail"]
    for i in range(a.count):
        rng = random.Random(a.seed * 100_003 + i)
        photo, quality, ean, category, detail = make_one(i, rng)
        name = "images/misread_%03d.jpg" % (i + 1)
        S.save_photo(photo, os.path.join(a.out, name), "jpg", quality)
        lines.append("%s\t%s\t%s\t%s" % (name, category, ean, detail))
    with open(os.path.join(a.out, "truth.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    S.write_stamp(a.out, params)
    print("make_misread_set: wrote %d images to %s" % (a.count, a.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the "no quiet zone" set: EAN-13 photos cropped at the guard bars, as people crop them.

    make_crop_set.py --out DIR [--per-category 8] [--seed 29]

Someone crops a photo to the barcode and takes the quiet zone with it, or part of the guard bar. Each image
is a photo made by make_blur_world.py's renderer (own EAN-13 drawing, linear-light blur, light, noise;
its stamp covers both sources) of a label held nearly straight (within 0.5 degrees), 1.5-4 px per module,
mildly blurred (Gaussian, sigma 0.25-0.5 modules), low noise, then cut on one or both sides at the outer
edge of the guard bars, measured at the bars' mid-height:

  in2 / in1    2 or 1 modules inside the guard (its outer bar, or the bar and the space, cut off)
  at           exactly at the guard's outer edge
  out1 / out2  1 or 2 modules of quiet zone left

The side not cut keeps its whole quiet zone (11 modules left, 7 right) and up to 6 modules more. Top and
bottom are cut near the bars (half of the crops keep the digits). Half the codes are books (978, some 979),
half products (GS1 prefixes other than 0-2 and 977-979). Categories cut-<left|right|both>_<where>, e.g.
cut-left_at, cut-both_in1; JPEG quality 70-95. Writes DIR/images/<category>_NN.jpg, DIR/truth.tsv
(file, category, expected, kind, side, where, detail) and DIR/stamp.json (not regenerated while parameters
and sources are unchanged).
"""

import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_blur_world as W  # noqa: E402
import benchlib as B  # noqa: E402

SIDES = ["left", "right", "both"]
WHERE = {"in2": 2, "in1": 1, "at": 0, "out1": -1, "out2": -2}  # modules inside the guard's outer edge


def make_crop(rng, side, where, book):
    code = W.random_isbn(rng) if book else W.random_product(rng)
    label = W.Label(rng, code, isbn_line=book and rng.random() < 0.3)
    module_px = rng.uniform(1.5, 4.0)
    angle = rng.uniform(-0.5, 0.5)
    b = label.box
    size = (int(math.ceil((b[2] - b[0] + 24) * module_px)), int(math.ceil((b[3] - b[1] + 16) * module_px)))
    psfs = [W.gauss_psf(rng.uniform(0.25, 0.5) * module_px * W.BLUR_SUPER)]
    noise = (rng.uniform(0.002, 0.005), rng.uniform(0.0002, 0.0008))
    rgb, detail, to_pixel = W.render(rng, label, module_px, angle, psfs, size=size,
                                     centre=(size[0] / 2, size[1] / 2), noise=noise)
    inset = WHERE[where]
    mid = label.bar_h / 2
    u_left = inset if side in ("left", "both") else -W.QUIET_LEFT - rng.uniform(0, 6)
    u_right = 95 - inset if side in ("right", "both") else 95 + W.QUIET_RIGHT + rng.uniform(0, 6)
    x0 = int(round(to_pixel(u_left, mid)[0]))
    x1 = int(round(to_pixel(u_right, mid)[0]))
    v_top = -rng.uniform(0, 4)
    v_bottom = (label.bar_h - rng.uniform(0, 6) if rng.random() < 0.5
                else label.bar_h + label.guard_ext + label.digit_h + rng.uniform(0.5, 3))
    y0 = max(0, int(round(to_pixel(47.5, v_top)[1])))
    y1 = min(size[1], int(round(to_pixel(47.5, v_bottom)[1])))
    detail["crop"] = "x%d-%d,y%d-%d" % (x0, x1, y0, y1)
    return rgb[y0:y1, max(0, x0):min(size[0], x1)], code, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-category", type=int, default=8, help="images per side x cut (default 8: 120 images)")
    ap.add_argument("--seed", type=int, default=29)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    params = {"seed": a.seed, "per_category": a.per_category,
              "sources": B.sources_digest(os.path.abspath(__file__), os.path.join(here, "make_blur_world.py"))}
    if W.up_to_date(a.out, params):
        print("make_crop_set: %s is up to date" % a.out, file=sys.stderr)
        return 0
    W.start_dir(a.out)
    lines = []
    for side in SIDES:
        for where in WHERE:
            cat = "cut-%s_%s" % (side, where)
            for i in range(a.per_category):
                rng = random.Random("crop-%d-%s-%d" % (a.seed, cat, i))
                book = i % 2 == 0
                rgb, code, detail = make_crop(rng, side, where, book)
                quality = rng.randrange(70, 96)
                detail["jpeg"] = quality
                name = "images/%s_%02d.jpg" % (cat, i + 1)
                W.save_jpeg(rgb, os.path.join(a.out, name), quality)
                lines.append([name, cat, code, "book" if book else "product", side, where,
                              " ".join("%s=%s" % kv for kv in detail.items())])
        print("make_crop_set: cut %s: %d images" % (side, a.per_category * len(WHERE)), file=sys.stderr)
    W.finish_dir(a.out, ["file", "category", "expected", "kind", "side", "where", "detail"], lines, params)
    print("make_crop_set: wrote %d images to %s" % (len(lines), a.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

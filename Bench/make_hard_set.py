#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the hard synthetic set for the accuracy benchmark (make bench-accuracy), reproducibly.

    make_hard_set.py --out DIR [--seed 7] [--per-category 18]

zint renders (quiet zones kept) on synthetic book covers, degraded one way per category:

  rotation            angles spread over 5...60 degrees both ways, including 30, 45, 60 and odd ones (17, 52)
  perspective         label seen at an angle (trapezoid / skew)
  blur                gaussian, sigma 0.35-0.8 of a module
  noise               gaussian sensor noise, sigma 20-45 levels
  lowcontrast         bars only 18-45 grey levels darker than the label
  unevenlight         strong light fall-off plus a hard shadow across the label
  inversion           light bars on a dark label
  inversion_rotation  inverted and rotated 8...60 degrees
  jpeg                JPEG quality 10-30, modules 2-3.5 px
  small               1.5, 2 and 2.5 px per module (rendered at 8 px, area-downscaled)
  huge                4000x3000 photos: a big barcode (12-20 px modules) or a small one (2-3 px)

Codes: mostly 978 ISBN EAN-13s, some with an EAN-5 add-on, some EAN-8, a few 979 and product EAN-13s.
Writes DIR/images/<category>_NN.{jpg,png}, DIR/truth.tsv (file, category, expected, detail; expected is the
EAN digits followed directly by the add-on digits, like the corpus .txt files) and DIR/stamp.json
(nothing is regenerated when parameters and generator sources are unchanged).
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth as S  # noqa: E402

from PIL import Image, ImageChops, ImageDraw, ImageFilter  # noqa: E402

CODE_MIX = {"isbn": 65, "isbn_addon5": 15, "ean8": 12, "isbn979": 4, "product": 4}
PHOTO = (1200, 1600)
HUGE = (4000, 3000)

ROTATIONS = [5, -5, 8, -10, 12, 15, -17, 17, -20, 22, -25, 30, -30, 35, -37, 40, 45, -45, -52, 52, 55, 60, -60]
INV_ROTATIONS = [8, -12, 15, -17, 20, -25, 30, -30, 35, -40, 45, -45, 50, -52, 55, 60, -60, 28]


def compose(rng, size, ean, addon, module, angle=0.0, perspective=None, invert=False, ink=None, paper=None,
            render=None):
    """A cover of `size` with the code's label pasted (rotated/warped) at a random place."""
    if render is None:
        render = S.zint_render(ean, addon, module_px=module)
    label = S.label_from_render(render, rng, ink=ink, paper=paper, module_px=module,
                                margin_modules=rng.uniform(1.5, 4), invert=invert)
    quad = None
    if perspective:
        quad = perspective(label.size)
    rgb, mask = S.transform_label(label, angle=angle, perspective=quad)
    photo = S.cover_background(rng, *size)
    box = S.paste_somewhere(rng, photo, rgb, mask)
    return photo, box


def trapezoid(rng):
    """A perspective quad for a w x h label: one side shortened by 15-40%, plus some skew."""
    def make(size):
        w, h = size
        k = rng.uniform(0.15, 0.40)
        skew = rng.uniform(-0.15, 0.15) * w
        side = rng.choice(["left", "right", "top", "bottom"])
        if side == "left":
            pts = [(0, h * k / 2), (w, 0), (w, h), (0, h * (1 - k / 2))]
        elif side == "right":
            pts = [(0, 0), (w, h * k / 2), (w, h * (1 - k / 2)), (0, h)]
        elif side == "top":
            pts = [(w * k / 2, 0), (w * (1 - k / 2), 0), (w, h), (0, h)]
        else:
            pts = [(0, 0), (w, 0), (w * (1 - k / 2), h), (w * k / 2, h)]
        pts = [(x + (skew * (1 - y / h) if side in ("top", "bottom") else 0), y) for x, y in pts]
        minx = min(x for x, _ in pts)
        return [(x - minx, y) for x, y in pts]
    return make


def make_one(category, idx, rng, per):
    """-> (photo, format, jpeg quality, ean, addon, detail)."""
    ean, addon = S.random_code(rng, CODE_MIX)
    fmt, quality = "jpg", rng.randrange(85, 94)
    if category == "rotation":
        angle = ROTATIONS[idx % len(ROTATIONS)]
        module = rng.choice([3, 3.5, 4])
        photo, _ = compose(rng, PHOTO, ean, addon, module, angle=angle)
        photo = S.lighting(rng, photo, rng.uniform(0.1, 0.3))
        detail = "angle=%d module=%g" % (angle, module)
    elif category == "perspective":
        module = rng.choice([3, 3.5, 4, 5])
        photo, _ = compose(rng, PHOTO, ean, addon, module, perspective=trapezoid(rng), angle=rng.uniform(-4, 4))
        detail = "module=%g" % module
    elif category == "blur":
        module = rng.choice([3, 4, 5])
        sigma = module * (0.35 + 0.45 * idx / max(1, per - 1))
        photo, _ = compose(rng, PHOTO, ean, addon, module)
        photo = photo.filter(ImageFilter.GaussianBlur(sigma))
        detail = "module=%g sigma=%.2f" % (module, sigma)
    elif category == "noise":
        module = rng.choice([3, 4])
        sigma = 20 + 25 * idx / max(1, per - 1)
        photo, _ = compose(rng, PHOTO, ean, addon, module)
        photo = S.add_noise(photo.filter(ImageFilter.GaussianBlur(0.6)), sigma)
        detail = "module=%g noise=%.0f" % (module, sigma)
    elif category == "lowcontrast":
        module = rng.choice([3, 4])
        paper_v = rng.randrange(140, 215)
        delta = int(45 - 27 * idx / max(1, per - 1))
        photo, _ = compose(rng, PHOTO, ean, addon, module, ink=(paper_v - delta,) * 3, paper=(paper_v,) * 3)
        photo = photo.filter(ImageFilter.GaussianBlur(0.6))
        detail = "module=%g contrast=%d" % (module, delta)
    elif category == "unevenlight":
        module = rng.choice([3, 4])
        photo, (x0, y0, x1, y1) = compose(rng, PHOTO, ean, addon, module)
        photo = S.lighting(rng, photo, rng.uniform(0.6, 0.85))
        # A hard shadow (a hand, the phone) across part of the label.
        shade = Image.new("L", photo.size, 255)
        d = ImageDraw.Draw(shade)
        cx = rng.uniform(x0 + (x1 - x0) * 0.3, x0 + (x1 - x0) * 0.7)
        tilt = rng.uniform(-0.5, 0.5) * (y1 - y0)
        d.polygon([(cx - tilt, y0 - 50), (photo.width, y0 - 50), (photo.width, y1 + 50), (cx + tilt, y1 + 50)],
                  fill=rng.randrange(90, 150))
        shade = shade.filter(ImageFilter.GaussianBlur(rng.uniform(1, 6)))
        photo = ImageChops.multiply(photo, Image.merge("RGB", (shade, shade, shade)))
        detail = "module=%g" % module
    elif category in ("inversion", "inversion_rotation"):
        module = rng.choice([3, 3.5, 4])
        angle = INV_ROTATIONS[idx % len(INV_ROTATIONS)] if category == "inversion_rotation" else rng.uniform(-3, 3)
        photo, _ = compose(rng, PHOTO, ean, addon, module, angle=angle, invert=True)
        photo = photo.filter(ImageFilter.GaussianBlur(0.6))
        detail = "module=%g angle=%.0f" % (module, angle)
    elif category == "jpeg":
        module = rng.choice([2, 2.5, 3, 3.5])
        quality = 10 + int(20 * idx / max(1, per - 1))
        photo, _ = compose(rng, PHOTO, ean, addon, module, angle=rng.uniform(-3, 3))
        detail = "module=%g quality=%d" % (module, quality)
    elif category == "small":
        module = [1.5, 2, 2.5][idx % 3]
        render = S.zint_render_fractional(ean, addon, module)
        photo, _ = compose(rng, PHOTO, ean, addon, module, render=render)
        quality = 92
        detail = "module=%g" % module
    elif category == "huge":
        if idx % 2 == 0:
            module = rng.choice([12, 14, 16, 18, 20]) if not addon else rng.choice([12, 14])
            detail = "big barcode module=%g" % module
        else:
            module = rng.choice([2, 2.5, 3])
            detail = "small barcode module=%g" % module
        photo, _ = compose(rng, HUGE, ean, addon, module, angle=rng.uniform(-3, 3))
        photo = S.lighting(rng, photo, rng.uniform(0.1, 0.4)).filter(ImageFilter.GaussianBlur(0.8))
        quality = 88
    else:
        raise ValueError(category)
    if category in ("rotation", "perspective", "small", "jpeg"):
        photo = photo.filter(ImageFilter.GaussianBlur(0.6))  # lens softness
    if rng.random() < 0.15 and category not in ("jpeg", "small", "huge"):
        fmt = "png"
    return photo, fmt, quality, ean, addon, detail


CATEGORIES = ["rotation", "perspective", "blur", "noise", "lowcontrast", "unevenlight", "inversion",
              "inversion_rotation", "jpeg", "small", "huge"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--per-category", type=int, default=18)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    counts = {c: a.per_category for c in CATEGORIES}
    counts["rotation"] = max(a.per_category, len(ROTATIONS))
    counts["huge"] = max(2, a.per_category * 2 // 3)
    params = {"seed": a.seed, "counts": counts,
              "sources": S.sources_digest(__file__, os.path.join(here, "synth.py"))}
    if S.cached(a.out, params):
        print("make_hard_set: %s is up to date" % a.out, file=sys.stderr)
        return 0
    S.fresh_dir(a.out)
    os.makedirs(os.path.join(a.out, "images"))
    lines = ["file\tcategory\texpected\tdetail"]
    for ci, cat in enumerate(CATEGORIES):
        for i in range(counts[cat]):
            rng = random.Random((a.seed * 1009 + ci) * 100_003 + i)
            photo, fmt, quality, ean, addon, detail = make_one(cat, i, rng, counts[cat])
            name = "images/%s_%02d.%s" % (cat, i + 1, fmt)
            S.save_photo(photo, os.path.join(a.out, name), fmt, quality)
            lines.append("%s\t%s\t%s\t%s" % (name, cat, S.expected_text(ean, addon), detail))
        print("make_hard_set: %s: %d images" % (cat, counts[cat]), file=sys.stderr)
    with open(os.path.join(a.out, "truth.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    S.write_stamp(a.out, params)
    print("make_hard_set: wrote %d images to %s" % (len(lines) - 1, a.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

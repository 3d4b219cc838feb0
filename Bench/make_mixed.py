#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate a reproducible mixed folder of phone-size photos, half of them without any barcode
(make bench, issue 10).

    make_mixed.py --out DIR [--count 48] [--seed 5]

Half the photos are book backs with an EAN-13 (as Bench/make_photos.py makes them); the other half have
no barcode at all, in four kinds: a cover (colour fields, shapes, a title and paragraphs of real text), a
page of text, a shelf of book spines with titles, and a "snapshot" (soft colour blobs, edges of furniture,
grain).  Sizes alternate between 12 megapixels (4000x3000) and 4 megapixels (2304x1728); about a quarter
are PNG, the rest JPEG quality 80-92.

Writes DIR/images/mixed_NNN.{jpg,png}, DIR/truth.tsv (file, category, expected; expected is empty for a
photo without a barcode) and DIR/stamp.json; nothing is regenerated when the stamp matches.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth as S  # noqa: E402
import make_photos as P  # noqa: E402

from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402

WORDS = ("the of and a to in is was he for it with as his on be at by had not are but from or have an they which "
         "one you were her all she there would their we him been has when who will more no if out so said what up "
         "its about into than them can only other new some could time these two may then do first any my now such "
         "like our over man me even most made after also did many before must through back years where much your "
         "way well down should because each just those people how too little state good very make world still own "
         "see men work long get here between both life being under never day same another know while last might us "
         "great old year off come since against go came right used take three").split()


def font(size):
    return ImageFont.load_default(size=max(8, int(size)))


def paragraph(rng, draw, x, y, width, line_h, lines, ink):
    f = font(line_h)
    for i in range(lines):
        words, text = [], ""
        while True:
            word = rng.choice(WORDS)
            trial = (text + " " + word).strip()
            if draw.textlength(trial, font=f) > width:
                break
            text = trial
        draw.text((x, y + i * line_h * 1.45), text, fill=ink, font=f)


def cover(rng, w, h):
    img = S.cover_background(rng, w, h)
    draw = ImageDraw.Draw(img)
    light = sum(img.getpixel((w // 2, h // 2))) > 3 * 128
    ink = S._colour(rng, 0, 60) if light else S._colour(rng, 200, 255)
    draw.text((w * 0.1, h * 0.08), " ".join(rng.choice(WORDS) for _ in range(3)).title(), fill=ink,
              font=font(h * rng.uniform(0.04, 0.08)))
    paragraph(rng, draw, int(w * 0.1), int(h * 0.3), int(w * 0.8), h * rng.uniform(0.012, 0.02), rng.randrange(8, 25), ink)
    return img


def page(rng, w, h):
    paper = (rng.randrange(225, 250), rng.randrange(220, 245), rng.randrange(200, 235))
    img = Image.new("RGB", (w, h), paper)
    draw = ImageDraw.Draw(img)
    line_h = h * rng.uniform(0.012, 0.022)
    paragraph(rng, draw, int(w * 0.08), int(h * 0.06), int(w * 0.84), line_h, int(h * 0.85 / (line_h * 1.45)), (30, 30, 30))
    return S.lighting(rng, img, rng.uniform(0.1, 0.4))


def shelf(rng, w, h):
    img = Image.new("RGB", (w, h), S._colour(rng, 20, 80))
    x = 0
    while x < w:
        spine = int(w * rng.uniform(0.02, 0.07))
        top = int(h * rng.uniform(0.05, 0.25))
        colour = S._colour(rng, 20, 235)
        spine_img = Image.new("RGB", (h - top, spine), colour)
        d = ImageDraw.Draw(spine_img)
        ink = (250, 250, 250) if sum(colour) < 380 else (10, 10, 10)
        d.text((spine * 0.3, spine * 0.2), " ".join(rng.choice(WORDS) for _ in range(rng.randrange(2, 5))).title(),
               fill=ink, font=font(spine * 0.5))
        img.paste(spine_img.rotate(90, expand=True), (x, top))
        x += spine + rng.randrange(0, 3)
    img = img.filter(ImageFilter.GaussianBlur(0.8))
    return S.lighting(rng, img, rng.uniform(0.2, 0.5))


def snapshot(rng, w, h):
    sw, sh = 12, 9
    small = Image.new("RGB", (sw, sh))
    for y in range(sh):
        for x in range(sw):
            small.putpixel((x, y), S._colour(rng, 30, 220))
    img = small.resize((w, h), Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(img)
    for _ in range(rng.randrange(2, 8)):  # edges of a table, a door, a window
        x0, y0 = rng.randrange(w), rng.randrange(h)
        draw.line([x0, y0, x0 + rng.randrange(-w, w), y0 + rng.randrange(-h, h)], fill=S._colour(rng),
                  width=rng.randrange(3, 40))
    img = img.filter(ImageFilter.GaussianBlur(2))
    return S.add_noise(img, rng.uniform(3, 10))


KINDS = {"cover": cover, "page": page, "shelf": shelf, "snapshot": snapshot}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    params = {"count": a.count, "seed": a.seed, "sources": S.sources_digest(__file__, S.__file__, P.__file__)}
    if S.cached(a.out, params):
        print("make_mixed: %s is up to date" % a.out)
        return 0
    images = os.path.join(a.out, "images")
    S.fresh_dir(images)
    rng = random.Random(a.seed)
    rows = []
    for i in range(a.count):
        size = (4000, 3000) if i % 4 < 2 else (2304, 1728)
        if i % 2 == 0:
            photo, fmt, quality, expected, tags = P.make_one(rng, size, jpeg_only=False)
            category = "barcode"
        else:
            kind = list(KINDS)[(i // 2) % len(KINDS)]
            photo = KINDS[kind](rng, *size)
            fmt = "png" if rng.random() < 0.25 else "jpg"
            quality, expected, category = rng.randrange(80, 93), "", kind
        name = "mixed_%03d.%s" % (i + 1, fmt)
        S.save_photo(photo, os.path.join(images, name), fmt, quality)
        rows.append((os.path.join("images", name), category + "+%dx%d+%s" % (size[0], size[1], fmt), expected))
    with open(os.path.join(a.out, "truth.tsv"), "w") as f:
        f.write("file\tcategory\texpected\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    S.write_stamp(a.out, params)
    print("make_mixed: wrote %d photos to %s" % (a.count, images))
    return 0


if __name__ == "__main__":
    sys.exit(main())

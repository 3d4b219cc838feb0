#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate photos of several books at once: book backs laid on a textured table (make bench-accuracy).

    make_many_books.py --out DIR [--count 24] [--seed 61] [--sources CORPUS] [--no-barcode 0]

The damage is described here, independently of the decoder: people lay 4 to 20 books side by side on
a table, backs up, and take one phone photo from above.
- the table: a wood-like grain (stripes of varying width and tone along one direction, with knots) or
  a cloth (two crossed fine gratings, a weave) or a plain painted surface with a texture of blotches;
- each book: a rectangle of a book's proportions (width/height 0.62-0.75) laid at a random angle
  of up to 25 degrees either way, in a loose grid with gaps of 0-8 % of a book's width (books may
  nearly touch, never overlap). Its back is either a real photo of a barcode (from CORPUS, the shared
  corpus of real photos, scaled to the book) or a generated back cover (colour field, cover text
  blocks, title) with a zint EAN-13 label in its lower third: mostly 978 ISBNs, some with an EAN-5
  price add-on, a few product codes (which must be refused) and 979 ISBNs (refused without
  --accept 979). Modules of 1.5-4 pixels in the photo;
- the camera: the whole picture from 2400x1800 to 5200x3900 (about 20 megapixels), a lens softness
  (Gaussian blur of 0.3-0.9 px), a light falloff across the table, sensor noise (sigma 2-8 per channel),
  JPEG at quality 72-92.

With --no-barcode N, N more pictures of the same kinds of table with book covers, pages of type and
shelves of spines but no barcode at all, at 4 and 12 megapixels (every code read there is wrong).

Writes DIR/images/many_NNNN.jpg (and nobar_NNNN.jpg), DIR/truth.tsv (file, books, expected: the
EAN-13 of every book in the photo, comma-separated, add-on digits after a '+') and DIR/stamp.json.
When the stamp matches the parameters and the generator sources, nothing is regenerated.
"""

import argparse
import glob
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth as S  # noqa: E402

from PIL import Image, ImageDraw, ImageFilter  # noqa: E402

CODE_MIX = {"isbn": 78, "isbn_addon5": 12, "isbn979": 4, "product": 6}
SIZES = [(2400, 1800), (3200, 2400), (4000, 3000), (4600, 3450), (5200, 3900)]


def table(rng, w, h):
    """A table top: wood grain, cloth or painted blotches (RGB)."""
    kind = rng.choice(["wood", "wood", "cloth", "paint"])
    if kind == "wood":
        base = S._colour(rng, 90, 190)
        small = Image.new("RGB", (max(8, w // 4), 1))
        px = small.load()
        tone = 0.0
        for x in range(small.width):
            tone = 0.9 * tone + rng.uniform(-1, 1) * 0.35
            f = 1 + 0.22 * math.sin(x * rng.uniform(0.05, 0.4)) + tone * 0.2
            px[x, 0] = tuple(max(0, min(255, int(c * f))) for c in base)
        img = small.resize((w, h), Image.Resampling.BILINEAR)
        if rng.random() < 0.5:
            img = img.transpose(Image.Transpose.ROTATE_90).resize((w, h))
        draw = ImageDraw.Draw(img)
        for _ in range(rng.randrange(2, 8)):  # knots
            cx, cy, r = rng.randrange(w), rng.randrange(h), rng.randrange(w // 80, w // 25)
            draw.ellipse([cx - r, cy - r // 2, cx + r, cy + r // 2], fill=tuple(int(c * 0.7) for c in base))
    elif kind == "cloth":
        base = S._colour(rng, 60, 220)
        period = rng.randrange(3, 7)
        tile = Image.new("RGB", (period * 2, period * 2))
        tp = tile.load()
        for y in range(tile.height):
            for x in range(tile.width):
                f = 1 + 0.12 * ((x // period + y // period) % 2 * 2 - 1)
                tp[x, y] = tuple(max(0, min(255, int(c * f))) for c in base)
        img = Image.new("RGB", (w, h))
        for y in range(0, h, tile.height):
            for x in range(0, w, tile.width):
                img.paste(tile, (x, y))
    else:
        img = S.cover_background(rng, w, h)
    grain = Image.effect_noise((max(1, w // 3), max(1, h // 3)), rng.uniform(4, 12)).resize((w, h))
    return Image.blend(img, Image.merge("RGB", (grain, grain, grain)), 0.08)


def corpus_books(root):
    """(path, expected) of every EAN-13 photo of the corpus: the real backs."""
    books = []
    for txt in sorted(glob.glob(os.path.join(root, "*", "*", "*.txt"))):
        if "ean8" in txt:
            continue
        expected = open(txt).read().strip()
        if "upca" in txt:
            expected = "0" + expected
        for ext in (".png", ".jpg"):
            image = txt[:-4] + ext
            if os.path.exists(image):
                books.append((image, expected[:13], expected[13:] or None))
    return books


def generated_back(rng, bw, bh):
    """A generated back cover `bw`x`bh` with a barcode label in its lower third; (image, ean, addon)."""
    ean, addon = S.random_code(rng, CODE_MIX)
    back = S.cover_background(rng, bw, bh)
    module = rng.uniform(1.5, 4.0)
    # The label should fit the book: 113 modules for an EAN-13 with its quiet zones, 140 with an add-on.
    module = min(module, bw * 0.8 / (140 if addon else 113))
    render = S.zint_render_fractional(ean, addon, module)
    label = S.label_from_render(render, rng, module_px=module, margin_modules=rng.uniform(1, 3))
    x = rng.randrange(max(1, bw - label.width)) if bw > label.width else 0
    y = int(bh * rng.uniform(0.62, 0.95)) - label.height
    back.paste(label, (x, max(0, y)))
    return back, ean, addon


def real_back(rng, source, bw, bh):
    """A generated back cover `bw`x`bh` with a corpus photo of a barcode on it, scaled to 60-100 % of
    its size (never smaller: its modules would fall under a pixel), or `None` when it does not fit."""
    path, ean, addon = source
    with Image.open(path) as im:
        photo = im.convert("RGB")
    scale = min(1.0, bw * 0.95 / photo.width, bh * 0.6 / photo.height) * rng.uniform(0.85, 1.0)
    if scale < 0.6:
        return None
    photo = photo.resize((int(photo.width * scale), int(photo.height * scale)), Image.Resampling.BICUBIC)
    back = S.cover_background(rng, bw, bh)
    back.paste(photo, ((bw - photo.width) // 2, int(bh * 0.95) - photo.height))
    return back, ean, addon


def make_many(rng, sources, n_books, size):
    w, h = size
    photo = table(rng, w, h)
    cols = max(1, round(math.sqrt(n_books * w / h * 0.7)))
    rows = math.ceil(n_books / cols)
    cell_w, cell_h = w / cols, h / rows
    books = []
    slots = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(slots)
    for r, c in sorted(slots[:n_books]):
        aspect = rng.uniform(0.62, 0.75)
        angle = rng.uniform(-25, 25)
        # The largest book that, turned, fits its cell with a gap of 0-8 % of its width.
        gap = rng.uniform(0, 0.08)
        rad = math.radians(abs(angle))
        fit_h = min(cell_w / (aspect * math.cos(rad) + math.sin(rad)), cell_h / (aspect * math.sin(rad) + math.cos(rad)))
        bh = int(fit_h / (1 + gap))
        bw = int(bh * aspect)
        made = real_back(rng, rng.choice(sources), bw, bh) if sources and rng.random() < 0.4 else None
        back, ean, addon = made or generated_back(rng, bw, bh)
        rgb, mask = S.transform_label(back, angle=angle)
        x = int(c * cell_w + (cell_w - rgb.width) / 2 + rng.uniform(-1, 1) * max(0, cell_w - rgb.width) / 2)
        y = int(r * cell_h + (cell_h - rgb.height) / 2 + rng.uniform(-1, 1) * max(0, cell_h - rgb.height) / 2)
        photo.paste(rgb, (x, y), mask)
        books.append((ean, addon))
    return camera(rng, photo), books


def camera(rng, photo):
    photo = S.lighting(rng, photo, rng.uniform(0.05, 0.35))
    photo = photo.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.9)))
    return S.add_noise(photo, rng.uniform(2, 8))


def make_no_barcode(rng, size):
    """A picture without a barcode: covers on a table, a page of type, or a shelf of spines."""
    w, h = size
    kind = rng.choice(["covers", "page", "shelf"])
    if kind == "page":
        photo = Image.new("RGB", (w, h), S._colour(rng, 215, 250))
        draw = ImageDraw.Draw(photo)
        line_h = int(h * rng.uniform(0.008, 0.016))
        y = int(h * 0.06)
        while y < h * 0.94:
            x = int(w * 0.08)
            while x < w * 0.92:
                word = rng.randrange(line_h, line_h * 7)
                draw.rectangle([x, y, min(x + word, int(w * 0.92)), y + line_h], fill=S._colour(rng, 0, 50))
                x += word + line_h // 2
            y += int(line_h * 1.8)
    elif kind == "shelf":
        photo = table(rng, w, h)
        draw = ImageDraw.Draw(photo)
        x = 0
        while x < w:
            sw = rng.randrange(w // 60, w // 18)
            draw.rectangle([x, int(h * 0.1), x + sw, int(h * rng.uniform(0.75, 0.95))], fill=S._colour(rng, 20, 230))
            x += sw + rng.randrange(0, 4)
    else:
        photo = table(rng, w, h)
        for _ in range(rng.randrange(2, 9)):
            bw, bh = rng.randrange(w // 6, w // 3), rng.randrange(h // 4, h // 2)
            rgb, mask = S.transform_label(S.cover_background(rng, bw, bh), angle=rng.uniform(-25, 25))
            photo.paste(rgb, (rng.randrange(max(1, w - rgb.width)), rng.randrange(max(1, h - rgb.height))), mask)
    return camera(rng, photo)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--seed", type=int, default=61)
    ap.add_argument("--sources", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))
    ap.add_argument("--no-barcode", type=int, default=0, help="pictures without a barcode to add (4 and 12 MP)")
    ap.add_argument("--min-books", type=int, default=4)
    ap.add_argument("--max-books", type=int, default=20)
    a = ap.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))
    sources = corpus_books(a.sources) if os.path.isdir(a.sources) else []
    params = {"count": a.count, "seed": a.seed, "no_barcode": a.no_barcode, "books": [a.min_books, a.max_books],
              "corpus": len(sources), "sources": S.sources_digest(__file__, os.path.join(here, "synth.py"))}
    if S.cached(a.out, params):
        print("make_many_books: %s is up to date" % a.out, file=sys.stderr)
        return 0
    S.fresh_dir(a.out)
    os.makedirs(os.path.join(a.out, "images"))
    rng = random.Random(a.seed)
    lines = ["file\tbooks\texpected"]
    for i in range(a.count):
        n_books = rng.randrange(a.min_books, a.max_books + 1)
        # A photo taken from far enough to hold every book: cells of at least 420 pixels across.
        fitting = [s for s in SIZES if s[0] * s[1] / n_books >= 420 * 420 * 1.4] or SIZES[-1:]
        size = rng.choice(fitting)
        photo, books = make_many(rng, sources, n_books, size)
        name = "many_%04d.jpg" % i
        photo.save(os.path.join(a.out, "images", name), "JPEG", quality=rng.randrange(72, 93))
        expected = ",".join(ean + ("+" + addon if addon else "") for ean, addon in books)
        lines.append("%s\t%d\t%s" % (name, len(books), expected))
        print("make_many_books: %s %dx%d, %d books" % (name, size[0], size[1], len(books)), file=sys.stderr)
    for i in range(a.no_barcode):
        size = rng.choice([(2400, 1800), (4000, 3000)])
        name = "nobar_%04d.jpg" % i
        make_no_barcode(rng, size).save(os.path.join(a.out, "images", name), "JPEG", quality=rng.randrange(72, 93))
        lines.append("%s\t0\t" % name)
    with open(os.path.join(a.out, "truth.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    S.write_stamp(a.out, params)
    return 0


if __name__ == "__main__":
    sys.exit(main())

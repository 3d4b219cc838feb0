#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate small photos of the foot of a back cover whose `ISBN ...` line is in small type: a tune part and a blind part.

    make_small_type_set.py --out DIR [--count 120] [--seed 41] [--blind-seed 43]

For `isbnscan scan --text` on lines whose capitals are only 5-10 pixels tall: the ISBN line printed
above a book's barcode, photographed from some way off (issue 28). Made from a description of the
damage, not from the real photos of make_covered_set.py: nothing here was fitted to them.

One image (a crop of a photo, 240-640 pixels wide, as a phone's photo of a back cover cut to the
barcode's corner):
  1. paper: grey 0.70-0.97 (some tinted), a light gradient, sensor noise;
  2. the barcode's place: covered by a patch of paper colour or a white price sticker (with a price on
     it), or left bare (a coloured panel): never bars, so that only the line can be read;
  3. the line, above it, with capitals 5, 6, 7, 8, 9 or 10 pixels tall (as many images of each):
     `ISBN 0-14-044913-9`, `ISBN 978-0-306-40615-7`, `ISBN-13: ... ISBN-10: ...` on one line or two,
     `ISBN: ...`; hyphens where the range message puts them, misplaced, or none; a third of them
     letter-spaced (0.1-0.5 em between letters); maybe a price line and a publisher's name near it, and
     a line or two of blurb in larger type at the top;
  4. the photo: the scene drawn 4 times larger, turned by up to 4 degrees, lit unevenly, reduced by area
     (a camera's pixels), Gaussian blur 0.3-1.0 px, JPEG quality 40-90 (a quarter PNG).
A quarter of the images hold no ISBN (`lookalike`): the same layout with an ISSN, a 10-digit order
number that passes the ISBN-10 check but has no `ISBN` keyword, a phone number, or an `ISBN` line with
a wrong check digit (a misprint: it must be refused, never read as another ISBN).

The parts use different seeds and different fonts (OCR-B in both: the face most ISBN lines above a
barcode are set in): the blind part is for the figure to report, never to look at while tuning.

Each part has images/<kind>_NN.(jpg|png), truth.tsv (file, kind, expected ISBN-13 or "-", the line as
printed, font, cap_px, tracking, angle, blur, cover, format) and stamp.json: a part is not regenerated
when its parameters and this file are unchanged.
"""

import argparse
import hashlib
import json
import math
import os
import random
import shutil

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

# Debian packages (make bench-deps): fonts-ocr-b, fonts-dejavu-extra, fonts-liberation2, fonts-freefont-ttf, fonts-urw-base35.
FONTS = {
    "tune": [
        "/usr/share/fonts/opentype/ocr-b/OCRB.otf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
        "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf",
        "/usr/share/fonts/opentype/urw-base35/P052-Roman.otf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    ],
    "blind": [
        "/usr/share/fonts/opentype/ocr-b/OCRB.otf",
        "/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed.ttf",
        "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Regular.otf",
        "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf",
    ],
}

# Registration group and registrant elements in defined ranges of the range message (publication element
# fills the 9 digits), as in make_text_set.py.
REGISTRANTS = [("0", "306"), ("0", "14"), ("0", "19"), ("1", "4028"), ("1", "56619"), ("2", "07"), ("3", "16"),
               ("4", "10"), ("4", "87311"), ("84", "376"), ("88", "04"), ("7", "02"), ("0", "7167"), ("3", "540"),
               ("0", "262"), ("0", "393"), ("0", "7356"), ("1", "55860")]
PUBLISHERS = ["PENGUIN BOOKS", "Vintage", "W. W. Norton", "O'REILLY", "Microsoft Press", "Dover", "Faber & Faber",
              "HarperCollins", "Springer", "MIT Press"]
BLURB = ("the of and a to in is was that for on with as by at from his her this which book first new story "
         "history world city river family war love letters novel acclaimed author bestselling guide complete").split()
SUPER = 4  # the scene is drawn this many times larger than the photo's pixels


def isbn10_check(nine):
    value = (11 - sum(int(d) * (10 - i) for i, d in enumerate(nine)) % 11) % 11
    return "X" if value == 10 else str(value)


def ean_check(twelve):
    return str((10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(twelve)) % 10) % 10)


def random_isbn(rng):
    group, registrant = rng.choice(REGISTRANTS)
    publication = "".join(str(rng.randrange(10)) for _ in range(9 - len(group) - len(registrant)))
    nine = group + registrant + publication
    isbn13 = "978" + nine + ean_check("978" + nine)
    return isbn13, [group, registrant, publication, isbn10_check(nine)], ["978", group, registrant, publication, isbn13[-1]]


def grouped(rng, groups):
    digits = "".join(groups)
    style = rng.random()
    if style < 0.65:
        return "-".join(groups)
    if style < 0.85:
        cuts = sorted(rng.sample(range(1, len(digits) - 1), 3))
        return "-".join(digits[a:b] for a, b in zip([0] + cuts, cuts + [len(digits)]))
    return digits


def isbn_lines(rng):
    """(lines as printed, top to bottom; the ISBN-13)."""
    isbn13, g10, g13 = random_isbn(rng)
    style = rng.random()
    if style < 0.3:
        return ["ISBN " + grouped(rng, g10)], isbn13
    if style < 0.55:
        return [rng.choice(["ISBN ", "ISBN: ", "ISBN-13: "]) + grouped(rng, g13)], isbn13
    if style < 0.8:
        label13, label10 = rng.choice([("ISBN-13: ", "ISBN-10: "), ("ISBN 13: ", "ISBN 10: "), ("ISBN-13 ", "ISBN-10 ")])
        return [label13 + grouped(rng, g13), label10 + grouped(rng, g10)], isbn13
    sep = rng.choice(["  ", " / ", "   "])
    return ["ISBN-13: " + grouped(rng, g13) + sep + "ISBN-10: " + grouped(rng, g10)], isbn13


def lookalike_lines(rng):
    """Lines with numbers and no ISBN to read (expected: nothing)."""
    kind = rng.random()
    if kind < 0.3:  # a misprinted check digit: refused, never read as another ISBN
        _, g10, g13 = random_isbn(rng)
        groups = list(g10 if rng.random() < 0.5 else g13)
        groups[-1] = rng.choice([d for d in "0123456789" if d != groups[-1]])
        return ["ISBN " + "-".join(groups)]
    if kind < 0.5:
        nine = "".join(str(rng.randrange(10)) for _ in range(9))
        while isbn10_check(nine) == "X":
            nine = "".join(str(rng.randrange(10)) for _ in range(9))
        return ["Order No. %s-%s-%s-%s" % (nine[0], nine[1:4], nine[4:9], isbn10_check(nine))]
    if kind < 0.7:
        return ["ISSN %04d-%03d%s" % (rng.randrange(10000), rng.randrange(1000), rng.choice("0123456789X"))]
    if kind < 0.85:
        return ["Tel. (%03d) %03d-%04d" % (rng.randrange(1000), rng.randrange(1000), rng.randrange(10000))]
    twelve = "978" + "".join(str(rng.randrange(10)) for _ in range(9))
    return ["EAN %s" % (twelve + ean_check(twelve))]


def font_for_cap(path, cap_px):
    """The font at the size whose capitals are cap_px photo pixels tall (drawn SUPER times larger)."""
    probe = ImageFont.truetype(path, 200)
    box = probe.getbbox("H")
    cap = (box[3] - box[1]) / 200.0
    return ImageFont.truetype(path, max(4, int(round(cap_px * SUPER / cap))))


def draw_line(draw, xy, text, font, fill, tracking):
    """Draws text at xy, with tracking (extra space between letters, in pixels); returns its width."""
    x, y = xy
    if not tracking:
        draw.text((x, y), text, font=font, fill=fill)
        return draw.textlength(text, font=font)
    for ch in text:
        draw.text((x, y), ch, font=font, fill=fill)
        x += draw.textlength(ch, font=font) + tracking
    return x - xy[0] - tracking


def line_width(draw, text, font, tracking):
    return draw.textlength(text, font=font) + tracking * max(0, len(text) - 1)


def make_image(job):
    part, index, kind, seed, fonts, cap_px, out = job
    rng = random.Random(seed)
    if kind == "isbn":
        lines, expected = isbn_lines(rng)
    else:
        lines, expected = lookalike_lines(rng), "-"
    font_path = rng.choice(fonts)
    font = font_for_cap(font_path, cap_px)
    tracking = rng.uniform(0.1, 0.5) * font.size if rng.random() < 0.33 else 0.0
    paper = int(255 * rng.uniform(0.70, 0.97))
    tint = [paper, paper, paper]
    if rng.random() < 0.3:
        tint = [min(255, paper + rng.randint(-6, 10)), min(255, paper + rng.randint(-6, 6)), min(255, paper + rng.randint(-20, 0))]
    ink = rng.randint(0, 70)

    # The scene, SUPER times larger: the line over the barcode's place, the rest around.
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    text_w = max(line_width(probe, t, font, tracking) for t in lines)
    line_h = font.size * 1.3
    bar_w = max(text_w * rng.uniform(0.9, 1.3), cap_px * SUPER * 12)
    bar_h = bar_w * rng.uniform(0.45, 0.65)
    width = int(max(240 * SUPER, text_w + rng.uniform(60, 320) * SUPER))
    width = min(width, 640 * SUPER) if text_w < 600 * SUPER else int(text_w + 40 * SUPER)
    height = int(width * rng.uniform(0.45, 0.9))
    scene = Image.new("RGB", (width, height), tuple(tint))
    draw = ImageDraw.Draw(scene)
    block_h = line_h * len(lines) + 0.4 * line_h + bar_h
    x0 = rng.uniform(10 * SUPER, max(10 * SUPER + 1, width - max(text_w, bar_w) - 10 * SUPER))
    y0 = rng.uniform(height * 0.25, max(height * 0.25 + 1, height - block_h - 8 * SUPER))
    # Larger type above: a blurb line or two, maybe cut by the photo's edge, and a publisher.
    big = font_for_cap(rng.choice(fonts), cap_px * rng.uniform(1.3, 2.2))
    y = y0 - big.size * 1.4 * rng.randint(1, 3) - line_h
    while y > -big.size and rng.random() < 0.8:
        text = " ".join(rng.choice(BLURB) for _ in range(rng.randint(4, 12)))
        draw.text((rng.uniform(-40, 20) * SUPER, y), text, font=big, fill=(ink,) * 3)
        y -= big.size * 1.4
    # The ISBN line(s), then the barcode's place.
    y = y0
    for text in lines:
        draw_line(draw, (x0, y), text, font, (ink,) * 3, tracking)
        y += line_h
    y += 0.4 * line_h
    cover = rng.choice(["paper", "sticker", "panel"])
    bar_x = x0 + rng.uniform(-0.1, 0.2) * bar_w
    if cover == "sticker":
        white = rng.randint(235, 255)
        draw.rounded_rectangle((bar_x, y, bar_x + bar_w, y + bar_h), radius=int(bar_h * 0.08),
                               fill=(white, white, rng.randint(200, white)), outline=(150, 150, 150), width=SUPER)
        price = font_for_cap(rng.choice(fonts), max(cap_px * 1.5, 10))
        draw.text((bar_x + bar_w * 0.15, y + bar_h * 0.3), rng.choice(["$12.99", "USED 4.50", "£7.99", "SALE $3"]),
                  font=price, fill=(rng.randint(0, 120), 0, 0))
    elif cover == "paper":
        shade = [min(255, max(0, c + rng.randint(-8, 8))) for c in tint]
        draw.rectangle((bar_x, y, bar_x + bar_w, y + bar_h), fill=tuple(shade))
    else:
        panel = tuple(rng.randint(120, 250) for _ in range(3))
        draw.rectangle((bar_x, y, bar_x + bar_w, y + bar_h), fill=panel)
    # A price and a publisher beside the barcode's place, in the line's size or a little larger.
    if rng.random() < 0.6:
        side = font_for_cap(rng.choice(fonts), cap_px * rng.uniform(1.0, 1.4))
        px = bar_x + bar_w + 12 * SUPER
        if px < width - 40 * SUPER:
            draw.text((px, y + bar_h * rng.uniform(0, 0.6)), rng.choice(["US $14.95", "$24.99 U.S.", "CAN $32.99", "£9.99 net"]),
                      font=side, fill=(ink,) * 3)
    if rng.random() < 0.5:
        draw.text((x0, y + bar_h + 6 * SUPER), rng.choice(PUBLISHERS), font=font, fill=(ink,) * 3)

    # The photo: light, reduced by area to the camera's pixels, turned, blurred, noise, compression.
    scene = scene.convert("L") if rng.random() < 0.5 else scene
    angle = rng.uniform(-4, 4)
    scene = scene.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=tuple(tint) if scene.mode == "RGB" else paper)
    w, h = scene.size
    low = rng.uniform(0.65, 1.0)
    gx, gy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    small = Image.new("L", (16, 16))
    small.putdata([int(255 * (low + (1 - low) * min(1, max(0, (i / 15 - 0.5) * gx + (j / 15 - 0.5) * gy + 0.5))))
                   for j in range(16) for i in range(16)])
    light = small.resize((w, h), Image.BILINEAR)
    scene = ImageChops.multiply(scene, light if scene.mode == "L" else Image.merge("RGB", (light,) * 3))
    photo = scene.resize((w // SUPER, h // SUPER), Image.BOX)
    blur = round(rng.uniform(0.3, 1.0), 2)
    photo = photo.filter(ImageFilter.GaussianBlur(blur))
    noise = Image.effect_noise(photo.size, rng.uniform(3, 10))
    if photo.mode == "RGB":
        noise = Image.merge("RGB", (noise,) * 3)
    photo = Image.blend(photo, noise, 0.04)
    fmt = "png" if rng.random() < 0.25 else "jpg"
    name = "%s_%02d.%s" % (kind, index, fmt)
    path = os.path.join(out, "images", name)
    if fmt == "jpg":
        photo.save(path, quality=rng.randint(40, 90))
    else:
        photo.save(path, optimize=True)
    return [name, kind, expected, " / ".join(lines), os.path.basename(font_path), str(cap_px), "%.2f" % (tracking / font.size),
            "%.2f" % angle, str(blur), cover, fmt]


def generate(out, part, seed, count):
    stamp = {"part": part, "seed": seed, "count": count,
             "source": hashlib.sha256(open(os.path.abspath(__file__), "rb").read()).hexdigest()}
    stamp_path = os.path.join(out, "stamp.json")
    if os.path.exists(stamp_path) and json.load(open(stamp_path)) == stamp:
        print("make_small_type_set: %s is up to date" % out)
        return
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "images"))
    rng = random.Random(seed)
    heights = [5, 6, 7, 8, 9, 10]
    jobs, counters = [], {}
    for i in range(count):
        kind = "lookalike" if i % 4 == 3 else "isbn"
        counters[kind] = counters.get(kind, 0) + 1
        cap = heights[(counters[kind] - 1) % len(heights)] if kind == "isbn" else rng.choice(heights)
        jobs.append((part, counters[kind], kind, rng.randrange(1 << 30), FONTS[part], cap, out))
    rows = [make_image(job) for job in jobs]
    with open(os.path.join(out, "truth.tsv"), "w") as f:
        f.write("file\tkind\texpected\tline\tfont\tcap_px\ttracking\tangle\tblur\tcover\tformat\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    json.dump(stamp, open(stamp_path, "w"))
    print("make_small_type_set: %d images in %s" % (len(rows), out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=120, help="images per part (a quarter without an ISBN)")
    parser.add_argument("--seed", type=int, default=41, help="seed of the tune part")
    parser.add_argument("--blind-seed", type=int, default=43, help="seed of the blind part")
    args = parser.parse_args()
    for font in FONTS["tune"] + FONTS["blind"]:
        if not os.path.exists(font):
            raise SystemExit("make_small_type_set: %s is missing (make bench-deps installs the fonts)" % font)
    generate(os.path.join(args.out, "tune"), "tune", args.seed, args.count)
    generate(os.path.join(args.out, "blind"), "blind", args.blind_seed, args.count)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate pages whose ISBN is printed as text (no barcode): a tune part and a held-out part.

    make_text_set.py --out DIR [--count 100] [--seed 31] [--holdout-seed 37]

For `isbnscan scan --text` (Documentation/text.md). Nothing here comes from the barcode generators: a page
is typeset with Pillow from a Debian font, then photographed in software.

One page:
  1. kind (the share of pages):
       copyright   a copyright page: rights notice, cataloguing data, printer's line, then one or two
                   "ISBN ..." lines, each maybe with a qualifier ("(pbk.)", "(hardcover)") (35 %)
       back        a back cover: a blurb paragraph, a price, then the ISBN line (25 %)
       japanese    the Japanese line "ISBN4-10-101001-4 C0193 Y476E" (ISBN-10 or ISBN-13, yen sign) (10 %)
       lookalike   no ISBN at all: phone and fax numbers, a price list, an ISSN, order numbers, a page of
                   figures; some 10-digit numbers are made to pass the ISBN-10 check by chance; some
                   lines "ISBN ..." with a wrong check digit, which must be refused (30 %)
  2. the ISBN: 978 (ISBN-10 form on half of the older-looking pages), in real registrant ranges, with its
     check digit; printed hyphenated (a quarter of them with hyphens in the wrong places, some without),
     after "ISBN", "ISBN-10:", "ISBN-13:" or "ISBN:";
  3. type: 6-14 pt at 150-300 dpi (so 12-58 px per em), in a font of the part's subset: tune and held-out
     use different fonts (the held-out fonts were never looked at while tuning);
  4. photo: rotated by up to 5 degrees (and 15 % of the pages turned 90/180/270), Gaussian blur
     0-1.2 px, uneven light (a gradient down to 55 % and a dim corner), paper grey 0.85-1.0, noise,
     JPEG quality 45-95 (a quarter saved as PNG).

Each part has images/<kind>_NN.(jpg|png), truth.tsv (file, kind, expected ISBN-13s separated by spaces or
"-", font, pt, dpi, angle, turn, blur, light, format) and stamp.json: a part is not regenerated when its
parameters and this file are unchanged.
"""

import argparse
import hashlib
import json
import math
import os
import random
import shutil

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

# Fonts from Debian packages (fonts-dejavu-core, fonts-liberation2, fonts-freefont-ttf, fonts-urw-base35).
FONTS = {
    "tune": [
        "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSerif.ttf",
        "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
    ],
    "holdout": [
        "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf",
        "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
        "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf",
    ],
}

# Registration group and registrant elements in defined ranges of the range message, with the length of
# the publication element filling the 9 digits (so every generated ISBN has a hyphenated form).
REGISTRANTS = [("0", "306"), ("0", "14"), ("0", "19"), ("1", "4028"), ("1", "56619"), ("2", "07"), ("3", "16"),
               ("4", "10"), ("4", "87311"), ("84", "376"), ("88", "04"), ("7", "02"), ("0", "7167"), ("3", "540"),
               ("0", "262")]
QUALIFIERS = ["(pbk.)", "(hardcover)", "(cloth)", "(paperback)", "(alk. paper)", "(ebook)"]
WORDS = ("the of and a to in is was that for on with as by at from his her they this which book were "
         "first published edition press all rights reserved no part may be reproduced stored retrieval system "
         "transmitted any form means electronic mechanical photocopying recording otherwise without prior "
         "permission publisher printed bound great britain library congress cataloging data novel story "
         "history world new york london tokyo years later night city river family war love letters").split()


def isbn10_check(nine):
    total = sum(int(d) * (10 - i) for i, d in enumerate(nine))
    value = (11 - total % 11) % 11
    return "X" if value == 10 else str(value)


def ean_check(twelve):
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(twelve))
    return str((10 - total % 10) % 10)


def random_isbn(rng):
    """(isbn13, groups of the ISBN-10 or None, groups of the ISBN-13) for a random book."""
    group, registrant = rng.choice(REGISTRANTS)
    pub_len = 9 - len(group) - len(registrant)
    publication = "".join(str(rng.randrange(10)) for _ in range(pub_len))
    nine = group + registrant + publication
    twelve = "978" + nine
    isbn13 = twelve + ean_check(twelve)
    return isbn13, [group, registrant, publication, isbn10_check(nine)], ["978", group, registrant, publication, isbn13[-1]]


def printed(rng, groups):
    """The groups as printed: hyphens, misplaced hyphens (publishers do), spaces or none."""
    digits = "".join(groups)
    style = rng.random()
    if style < 0.6:
        return "-".join(groups)
    if style < 0.8:  # hyphens in the wrong places
        cuts = sorted(rng.sample(range(1, len(digits) - 1), 3))
        parts, last = [], 0
        for cut in cuts:
            parts.append(digits[last:cut])
            last = cut
        parts.append(digits[last:])
        return "-".join(p for p in parts if p)
    if style < 0.9:
        return " ".join(groups)
    return digits


def isbn_line(rng, groups10, groups13, old):
    use10 = old and rng.random() < 0.7
    groups = groups10 if use10 else groups13
    label = rng.choice(["ISBN ", "ISBN ", "ISBN: ", "ISBN-10: " if use10 else "ISBN-13: "])
    return label + printed(rng, groups)


def lookalike_lines(rng):
    """Lines with numbers that are no ISBN (no 'ISBN' keyword; some pass an ISBN-10 check by chance)."""
    lines = []
    for _ in range(rng.randint(6, 14)):
        kind = rng.random()
        if kind < 0.2:
            lines.append("Tel. (%03d) %03d-%04d  Fax (%03d) %03d-%04d" % tuple(rng.randrange(1000) for _ in range(6)))
        elif kind < 0.35:
            nine = "".join(str(rng.randrange(10)) for _ in range(9))
            check = isbn10_check(nine)
            if check != "X":  # a phone-like number that passes the ISBN-10 check
                lines.append("Orders: %s-%s-%s%s" % (nine[:3], nine[3:6], nine[6:], check))
        elif kind < 0.5:
            lines.append("%s ......... %d.%02d" % (rng.choice(WORDS).capitalize(), rng.randrange(1, 99), rng.randrange(100)))
        elif kind < 0.6:
            lines.append("ISSN %04d-%03d%s" % (rng.randrange(10000), rng.randrange(1000), rng.choice("0123456789X")))
        elif kind < 0.75:
            lines.append("  ".join(str(rng.randrange(10 ** rng.randint(2, 7))) for _ in range(rng.randint(4, 8))))
        elif kind < 0.8:
            twelve = "978" + "".join(str(rng.randrange(10)) for _ in range(9))
            lines.append("Item %s  Qty %d" % (twelve + ean_check(twelve), rng.randint(1, 20)))
        elif kind < 0.88:
            # The keyword with a wrong check digit (a misprint): refused, never "corrected" into another ISBN.
            _, g10, g13 = random_isbn(rng)
            groups = list(g10 if rng.random() < 0.5 else g13)
            right = groups[-1]
            groups[-1] = rng.choice([d for d in "0123456789" if d != right])
            lines.append("ISBN " + "-".join(groups))
        else:
            lines.append(sentence(rng))
    return lines


def sentence(rng, words=None):
    n = words or rng.randint(5, 11)
    text = " ".join(rng.choice(WORDS) for _ in range(n))
    return text[0].upper() + text[1:] + "."


def page_lines(rng, kind):
    """(lines, expected ISBN-13s)."""
    if kind == "lookalike":
        return lookalike_lines(rng), []
    isbn13, g10, g13 = random_isbn(rng)
    old = rng.random() < 0.5
    if kind == "japanese":
        group = g10 if rng.random() < 0.6 else g13
        line = "ISBN" + "-".join(group) + " C%04d \u00a5%dE" % (rng.randrange(10000), rng.randrange(300, 3000))
        lines = [sentence(rng) for _ in range(rng.randint(2, 4))] + [line]
        return lines, [isbn13]
    if kind == "back":
        lines = [sentence(rng) for _ in range(rng.randint(4, 9))]
        lines += ["", "$%d.%02d" % (rng.randrange(5, 40), rng.choice([0, 50, 95, 99])), isbn_line(rng, g10, g13, old)]
        return lines, [isbn13]
    year = rng.randrange(1950, 2024)
    lines = ["Copyright \u00a9 %d by %s %s" % (year, rng.choice(WORDS).capitalize(), rng.choice(WORDS).capitalize()),
             "All rights reserved.", sentence(rng), sentence(rng), "",
             "Library of Congress Cataloging-in-Publication Data"]
    expected = [isbn13]
    first = isbn_line(rng, g10, g13, old)
    if rng.random() < 0.4:
        first += " " + rng.choice(QUALIFIERS)
    lines.append(first)
    if rng.random() < 0.35:
        other, o10, o13 = random_isbn(rng)
        lines.append(isbn_line(rng, o10, o13, old) + " " + rng.choice(QUALIFIERS))
        expected.append(other)
    lines += ["", "Printed in %s" % rng.choice(["the United States of America", "Great Britain", "Japan"]),
              " ".join(str(n) for n in range(10, 0, -1))]
    return lines, expected


def render(rng, lines, font_path, pt, dpi):
    em = max(8, int(round(pt * dpi / 72)))
    font = ImageFont.truetype(font_path, em)
    width = int(rng.uniform(4.5, 6.5) * dpi)
    margin = int(0.5 * dpi)
    line_h = int(em * 1.35)
    top = margin + rng.randint(0, margin)
    # Every line fits: the last is the ISBN line.
    height = max(int(2.2 * dpi), top + line_h * len(lines) + margin)
    paper = int(255 * rng.uniform(0.85, 1.0))
    page = Image.new("L", (width, height), paper)
    draw = ImageDraw.Draw(page)
    ink = rng.randint(0, 60)
    y = top
    for line in lines:
        draw.text((margin, y), line, font=font, fill=ink)
        y += line_h
    return page


def photograph(rng, page):
    detail = {}
    angle = rng.uniform(-5, 5)
    detail["angle"] = round(angle, 2)
    background = page.getpixel((2, 2))
    page = page.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=background)
    turn = rng.choice([90, 180, 270]) if rng.random() < 0.15 else 0
    detail["turn"] = turn
    if turn:
        page = page.rotate(-turn, expand=True)  # PIL turns counter-clockwise; the page is turned clockwise
    blur = rng.choice([0, 0, 0.4, 0.7, 1.0, 1.2])
    detail["blur"] = blur
    if blur:
        page = page.filter(ImageFilter.GaussianBlur(blur))
    # Uneven light: a linear gradient down to 55 % and a dim corner.
    w, h = page.size
    low = rng.uniform(0.55, 1.0)
    detail["light"] = round(low, 2)
    gx, gy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    norm = math.hypot(gx, gy) or 1.0
    gx, gy = gx / norm, gy / norm
    small = Image.new("L", (32, 32))
    values = []
    for j in range(32):
        for i in range(32):
            t = ((i / 31 - 0.5) * gx + (j / 31 - 0.5) * gy) + 0.5
            corner = math.hypot(i / 31, j / 31) / math.sqrt(2)
            values.append(int(255 * (low + (1 - low) * min(1, max(0, t))) * (0.85 + 0.15 * corner)))
    small.putdata(values)
    light = small.resize((w, h), Image.BILINEAR)
    page = ImageChops.multiply(page, light)
    # Sensor noise.
    noise = Image.effect_noise((w, h), rng.uniform(2, 8))
    page = Image.blend(page, noise, 0.05)
    return page, detail


def make_page(args):
    part, index, kind, seed, fonts, out = args
    rng = random.Random(seed)
    lines, expected = page_lines(rng, kind)
    font = rng.choice(fonts)
    pt = rng.choice([6, 7, 8, 9, 10, 11, 12, 14])
    dpi = rng.choice([150, 200, 240, 300])
    page = render(rng, lines, font, pt, dpi)
    photo, detail = photograph(rng, page)
    fmt = "png" if rng.random() < 0.25 else "jpg"
    name = "%s_%02d.%s" % (kind, index, fmt)
    path = os.path.join(out, "images", name)
    if fmt == "jpg":
        photo.save(path, quality=rng.randint(45, 95))
    else:
        photo.save(path, optimize=True)
    return [name, kind, " ".join(expected) or "-", os.path.basename(font), str(pt), str(dpi), str(detail["angle"]),
            str(detail["turn"]), str(detail["blur"]), str(detail["light"]), fmt]


def generate(out, part, seed, count):
    stamp = {"part": part, "seed": seed, "count": count,
             "source": hashlib.sha256(open(os.path.abspath(__file__), "rb").read()).hexdigest()}
    stamp_path = os.path.join(out, "stamp.json")
    if os.path.exists(stamp_path) and json.load(open(stamp_path)) == stamp:
        print("make_text_set: %s is up to date" % out)
        return
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "images"))
    rng = random.Random(seed)
    kinds = ["copyright"] * 35 + ["back"] * 25 + ["japanese"] * 10 + ["lookalike"] * 30
    jobs, counters = [], {}
    for _ in range(count):
        kind = rng.choice(kinds)
        counters[kind] = counters.get(kind, 0) + 1
        jobs.append((part, counters[kind], kind, rng.randrange(1 << 30), FONTS[part], out))
    rows = [make_page(job) for job in jobs]
    with open(os.path.join(out, "truth.tsv"), "w") as f:
        f.write("file\tkind\texpected\tfont\tpt\tdpi\tangle\tturn\tblur\tlight\tformat\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    json.dump(stamp, open(stamp_path, "w"))
    print("make_text_set: %d pages in %s" % (len(rows), out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=100, help="pages per part")
    parser.add_argument("--seed", type=int, default=31, help="seed of the tune part")
    parser.add_argument("--holdout-seed", type=int, default=37, help="seed of the held-out part")
    args = parser.parse_args()
    for font in FONTS["tune"] + FONTS["holdout"]:
        if not os.path.exists(font):
            raise SystemExit("make_text_set: %s is missing (make bench-deps installs the fonts)" % font)
    generate(os.path.join(args.out, "tune"), "tune", args.seed, args.count)
    generate(os.path.join(args.out, "holdout"), "holdout", args.holdout_seed, args.count)


if __name__ == "__main__":
    main()

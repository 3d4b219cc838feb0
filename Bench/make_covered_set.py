#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Real photos of book barcodes with the bars covered: only the printed `ISBN ...` line left.

    make_covered_set.py --bin ISBNSCAN --corpus DIR --out DIR

For the issue-28 target "on real photos of book barcodes whose bars were covered (only the printed
`ISBN ...` line above them left) the ISBN read from the line on at least 85 %". No such photos exist in
the corpus, so this makes the closest honest set: the corpus's 18 real photos of book barcodes (ISBN
EAN-13s), each with its EAN-13 and the digits under it covered as a person's sticker would cover
them. The photos are real; the covering is synthetic.

Each photo is covered twice:
  paper    a plain patch of the paper's colour (the bright pixels just around the symbol), with the
           paper's own noise, edges anti-aliased;
  sticker  a price-sticker-like label: off-white or pale yellow, a thin grey edge, and a price
           (`$12.99`, `USED 4.50`...) printed on it in the symbol's direction.

Where the cover goes: `ISBNSCAN scan --json` on the original gives the EAN-13's polygon and reading
direction (orientation; where it reads no barcode, one photo, its barcode-like candidate region, taken
as upright). The polygon is only a box, so the bars' direction is measured inside it: the structure
tensor of the gradients, signed by the orientation, then turned (by up to 12 degrees) to where the mean
of the rows across the middle of the symbol varies most. In that frame (u along the reading direction,
v towards the digits) the symbol is measured from the pixels:
  - across: the dark runs of the middle rows (dark: under half way between the darkest and brightest
    within 3 % of the size), and of them 12-34 consecutive runs spanning 95 modules with no space over
    6.5 modules inside and that much clear outside (the add-on lies 7-12 modules off), the widest;
    where none qualifies (bars of a pixel, merged by blur), the box's extent;
  - up and down: rows whose profile over the middle 60 % of that span correlates with the rows before
    them (> 0.6; one row may fail), inside the photo;
  - the digits: below the bars, down to the first two ink-free rows after ink (at most 0.16 of the
    symbol's width; none when no ink starts within 0.06).
The cover is that box grown by 0.12 of the width to the left (the first digit is printed left of the
left guard), 0.05 to the right, 2 % below the digits, and above the bars through their blurred ends to
the middle of the bare paper between them and the ISBN line (each within 0.04 of the width): the ISBN
line is never covered.

Which photos have a legible `ISBN ...` line (judged by eye on the originals, listed in PHOTOS with the
line as printed) decides the part a photo counts in: `legible` (the read rate) or `other` (the line is
cut off by the photo's edge, hidden by glare, or absent: the photo must give no wrong ISBN, a read is
not expected). Every photo counts for wrong ISBNs.

Writes DIR/images/<name>-<cover>.png (PNG: no JPEG loss added to the real photo), DIR/truth.tsv (file,
source, cover, part, expected ISBN-13, the line as printed or "-", how the box was found and its
corners) and DIR/stamp.json: the set is not regenerated when the photos, the binary's polygons and
this file are unchanged. Also writes DIR/check/<name>.png: the original with the cover's outline, to
look at (each was looked at when the set was made).
"""

import argparse
import hashlib
import json
import math
import os
import shutil
import subprocess

import numpy as np
from PIL import Image, ImageDraw, ImageFont

# The corpus's photos of books (EAN-13 978/979), with the ISBN line as printed where a person can read it.
PHOTOS = [
    ("zxing-cpp/ean13-1/25.png", "ISBN 0-14-001399-7"),
    ("zxing-cpp/ean13-1/31.png", "ISBN-13: 978-0-393-05867-3 / ISBN-10: 0-393-05867-0"),
    ("zxing-cpp/ean13-1/34.png", "ISBN 1-55860-497-9 (letter-spaced, small)"),
    ("zxing-cpp/ean13-3/03.png", None),   # the line's check digit is cut off by the photo's edge
    ("zxing-cpp/ean13-3/14.png", "ISBN 0-596-00857-0"),
    ("zxing-cpp/ean13-3/30.png", None),   # the line is under the digits, cut off by the edge
    ("zxing-cpp/ean13-3/34.png", None),   # the same, cut off
    ("zxing-cpp/ean13-3/36.png", None),   # "ISBN 978-1-58573-0", the rest cut off
    ("zxing-cpp/ean13-3/41.png", None),   # "ISBN 978-1-58573-05", the rest cut off
    ("zxing-cpp/ean13-3/45.png", "ISBN-13: 978-0-7356-1993-7 / ISBN-10: 0-7356-1993-X (small)"),
    ("zxing-cpp/ean13-3/52.png", "ISBN-13: 978-0-7356-1993-7 / ISBN-10: 0-7356-1993-X (upside down)"),
    ("zxing-cpp/ean13-extension-1/1.png", None),    # no ISBN line printed
    ("zxing-cpp/ean13-extension-1/2.png", "ISBN 13: 978-0-88427-178-9 / ISBN 10: 0-88427-178-1"),
    ("zxing-cpp/ean13-extension-1/32.png", "ISBN-13: 978-0-393-05867-3 / ISBN-10: 0-393-05867-0 (small)"),
    ("zxing-cpp/ean13-extension-1/33.png", None),   # glare over "ISBN 1-"
    ("zxing-cpp/ean13-extension-1/38.png", None),   # no ISBN line printed
    ("quagga2/ean13-extension/image-004.jpg", "ISBN 978-0-544-66825-6 (turned about 70 degrees)"),
    ("quagga2/ean13-extension/image-009.jpg", "ISBN 978-0-544-66825-6 (turned about 35 degrees)"),
]

PRICES = ["$12.99", "USED 4.50", "$7.95", "SALE 3.00", "\u00a38.99", "$24.95", "2 FOR $5"]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def scan(binary, path):
    """The EAN-13's polygon and orientation from `isbnscan scan --json` (or its candidate region)."""
    proc = subprocess.run([binary, "scan", "--json", "--all", path], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    record = json.loads(proc.stdout.splitlines()[0])
    eans = [s for s in record["symbols"] if s["type"] == "EAN-13" and s["verdict"] == "accepted"]
    # A reading of the symbol fit has no orientation (null): upright, as a candidate region is
    # taken, unless a line decoder's reading of the same symbol says otherwise.
    eans.sort(key=lambda s: s["orientation"] is None)
    if eans:
        return eans[0]["polygon"], eans[0]["orientation"] or 0, "symbol"
    candidates = record.get("candidates") or []
    if candidates:
        return candidates[0]["polygon"], 0, "candidate"
    raise SystemExit("make_covered_set: %s: isbnscan found no barcode and no candidate region" % path)


def sample(gray, points):
    """Bilinear samples of `gray` at float points (..., 2) as (x, y); outside: the edge pixel."""
    h, w = gray.shape
    x = np.clip(points[..., 0] - 0.5, 0, w - 1)
    y = np.clip(points[..., 1] - 0.5, 0, h - 1)
    x0 = np.floor(x).astype(int)
    y0 = np.floor(y).astype(int)
    x1 = np.minimum(x0 + 1, w - 1)
    y1 = np.minimum(y0 + 1, h - 1)
    fx, fy = x - x0, y - y0
    top = gray[y0, x0] * (1 - fx) + gray[y0, x1] * fx
    bottom = gray[y1, x0] * (1 - fx) + gray[y1, x1] * fx
    return top * (1 - fy) + bottom * fy


def bar_direction(gray, polygon, orientation):
    """Unit vector along the reading direction (across the bars), signed by zbar's orientation."""
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    # The middle 60 % of the box: its edges may take in the label's edge or the cover around it.
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    x0, x1 = max(0, int(min(xs) + 0.2 * w)), min(gray.shape[1], int(max(xs) - 0.2 * w) + 1)
    y0, y1 = max(0, int(min(ys) + 0.2 * h)), min(gray.shape[0], int(max(ys) - 0.2 * h) + 1)
    patch = gray[y0:y1, x0:x1]
    gy, gx = np.gradient(patch)
    jxx, jyy, jxy = (gx * gx).sum(), (gy * gy).sum(), (gx * gy).sum()
    theta = 0.5 * math.atan2(2 * jxy, jxx - jyy)
    r = np.array([math.cos(theta), math.sin(theta)])
    expected = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[orientation % 360]
    if r @ np.array(expected) < 0:
        r = -r
    return r


def main_symbol(runs):
    """The (start, end) of the EAN-13 among the dark runs of a row: 12-34 consecutive runs (30 bars;
    blur merges narrow spaces, and splits little) spanning 95 modules, no space inside wider than 6.5
    modules (4 at most, widened by blur) and at least that much clear on both sides (the add-on lies
    7-12 modules off). Of those, the widest (a part of the symbol can pass for one too)."""
    best = None
    for i in range(len(runs)):
        for j in range(i + 11, min(len(runs), i + 34)):
            module = (runs[j][1] - runs[i][0]) / 95.0
            gaps = [runs[k + 1][0] - runs[k][1] for k in range(i, j)]
            if max(gaps) > 6.5 * module:
                continue
            if i > 0 and runs[i][0] - runs[i - 1][1] < 6.5 * module:
                continue
            if j + 1 < len(runs) and runs[j + 1][0] - runs[j][1] < 6.5 * module:
                continue
            key = -(runs[j][1] - runs[i][0])
            if best is None or key < best[0]:
                best = (key, (runs[i][0], runs[j][1]))
    return best[1] if best else None


def refined(gray, centre, r, half_u, half_v):
    """`r` turned by up to 12 degrees (in half degrees) to where the bars' profile is sharpest: the
    mean of the rows across the middle of the symbol varies most when taken along the bars."""
    us = np.arange(-half_u, half_u + 1, dtype=float)
    vs = np.arange(-half_v, half_v + 1, dtype=float)
    best = None
    for degrees in np.arange(-12, 12.25, 0.5):
        a = math.radians(degrees)
        turned = np.array([r[0] * math.cos(a) - r[1] * math.sin(a), r[0] * math.sin(a) + r[1] * math.cos(a)])
        down = np.array([-turned[1], turned[0]])
        profile = sample(gray, centre + us[None, :, None] * turned + vs[:, None, None] * down).mean(axis=0)
        if best is None or profile.var() > best[0]:
            best = (profile.var(), turned)
    return best[1]


def measure(gray, polygon, orientation):
    """The cover's corners (x, y) in the photo, and the reading direction it was measured along."""
    centre = np.array([sum(p[0] for p in polygon) / 4.0, sum(p[1] for p in polygon) / 4.0])
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    size = max(max(xs) - min(xs), max(ys) - min(ys))
    r = refined(gray, centre, bar_direction(gray, polygon, orientation), int(0.4 * size), int(0.12 * size))
    down = np.array([-r[1], r[0]])      # towards the digits: the reading direction turned clockwise
    reach = int(size * 0.9) + 10
    us = np.arange(-reach, reach + 1, dtype=float)
    vs = np.arange(-reach, reach + 1, dtype=float)
    grid = centre + us[None, :, None] * r + vs[:, None, None] * down
    frame = sample(gray, grid)          # frame[v, u]
    middle = frame[reach - 2:reach + 3].mean(axis=0)
    # Only the part of the row inside the box (the symbol is there; not the surroundings), and
    # its threshold from there.
    along = [(np.array(p, dtype=float) - centre) @ r for p in polygon]
    lo, hi = max(0, int(reach + min(along) - 0.05 * size)), min(len(us), int(reach + max(along) + 0.05 * size) + 1)
    inside = middle[lo:hi]
    # Dark: below the middle of the darkest and brightest within 3 % of the size around (bars of a
    # pixel, blurred, are grey), where those differ by a quarter of the row's contrast at least.
    w = max(3, int(0.03 * size))
    padded = np.pad(inside, w, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * w + 1)
    low, high = windows.min(axis=1), windows.max(axis=1)
    contrast = np.percentile(inside, 95) - np.percentile(inside, 5)
    dark = (inside < (low + high) / 2) & (high - low > 0.25 * contrast)
    runs, start = [], None
    for i, d in enumerate(dark):
        if d and start is None:
            start = i
        elif not d and start is not None:
            runs.append((lo + start, lo + i))
            start = None
    if start is not None:
        runs.append((lo + start, lo + len(dark)))
    if len(runs) < 10:
        raise ValueError("no bars across the middle of the region (%d dark runs)" % len(runs))
    # Where no run of bars reads as the symbol (bars of a pixel, merged by blur), the box's extent.
    left, right = main_symbol(runs) or (int(reach + min(along)), int(reach + max(along)))
    width = right - left

    def correlation(a, b):
        a, b = a - a.mean(), b - b.mean()
        norm = math.sqrt((a * a).sum() * (b * b).sum())
        return (a * b).sum() / norm if norm > 0 else 0.0

    # Rows that lie in the photo (sampling repeats its edge rows beyond it, which look like bars).
    h, w = gray.shape
    inside_photo = ((grid[..., 0] >= 0) & (grid[..., 0] <= w) & (grid[..., 1] >= 0) & (grid[..., 1] <= h))[:, left:right].mean(axis=1) > 0.9
    # The middle 60 % of the span: the ends may hold a label's edge, which any row crosses alike.
    a, b = left + int(0.2 * width), right - int(0.2 * width)

    def walk(step):
        """The last row of bars from the middle in direction `step` (-1 up, +1 down): rows whose
        profile is like that of the three before them (> 0.6; one row may fail: a scratch)."""
        v, last = reach, reach
        while 0 < v + 2 * step < len(vs) - 1 and inside_photo[v + step]:
            reference = frame[[last, last - step, last - 2 * step], a:b].mean(axis=0)
            if correlation(frame[v + step, a:b], reference) > 0.6:
                v += step
                last = v
            elif inside_photo[v + 2 * step] and correlation(frame[v + 2 * step, a:b], reference) > 0.6:
                v += 2 * step
                last = v
            else:
                break
        return v

    top, bottom = walk(-1), walk(1)
    # The digits: ink below the bars, down to two ink-free rows after ink, at most 0.16 of the width.
    span = frame[:, max(0, int(left - 0.12 * width)):min(len(us), int(right + 0.05 * width))]
    paper = np.percentile(frame[reach - 2:reach + 3, left:right], 90)
    ink = (span < paper - 0.35 * (paper - np.percentile(middle, 5))).sum(axis=1) > 0
    end, seen, blank = bottom, False, 0
    limit = min(len(vs) - 1, bottom + int(0.16 * width))
    for v in range(bottom + 1, limit + 1):
        if ink[v]:
            seen, blank, end = True, 0, v
        elif seen:
            blank += 1
            if blank >= 2:
                break
        elif v - bottom > 0.06 * width:
            break                            # no digits printed under these bars
    # Above the bars: their blurred ends, then half the gap of bare paper between them and the
    # ISBN line (each within 0.04 of the width), and no further.
    above = top
    while above > max(0, top - 0.04 * width) and ink[above - 1]:
        above -= 1
    if above == 0 or ink[above - 1]:
        above = top
    else:
        gap = above
        while gap > max(0, above - 0.04 * width) and not ink[gap - 1]:
            gap -= 1
        above = (above + gap) // 2
    box = (left - 0.12 * width, above, right + 0.05 * width, end + 1 + 0.02 * width)
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    to_photo = [tuple(centre + (u - reach) * r + (v - reach) * down) for u, v in corners]
    return to_photo, r, down


def paper_colour(rgb, corners):
    """The median colour and noise of the bright pixels in a ring just outside the cover."""
    h, w = rgb.shape[:2]
    outer = Image.new("L", (w, h), 0)
    inner = Image.new("L", (w, h), 0)
    cx = sum(p[0] for p in corners) / 4
    cy = sum(p[1] for p in corners) / 4
    grown = [(cx + (x - cx) * 1.15, cy + (y - cy) * 1.15) for x, y in corners]
    ImageDraw.Draw(outer).polygon(grown, fill=255)
    ImageDraw.Draw(inner).polygon(corners, fill=255)
    ring = (np.array(outer) > 0) & (np.array(inner) == 0)
    pixels = rgb[ring].astype(float)
    luma = pixels.mean(axis=1)
    bright = pixels[luma >= np.percentile(luma, 60)]
    return np.median(bright, axis=0), float(bright.mean(axis=1).std())


def cover(rgb, corners, r, style, rng):
    """`rgb` with the quadrilateral `corners` covered, anti-aliased (drawn at 4x, then reduced)."""
    h, w = rgb.shape[:2]
    colour, noise = paper_colour(rgb, corners)
    big = Image.new("L", (w * 4, h * 4), 0)
    ImageDraw.Draw(big).polygon([(x * 4, y * 4) for x, y in corners], fill=255)
    alpha = np.array(big.resize((w, h), Image.BOX), dtype=float)[..., None] / 255
    if style == "paper":
        patch = colour + rng.normal(0, max(0.5, min(noise, 6.0)), (h, w, 1))
        patch = np.repeat(patch, 3, axis=2) if patch.shape[2] == 1 else patch
    else:
        label = np.array(rng.choice([(246, 244, 236), (250, 240, 170), (240, 240, 240)]), dtype=float)
        # Lit like the paper around it: the label's colour scaled by the paper's brightness.
        label = label * min(1.0, colour.mean() / 235.0)
        patch = np.ones((h, w, 3)) * label + rng.normal(0, max(0.5, min(noise, 6.0)), (h, w, 1))
        ink = Image.new("L", (w * 4, h * 4), 0)
        draw = ImageDraw.Draw(ink)
        draw.line([(x * 4, y * 4) for x, y in corners + [corners[0]]], fill=110, width=4)
        # The price, centred, along the reading direction, a third of the label's height.
        length = math.dist(corners[0], corners[1])
        height = math.dist(corners[0], corners[3])
        font = ImageFont.truetype(FONT, max(8, int(height * 4 / 3)))
        text = PRICES[rng.integers(len(PRICES))]
        box = draw.textbbox((0, 0), text, font=font)
        words = Image.new("L", (box[2] - box[0] + 8, box[3] - box[1] + 8), 0)
        ImageDraw.Draw(words).text((4 - box[0], 4 - box[1]), text, font=font, fill=255)
        if words.width > length * 4 * 0.8:
            words = words.resize((int(length * 4 * 0.8), max(1, int(words.height * length * 4 * 0.8 / words.width))))
        angle = -math.degrees(math.atan2(r[1], r[0]))
        words = words.rotate(angle, expand=True, resample=Image.BICUBIC)
        cx = sum(p[0] for p in corners) / 4 * 4
        cy = sum(p[1] for p in corners) / 4 * 4
        ink.paste(words, (int(cx - words.width / 2), int(cy - words.height / 2)), words)
        ink = np.array(ink.resize((w, h), Image.BOX), dtype=float)[..., None] / 255
        patch = patch * (1 - 0.85 * ink)
    out = rgb.astype(float) * (1 - alpha) + np.clip(patch, 0, 255) * alpha
    return np.clip(out.round(), 0, 255).astype(np.uint8)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="isbnscan, to find each photo's barcode")
    parser.add_argument("--corpus", required=True, help="../shared/corpus")
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    looks = {}
    digest = hashlib.sha256(open(os.path.abspath(__file__), "rb").read())
    for name, _ in PHOTOS:
        path = os.path.join(args.corpus, name)
        if not os.path.exists(path):
            raise SystemExit("make_covered_set: %s is missing" % path)
        digest.update(open(path, "rb").read())
        looks[name] = scan(args.bin, path)
        digest.update(json.dumps(looks[name]).encode())
    stamp = {"seed": args.seed, "digest": digest.hexdigest()}
    stamp_path = os.path.join(args.out, "stamp.json")
    if os.path.exists(stamp_path) and json.load(open(stamp_path)) == stamp:
        print("make_covered_set: %s is up to date" % args.out)
        return
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(os.path.join(args.out, "images"))
    os.makedirs(os.path.join(args.out, "check"))
    rng = np.random.default_rng(args.seed)
    rows = []
    for name, line in PHOTOS:
        path = os.path.join(args.corpus, name)
        expected = open(os.path.splitext(path)[0] + ".txt").read().strip()[:13]
        polygon, orientation, found = looks[name]
        photo = Image.open(path).convert("RGB")
        rgb = np.array(photo)
        gray = rgb.astype(float).mean(axis=2)
        try:
            corners, r, _ = measure(gray, polygon, orientation)
        except ValueError as error:
            raise SystemExit("make_covered_set: %s: %s" % (path, error))
        base = name.replace("/", "_").rsplit(".", 1)[0]
        check = photo.copy()
        ImageDraw.Draw(check).polygon(corners, outline=(255, 0, 0))
        check.save(os.path.join(args.out, "check", base + ".png"))
        for style in ("paper", "sticker"):
            out = cover(rgb, corners, r, style, rng)
            file = "%s-%s.png" % (base, style)
            Image.fromarray(out).save(os.path.join(args.out, "images", file))
            rows.append([file, name, style, "legible" if line else "other", expected, line or "-",
                         found + " " + " ".join("%.0f,%.0f" % p for p in corners)])
    with open(os.path.join(args.out, "truth.tsv"), "w") as f:
        f.write("file\tsource\tcover\tpart\texpected\tline\tbox\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    json.dump(stamp, open(stamp_path, "w"))
    print("make_covered_set: %d photos (%d with a legible ISBN line), %d covered images in %s"
          % (len(PHOTOS), sum(1 for _, line in PHOTOS if line), len(rows), args.out))


if __name__ == "__main__":
    main()

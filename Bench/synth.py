# SPDX-License-Identifier: Apache-2.0
"""Synthetic images for the isbnscan benchmarks: barcodes rendered by zint on generated book covers.

* barcodes: EAN check digits, random ISBNs and other codes, zint renders (quiet zones kept);
* photos: book-cover backgrounds, labels, rotation/perspective, light, noise (Pillow only);
* the cache stamp the generators write (parameters + a digest of the generator sources).

Kept apart from benchlib.py so that changing how results are printed does not regenerate the images.
No ImageMagick: the box's /usr/local/bin/convert is a fake.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops, ImageDraw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import sources_digest  # noqa: E402,F401  (the generators call S.sources_digest)

# --------------------------------------------------------------------------
# barcodes


def ean_check_digit(body):
    """Check digit for an EAN-8/EAN-13 body (all digits but the last); GS1 mod 10, weights 3,1 from the right."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        total += int(ch) * (3 if i % 2 == 0 else 1)
    return str((10 - total % 10) % 10)


def with_check(body):
    return body + ean_check_digit(body)


def random_digits(rng, n):
    return "".join(str(rng.randrange(10)) for _ in range(n))


def random_code(rng, mix):
    """A random (ean, addon) pair; `mix` maps kind -> weight.

    Kinds: isbn (978, the common case), isbn_addon5 (978 + EAN-5 price code),
    isbn979, product (non-book EAN-13: 40-44 Germany, 50 UK, 0 UPC-A, 490 Japan),
    issn_addon2 (977 magazine with an EAN-2 issue number), ean8.
    """
    kinds = sorted(mix)
    kind = rng.choices(kinds, weights=[mix[k] for k in kinds])[0]
    if kind == "isbn":
        return with_check("978" + random_digits(rng, 9)), None
    if kind == "isbn_addon5":
        addon = rng.choice(["90000", "5" + random_digits(rng, 4), "5" + random_digits(rng, 4), random_digits(rng, 5)])
        return with_check("978" + random_digits(rng, 9)), addon
    if kind == "isbn979":
        prefix = rng.choice(["9798", "97910", "97912"])
        return with_check(prefix + random_digits(rng, 12 - len(prefix))), None
    if kind == "product":
        prefix = rng.choice(["400", "412", "440", "500", "506", "0", "490", "871"])
        return with_check(prefix + random_digits(rng, 12 - len(prefix))), None
    if kind == "issn_addon2":
        return with_check("977" + random_digits(rng, 9)), "%02d" % rng.randrange(1, 53)
    if kind == "ean8":
        return with_check(random_digits(rng, 7)), None
    raise ValueError(kind)


def expected_text(ean, addon):
    """The corpus convention: EAN digits followed directly by the add-on digits."""
    return ean + (addon or "")


def zint_render(ean, addon=None, module_px=2, height=None, text=True):
    """Render an EAN-13/EAN-8 (+ add-on) with zint, quiet zones kept: an 'L' image, black bars on white.

    `module_px` is the bar module width in pixels (zint --scale=N gives 2N px per module, in half steps).
    """
    scale = module_px / 2.0
    data = ean[:-1]  # zint computes the check digit itself; passing 12/7 digits avoids a mismatch
    if addon:
        data += "+" + addon
    tmp = tempfile.NamedTemporaryFile(suffix=".png", delete=False)
    tmp.close()
    try:
        cmd = ["zint", "-b", "13", "--quietzones", "--scale=%g" % scale, "-d", data, "-o", tmp.name]
        if height:
            cmd.append("--height=%g" % height)
        if not text:
            cmd.append("--notext")
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0 and not os.path.getsize(tmp.name):
            raise RuntimeError("zint failed for %s: %s" % (data, r.stderr.decode(errors="replace")))
        with Image.open(tmp.name) as im:
            return im.convert("L")
    finally:
        os.unlink(tmp.name)


def zint_render_fractional(ean, addon, module_px, text=True):
    """A render at a fractional module width (e.g. 1.5 px): zint at 8 px/module, then an area (box) downscale."""
    big = zint_render(ean, addon, module_px=8, text=text)
    f = module_px / 8.0
    return big.resize((max(1, round(big.width * f)), max(1, round(big.height * f))), Image.Resampling.BOX)


# --------------------------------------------------------------------------
# photos


def _colour(rng, lo=0, hi=255):
    return tuple(rng.randrange(lo, hi + 1) for _ in range(3))


def cover_background(rng, w, h):
    """An RGB 'book back cover': gradient, blotches, paper grain, text-like blocks and a few shapes."""
    # Colour field at low resolution (two colours along a random direction plus soft blotches), upscaled.
    sw, sh = max(4, w // 64), max(4, h // 64)
    small = Image.new("RGB", (sw, sh))
    c1, c2 = _colour(rng, 30, 240), _colour(rng, 30, 240)
    px = small.load()
    dx, dy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    for y in range(sh):
        for x in range(sw):
            t = min(1.0, max(0.0, 0.5 + dx * (x / sw - 0.5) + dy * (y / sh - 0.5)))
            j = rng.uniform(-12, 12)
            px[x, y] = tuple(int(min(255, max(0, a * (1 - t) + b * t + j))) for a, b in zip(c1, c2))
    img = small.resize((w, h), Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(img)
    light_bg = sum(img.getpixel((w // 2, h // 2))) > 3 * 128
    # Shapes ("cover art").
    for _ in range(rng.randrange(0, 5)):
        x0, y0 = rng.randrange(w), rng.randrange(h)
        x1, y1 = x0 + rng.randrange(w // 10, w // 2), y0 + rng.randrange(h // 10, h // 2)
        shape = rng.choice([draw.ellipse, draw.rectangle])
        shape([x0, y0, x1, y1], fill=_colour(rng))
    # Text-like blocks: lines of "words" (small rectangles) in a column.
    ink = _colour(rng, 0, 60) if light_bg else _colour(rng, 200, 255)
    for _ in range(rng.randrange(1, 4)):
        bx, by = rng.randrange(0, w // 2), rng.randrange(0, h * 3 // 4)
        bw = rng.randrange(w // 4, w - bx) if w - bx > w // 4 else w // 4
        line_h = max(4, int(h * rng.uniform(0.008, 0.02)))
        for line in range(rng.randrange(3, 14)):
            x = bx
            y = by + line * int(line_h * 1.7)
            if y + line_h >= h:
                break
            while x < bx + bw:
                word = rng.randrange(line_h, line_h * 6)
                draw.rectangle([x, y, min(x + word, w - 1), y + line_h], fill=ink)
                x += word + max(2, line_h // 2)
    # A title in big blocks.
    if rng.random() < 0.7:
        th = int(h * rng.uniform(0.03, 0.06))
        x, y = rng.randrange(w // 10, w // 3), rng.randrange(h // 20, h // 4)
        for _ in range(rng.randrange(2, 6)):
            cw = rng.randrange(th // 2, th * 2)
            draw.rectangle([x, y, x + cw, y + th], fill=ink)
            x += cw + th // 3
    # Paper grain: gaussian noise at half resolution, upscaled (grain, not pixel noise).
    grain = Image.effect_noise((max(1, w // 2), max(1, h // 2)), rng.uniform(3, 9)).resize((w, h), Image.Resampling.BILINEAR)
    img = ImageChops.add(img, Image.merge("RGB", (grain, grain, grain)), 1.0, -128)
    return img


def label_from_render(render, rng, ink=None, paper=None, margin_modules=2, module_px=2, invert=False):
    """The barcode as printed: an RGB label (render + a little paper margin), bars `ink`, paper `paper`.

    With `invert`, light bars on a dark ground (both the label and the quiet zone are dark).
    """
    if ink is None:
        ink = _colour(rng, 0, 45)
    if paper is None:
        paper = tuple(min(255, v + rng.randrange(0, 15)) for v in (rng.randrange(215, 241),) * 3)
    if invert:
        ink, paper = paper, ink
    m = max(2, int(margin_modules * module_px))
    framed = Image.new("L", (render.width + 2 * m, render.height + 2 * m), 255)
    framed.paste(render, (m, m))
    # Map 0 -> ink, 255 -> paper per channel (keeps anti-aliased edges of fractional renders).
    chans = []
    for a, b in zip(ink, paper):
        lut = [int(a + (b - a) * v / 255) for v in range(256)]
        chans.append(framed.point(lut))
    return Image.merge("RGB", chans)


def transform_label(label, angle=0.0, perspective=None):
    """Rotate (degrees, counter-clockwise as Pillow) and/or warp a label; returns (RGB, alpha mask)."""
    rgba = label.convert("RGBA")
    if perspective:
        w, h = rgba.size
        coeffs = perspective_coeffs(perspective, [(0, 0), (w, 0), (w, h), (0, h)])
        xs = [p[0] for p in perspective]
        ys = [p[1] for p in perspective]
        out_w, out_h = int(max(xs)) + 1, int(max(ys)) + 1
        rgba = rgba.transform((out_w, out_h), Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BICUBIC)
    if angle:
        rgba = rgba.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    return rgba.convert("RGB"), rgba.getchannel("A")


def perspective_coeffs(dst, src):
    """Pillow PERSPECTIVE coefficients mapping output points `dst` to input points `src` (4 each)."""
    # Solve the 8x8 system with plain Gaussian elimination (no numpy needed).
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rhs.append(u)
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.append(v)
    n = 8
    a = [r[:] + [b] for r, b in zip(rows, rhs)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                for k in range(c, n + 1):
                    a[r][k] -= f * a[c][k]
    return [a[i][n] / a[i][i] for i in range(n)]


def paste_somewhere(rng, photo, label, mask, margin=0.02):
    """Paste a (transformed) label at a random place fully inside the photo; returns the box."""
    w, h = photo.size
    lw, lh = label.size
    mx, my = int(w * margin), int(h * margin)
    x = rng.randrange(mx, max(mx + 1, w - lw - mx))
    y = rng.randrange(my, max(my + 1, h - lh - my))
    photo.paste(label, (x, y), mask)
    return (x, y, x + lw, y + lh)


def lighting(rng, photo, strength):
    """Multiply by a smooth light field: a linear falloff plus a soft spot; `strength` 0..1 is the darkest dip."""
    w, h = photo.size
    sw, sh = 16, 16
    field = Image.new("L", (sw, sh))
    px = field.load()
    dx, dy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    cx, cy, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.3, 0.8)
    for y in range(sh):
        for x in range(sw):
            u, v = x / (sw - 1), y / (sh - 1)
            lin = 0.5 + 0.5 * (dx * (u - 0.5) + dy * (v - 0.5)) * 2
            spot = max(0.0, 1 - ((u - cx) ** 2 + (v - cy) ** 2) ** 0.5 / r)
            t = min(1.0, max(0.0, 0.6 * lin + 0.4 * spot))
            px[x, y] = int(255 * (1 - strength * (1 - t)))
    field = field.resize((w, h), Image.Resampling.BICUBIC)
    return ImageChops.multiply(photo, Image.merge("RGB", (field, field, field)))


def add_noise(photo, sigma):
    n = Image.effect_noise(photo.size, sigma)
    return ImageChops.add(photo, Image.merge("RGB", (n, n, n)), 1.0, -128)


def save_photo(photo, path, fmt, quality=90):
    if fmt == "jpg":
        photo.save(path, "JPEG", quality=quality)
    else:
        photo.save(path, "PNG", compress_level=3)


def cached(out_dir, params):
    """True when `out_dir` holds a complete set made with exactly `params` (see write_stamp)."""
    stamp = os.path.join(out_dir, "stamp.json")
    try:
        with open(stamp) as f:
            return json.load(f) == params
    except (OSError, ValueError):
        return False


def write_stamp(out_dir, params):
    with open(os.path.join(out_dir, "stamp.json"), "w") as f:
        json.dump(params, f, sort_keys=True)


def fresh_dir(path):
    if os.path.exists(path):
        shutil.rmtree(path)
    os.makedirs(path)

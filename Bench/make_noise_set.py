#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the noise/texture set for the accuracy benchmark (make bench-accuracy, issue 11), reproducibly.

    make_noise_set.py --out DIR [--count 200] [--seed 17]

640x480 pictures WITHOUT any barcode, chosen to tempt a reader that tries hard (a blur decoder fitting
the EAN-13 structure to smeared bars most of all). Any code a reader returns on them is a wrong code.
Kinds (of 200):

  noise        white noise, value noise at 2-32 px scales, 1/f noise, salt and pepper            16
  grating      square or sine stripes, period 2-40 px, any angle (a third near vertical)           24
  chirp        vertical stripes whose period changes across the picture                            8
  checker      checkerboards of 2-40 px cells, rotated                                              12
  wood         wood-grain-like: wavy near-parallel rings with knots                                 12
  fabric       woven threads (plain weave, twill) with thread noise                                 12
  page         a page of text (as Bench/make_mixed.py makes them)                                   16
  cover        a book cover with title, text and shapes, no barcode (Bench/make_mixed.py)           16
  piano        piano keys seen from above                                                           12
  fence        a picket fence, slightly in perspective                                              12
  spines       a shelf of book spines with titles (Bench/make_mixed.py)                             16
  random_bars  bars and spaces of random widths 1-4 units (1.5-4 px), quiet zones around: all a     24
               barcode has but its structure
  pseudo_ean   EAN-13 guard bars at their places and 12 random 7-module groups of which at least    20
               3 are no EAN codeword (checked), 1.5-4 px per module

About 40 % of each kind are also defocused (a uniform disk of radius 0.5-6 px, as in
Bench/make_blur_sweep.py); all get gaussian noise (sigma 2-6) and are JPEG (quality 70-95) or, one in
six, PNG. Writes DIR/images/noise_NNN_<kind>.{jpg,png}, DIR/truth.tsv (file, category, expected,
detail; expected is empty) and DIR/stamp.json (nothing is regenerated when parameters and generator
sources are unchanged).
"""

import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth as S  # noqa: E402
import make_mixed as M  # noqa: E402
import make_blur_sweep as BS  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

W, H = 640, 480
KINDS = {"noise": 16, "grating": 24, "chirp": 8, "checker": 12, "wood": 12, "fabric": 12, "page": 16,
         "cover": 16, "piano": 12, "fence": 12, "spines": 16, "random_bars": 24, "pseudo_ean": 20}

# EAN-13 left-half codewords (L and G), as 7-module strings, 1 = bar: GS1 General Specifications 5.2.1.
L_CODES = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111",
           "0001011"]
G_CODES = ["0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001",
           "0010111"]
R_CODES = ["".join("1" if c == "0" else "0" for c in code) for code in L_CODES]


def gray_to_rgb(a, rng, tint=True):
    """A float H x W array (0..1) -> RGB uint8 between two random colours (dark and light)."""
    lo = np.array(S._colour(rng, 0, 90) if tint else (rng.randrange(0, 90),) * 3, dtype=np.float32)
    hi = np.array(S._colour(rng, 160, 255) if tint else (rng.randrange(160, 256),) * 3, dtype=np.float32)
    a = np.clip(a, 0, 1)[:, :, None]
    return Image.fromarray((lo + (hi - lo) * a + 0.5).astype(np.uint8), "RGB")


def coords(angle_deg):
    """Pixel coordinates rotated by angle: u runs across stripes of that orientation."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    t = math.radians(angle_deg)
    return x * math.cos(t) + y * math.sin(t), -x * math.sin(t) + y * math.cos(t)


def value_noise(rng, scale, w=W, h=H):
    small = np.random.default_rng(rng.randrange(2 ** 63)).random((max(2, h // scale + 2), max(2, w // scale + 2)))
    img = Image.fromarray((small * 255).astype(np.uint8), "L").resize(
        (int(small.shape[1] * scale), int(small.shape[0] * scale)), Image.Resampling.BICUBIC)
    return np.asarray(img, dtype=np.float32)[:h, :w] / 255.0


def noise(rng):
    npr = np.random.default_rng(rng.randrange(2 ** 63))
    style = rng.choice(["white", "value", "value", "pink", "saltpepper"])
    if style == "white":
        return gray_to_rgb(npr.random((H, W)), rng, tint=False), "white"
    if style == "value":
        scale = rng.choice([2, 4, 8, 16, 32])
        return gray_to_rgb(value_noise(rng, scale), rng), "value scale=%d" % scale
    if style == "pink":
        f = np.fft.rfft2(npr.normal(size=(H, W)))
        fy = np.fft.fftfreq(H)[:, None]
        fx = np.fft.rfftfreq(W)[None, :]
        f /= np.maximum(np.hypot(fx, fy), 1.0 / max(W, H))
        a = np.fft.irfft2(f, s=(H, W))
        a = (a - a.min()) / (a.max() - a.min())
        return gray_to_rgb(a, rng), "1/f"
    a = np.full((H, W), 0.5, np.float32)
    r = npr.random((H, W))
    a[r < 0.1] = 0
    a[r > 0.9] = 1
    return gray_to_rgb(a, rng, tint=False), "salt and pepper"


def grating(rng):
    period = math.exp(rng.uniform(math.log(2), math.log(40)))
    angle = rng.uniform(-5, 5) if rng.random() < 0.34 else rng.uniform(0, 180)
    u, _ = coords(angle)
    phase = rng.random()
    if rng.random() < 0.5:
        a = 0.5 + 0.5 * np.sin(2 * np.pi * (u / period + phase))
        shape = "sine"
    else:
        duty = rng.uniform(0.3, 0.7)
        a = ((u / period + phase) % 1.0 < duty).astype(np.float32)
        shape = "square duty=%.2f" % duty
    return gray_to_rgb(a, rng), "%s period=%.1f angle=%.0f" % (shape, period, angle)


def chirp(rng):
    p0, p1 = rng.uniform(2, 6), rng.uniform(8, 30)
    if rng.random() < 0.5:
        p0, p1 = p1, p0
    angle = rng.uniform(-4, 4)
    u, _ = coords(angle)
    # Instantaneous period goes linearly from p0 to p1 across the width: phase = integral of 1/period.
    k = (p1 - p0) / W
    x = np.clip(u, 0, None)
    phase = np.log1p(k * x / p0) / k if abs(k) > 1e-9 else x / p0
    a = (np.sin(2 * np.pi * phase) > rng.uniform(-0.3, 0.3)).astype(np.float32)
    return gray_to_rgb(a, rng, tint=rng.random() < 0.5), "period %.1f to %.1f angle=%.1f" % (p0, p1, angle)


def checker(rng):
    cell = math.exp(rng.uniform(math.log(2), math.log(40)))
    angle = rng.uniform(0, 90)
    u, v = coords(angle)
    a = ((np.floor(u / cell) + np.floor(v / cell)) % 2).astype(np.float32)
    return gray_to_rgb(a, rng), "cell=%.1f angle=%.0f" % (cell, angle)


def wood(rng):
    angle = rng.uniform(-10, 10) + rng.choice([0, 90])
    u, v = coords(angle)
    period = rng.uniform(5, 25)
    warp = value_noise(rng, rng.choice([32, 64])) * rng.uniform(10, 40)
    # Knots: a few centres around which the rings bend.
    for _ in range(rng.randrange(0, 3)):
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        y, x = np.mgrid[0:H, 0:W].astype(np.float32)
        warp += 30 * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * rng.uniform(10, 40) ** 2))
    rings = (u + warp) / period
    a = 0.5 + 0.5 * np.sin(2 * np.pi * rings) ** rng.choice([1, 3])
    a = 0.25 + 0.6 * a + 0.15 * value_noise(rng, 2)
    base = np.array(S._colour(rng, 90, 200), dtype=np.float32) * np.array([1.0, 0.75, 0.5], dtype=np.float32)
    img = (base[None, None, :] * (0.5 + a[:, :, None])).clip(0, 255).astype(np.uint8)
    return Image.fromarray(img, "RGB"), "period=%.1f angle=%.0f" % (period, angle)


def fabric(rng):
    thread = rng.uniform(2, 8)
    angle = rng.uniform(-20, 20)
    u, v = coords(angle)
    iu, iv = np.floor(u / thread), np.floor(v / thread)
    style = rng.choice(["plain", "twill", "twill"])
    if style == "plain":
        over = (iu + iv) % 2
    else:
        over = ((iu + iv) % 4 < 2).astype(np.float32)
    # A thread's shading across its width, and irregular thread brightness.
    fu, fv = (u / thread) % 1.0, (v / thread) % 1.0
    shade = np.where(over > 0, np.sin(np.pi * fv), np.sin(np.pi * fu))
    jitter = value_noise(rng, max(2, int(thread * 3))) * 0.3
    a = 0.2 + 0.6 * shade + jitter
    return gray_to_rgb(a, rng), "%s thread=%.1f angle=%.0f" % (style, thread, angle)


def piano(rng):
    key = rng.uniform(8, 30)  # white key width, px
    img = Image.new("RGB", (W, H), (rng.randrange(235, 256),) * 3)
    d = ImageDraw.Draw(img)
    top, bottom = rng.uniform(0, 0.3) * H, H
    black_len = rng.uniform(0.55, 0.65) * (bottom - top)
    x0 = -rng.uniform(0, 7 * key)
    n = int((W - x0) / key) + 2
    for i in range(n):  # white keys: thin dark gaps
        x = x0 + i * key
        d.line([(x, top), (x, bottom)], fill=(60, 60, 60), width=1)
    d.rectangle([0, 0, W, top], fill=S._colour(rng, 0, 80))  # the case behind the keys
    for i in range(n):  # black keys: after C, D, F, G, A in each octave of 7
        if i % 7 in (0, 1, 3, 4, 5):
            cx = x0 + (i + 1) * key
            d.rectangle([cx - key * 0.3, top, cx + key * 0.3, top + black_len], fill=(15, 15, 15))
    angle = rng.uniform(-6, 6)
    img = img.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=(20, 20, 20))
    return img, "white key=%.1f angle=%.1f" % (key, angle)


def fence(rng):
    sky = value_noise(rng, 64)
    img = gray_to_rgb(sky * 0.3 + 0.6, rng)
    d = ImageDraw.Draw(img)
    d.rectangle([0, int(H * 0.8), W, H], fill=S._colour(rng, 40, 120))
    pitch0, pitch1 = rng.uniform(10, 40), rng.uniform(10, 40)  # perspective: the pitch changes across
    board = rng.uniform(0.4, 0.8)
    colour = S._colour(rng, 100, 240)
    for ry in (0.35, 0.75):  # rails behind the pickets, seen in the gaps
        d.rectangle([0, ry * H - 4, W, ry * H + 4], fill=tuple(c // 2 for c in colour))
    x = -rng.uniform(0, pitch0)
    top, rail = rng.uniform(0.05, 0.3) * H, rng.uniform(0.85, 1.0) * H
    while x < W:
        p = pitch0 + (pitch1 - pitch0) * max(0.0, x) / W
        bw = p * board
        shade = tuple(max(0, min(255, c + rng.randrange(-20, 21))) for c in colour)
        d.polygon([(x, top + bw / 2), (x + bw / 2, top), (x + bw, top + bw / 2), (x + bw, rail), (x, rail)], fill=shade)
        x += p
    return img, "pitch %.1f to %.1f board=%.2f" % (pitch0, pitch1, board)


def draw_modules(modules, unit, rng, height_frac=None, quiet=None):
    """A string of 0/1 modules drawn as bars (1 = dark) at `unit` px per module, exact for fractional units
    (drawn at 4x, area-averaged), on a light label at a random place on a plain or cover background."""
    s = 4
    hu = unit * s
    quiet = quiet if quiet is not None else 10
    width_mod = len(modules) + 2 * quiet
    bar_h = int(H * (height_frac or rng.uniform(0.15, 0.45)) * s)
    lw = int(math.ceil(width_mod * hu))
    label = Image.new("L", (lw, bar_h + int(2 * hu * 3)), 255)
    d = ImageDraw.Draw(label)
    x = quiet * hu
    for i, m in enumerate(modules):
        if m == "1":
            d.rectangle([round(x + i * hu), int(hu * 3), round(x + (i + 1) * hu) - 1, int(hu * 3) + bar_h], fill=0)
    label = label.resize((max(1, lw // s), max(1, label.height // s)), Image.Resampling.BOX)
    if rng.random() < 0.5:
        bg = Image.new("RGB", (W, H), (rng.randrange(190, 246),) * 3)
        rgb = S.label_from_render(label, rng, paper=bg.getpixel((0, 0)), margin_modules=0, module_px=unit)
    else:
        bg = S.cover_background(rng, W, H)
        rgb = S.label_from_render(label, rng, margin_modules=rng.uniform(1, 3), module_px=unit)
    rgb, mask = S.transform_label(rgb, angle=rng.uniform(-4, 4))
    if rgb.width < W and rgb.height < H:
        S.paste_somewhere(rng, bg, rgb, mask)
    else:
        bg.paste(rgb, (0, 0), mask)
    return bg


def random_bars(rng):
    unit = rng.choice([1.5, 2, 2.5, 3, 4])
    n = min(rng.randrange(60, 120), int(0.85 * W / unit) - 20)  # with its quiet zones inside the picture
    mods, dark = "", True
    while len(mods) < n:
        mods += ("1" if dark else "0") * rng.randrange(1, 5)
        dark = not dark
    mods = mods[:n].rstrip("0")
    return draw_modules(mods, unit, rng), "unit=%g modules=%d" % (unit, len(mods))


def is_codeword(group, left):
    return group in (L_CODES + G_CODES if left else R_CODES)


def pseudo_ean(rng):
    """Guards 101 / 01010 / 101 at the EAN-13 places and 12 random 7-module groups, >= 3 of them no
    codeword; groups keep the alternation an EAN has (left groups start with a space, right with a bar)."""
    while True:
        groups = []
        for i in range(12):
            left = i < 6
            if rng.random() < 0.5:  # a real codeword here and there, as a damaged code would show
                g = rng.choice(L_CODES + G_CODES) if left else rng.choice(R_CODES)
            else:
                g = "".join(rng.choice("01") for _ in range(7))
                g = ("0" + g[1:6] + "1") if left else ("1" + g[1:6] + "0")
            groups.append(g)
        bad = sum(not is_codeword(g, i < 6) for i, g in enumerate(groups))
        if bad >= 3:
            break
    mods = "101" + "".join(groups[:6]) + "01010" + "".join(groups[6:]) + "101"
    unit = rng.choice([1.5, 2, 2.5, 3, 4])
    return draw_modules(mods, unit, rng, quiet=rng.choice([7, 9, 11])), "unit=%g non-codewords=%d" % (unit, bad)


def page(rng):
    return M.page(rng, W, H), ""


def cover(rng):
    return M.cover(rng, W, H), ""


def spines(rng):
    return M.shelf(rng, W, H), ""


MAKERS = {"noise": noise, "grating": grating, "chirp": chirp, "checker": checker, "wood": wood, "fabric": fabric,
          "page": page, "cover": cover, "piano": piano, "fence": fence, "spines": spines,
          "random_bars": random_bars, "pseudo_ean": pseudo_ean}


def counts_for(total):
    """KINDS scaled to `total` images (largest remainders)."""
    base = sum(KINDS.values())
    raw = {k: v * total / base for k, v in KINDS.items()}
    out = {k: int(v) for k, v in raw.items()}
    for k in sorted(raw, key=lambda k: raw[k] - out[k], reverse=True)[:total - sum(out.values())]:
        out[k] += 1
    return out


def make_one(rng, kind):
    img, detail = MAKERS[kind](rng)
    img = img.convert("RGB")
    parts = [detail] if detail else []
    if rng.random() < 0.4:
        radius = rng.uniform(0.5, 6)
        a = BS.convolve(np.asarray(img, dtype=np.float32), BS.disk_kernel(radius))
        img = Image.fromarray(np.clip(a + 0.5, 0, 255).astype(np.uint8), "RGB")
        parts.append("defocus disk radius=%.1f px" % radius)
    sigma = rng.uniform(2, 6)
    a = np.asarray(img, dtype=np.float32)
    n = np.random.default_rng(rng.randrange(2 ** 63)).normal(0, sigma, a.shape[:2]).astype(np.float32)
    img = Image.fromarray(np.clip(a + n[:, :, None] + 0.5, 0, 255).astype(np.uint8), "RGB")
    parts.append("noise=%.1f" % sigma)
    fmt = "png" if rng.random() < 1 / 6 else "jpg"
    quality = rng.randrange(70, 96)
    if fmt == "jpg":
        parts.append("quality=%d" % quality)
    return img, fmt, quality, " ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=17)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    params = {"seed": a.seed, "count": a.count,
              "sources": S.sources_digest(__file__, os.path.join(here, "synth.py"), M.__file__, BS.__file__)}
    if S.cached(a.out, params):
        print("make_noise_set: %s is up to date" % a.out, file=sys.stderr)
        return 0
    S.fresh_dir(a.out)
    os.makedirs(os.path.join(a.out, "images"))
    lines = ["file\tcategory\texpected\tdetail"]
    n = 0
    for kind, count in counts_for(a.count).items():
        for i in range(count):
            rng = random.Random("noise-%d-%s-%d" % (a.seed, kind, i))
            img, fmt, quality, detail = make_one(rng, kind)
            n += 1
            name = "images/noise_%03d_%s.%s" % (n, kind, fmt)
            S.save_photo(img, os.path.join(a.out, name), fmt, quality)
            lines.append("\t".join([name, kind, "", detail]))
        print("make_noise_set: %s: %d images" % (kind, count), file=sys.stderr)
    with open(os.path.join(a.out, "truth.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    S.write_stamp(a.out, params)
    print("make_noise_set: wrote %d images to %s" % (n, a.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

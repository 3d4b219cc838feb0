# SPDX-License-Identifier: Apache-2.0
"""Photographs of book barcodes blurred by a known point-spread function.

An independent check set for the decoder: written from a description of the
scene, not from the generators the decoder was tuned on. Each image is made
as a camera makes it:

1. Scene, in linear reflectance: a white paper label with an EAN-13 (the 95
   modules drawn from the GS1 General Specifications section 5.2 patterns,
   7 to 12 modules of quiet zone, often the digits under the bars) on a book
   cover (uniform grey, gradient, faint texture, shapes and text), the label
   lighter than the cover by a varying amount; ink not fully black (print
   contrast signal 0.5-1.0), bars sometimes spread by up to 0.1 module.
2. Geometry: px/module 1.2-4 of the final image (each cell spread evenly
   over that range: one jittered stratum per image), rotation up to 10
   degrees, sometimes a slight perspective, anywhere in a 640x480 to
   1600x1200 frame.
3. Light: uneven illumination (gradient or vignette, up to 40% darker),
   multiplied into the scene in linear light.
4. Optics: the point-spread function of the category (disk, Gaussian, line,
   disk and line) with its size in modules of that image, plus a small lens
   Gaussian; applied by FFT in linear light on a supersampled grid, then
   integrated over each pixel's area (box filter).
5. Sensor and camera: signal-dependent (shot) and constant (read) noise in
   linear light (sigma 1-6 grey levels after encoding at the barcode's mean
   level), sRGB encoding, 8-bit, sometimes an unsharp mask as an
   in-camera sharpening step, JPEG quality 60-95 or PNG.

Writes DIR/images/*.jpg|png and DIR/truth.tsv with the columns file,
category, expected, px_per_module, detail (every parameter drawn, and
label_box, the label's bounding box in pixels). A category is <kind>-<severity>:
disk-R (defocus disk radius R modules), gauss-S (sigma S modules), motion-L
(line of L modules across the bars), motalong-L (along the bars), defmot-L
(disk radius 1 module and a line of L modules across the bars).

Two parts, one to look at and one kept blind:

    python3 Bench/make_blur_check.py --out check-a --seed 101 --per-cell 12
    python3 Bench/make_blur_check.py --out check-b --seed 103 --per-cell 12

The same seed makes the same files (Pillow's JPEG encoder permitting).
"""

import argparse
import math
import os
import sys
import time

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

# --- EAN-13 (GS1 General Specifications 5.2.1, figures 5.2.1-1 and 5.2.1-2) ---

# Number set A, each character seven modules left to right, 1 = dark.
SET_A = ["0001101", "0011001", "0010011", "0111101", "0100011",
         "0110001", "0101111", "0111011", "0110111", "0001011"]
# Number set C is set A with dark and light swapped; set B is set C reversed.
SET_C = ["".join("1" if b == "0" else "0" for b in p) for p in SET_A]
SET_B = [p[::-1] for p in SET_C]
# The first digit chooses the sets (A or B) of the six digits of the left half.
PARITY = ["AAAAAA", "AABABB", "AABBAB", "AABBBA", "ABAABB",
          "ABBAAB", "ABBBAA", "ABABBA", "ABABAB", "ABBABA"]
NORMAL_GUARD = "101"
CENTRE_GUARD = "01010"


def ean13_check(d12):
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d12))
    return str((10 - s % 10) % 10)


def ean13_modules(code):
    """The 95 modules of an EAN-13, left to right, as a string of 0/1."""
    assert len(code) == 13 and ean13_check(code[:12]) == code[12]
    parity = PARITY[int(code[0])]
    left = "".join((SET_A if parity[i] == "A" else SET_B)[int(c)]
                   for i, c in enumerate(code[1:7]))
    right = "".join(SET_C[int(c)] for c in code[7:])
    m = NORMAL_GUARD + left + CENTRE_GUARD + right + NORMAL_GUARD
    assert len(m) == 95
    return m


def guard_module(i):
    """True for the modules of the three guard patterns (drawn longer)."""
    return i < 3 or 45 <= i < 50 or i >= 92


def random_isbn(rng):
    # Half the digits from 1, 2, 7, 8: in EAN-13 these pairs differ by one
    # module step, the confusions a blurred barcode invites.
    body = "".join(str(rng.choice([1, 2, 7, 8])) if rng.random() < 0.5
                   else str(rng.integers(10)) for _ in range(9))
    d12 = "978" + body
    return d12 + ean13_check(d12)


# --- colour encoding ---

def srgb_to_linear(v):
    v = np.asarray(v, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(x):
    x = np.clip(x, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def srgb_slope(x):
    """d(sRGB)/d(linear) at linear value x (x > 0.0031308)."""
    return 1.055 / 2.4 * x ** (1 / 2.4 - 1)


# --- point-spread functions (odd-sized, sum 1, in the grid's own pixels) ---

def psf_disk(r):
    """Uniform disk of radius r, each cell weighted by its covered area."""
    h = int(math.ceil(r)) + 1
    sub = 8
    g = (np.arange(-h * sub, (h + 1) * sub) + 0.5) / sub - 0.5
    yy, xx = np.meshgrid(g, g, indexing="ij")
    inside = (xx * xx + yy * yy <= r * r).astype(np.float64)
    n = 2 * h + 1
    k = inside.reshape(n, sub, n, sub).mean(axis=(1, 3))
    return k / k.sum()


def psf_gauss(s):
    h = max(1, int(math.ceil(4 * s)))
    x = np.arange(-h, h + 1, dtype=np.float64)
    # Integrated over each cell, so that small sigmas stay exact.
    g = np.array([math.erf((v + 0.5) / (s * math.sqrt(2))) -
                  math.erf((v - 0.5) / (s * math.sqrt(2))) for v in x])
    g /= g.sum()
    return np.outer(g, g)


def psf_line(length, angle_deg):
    """Uniform straight motion of the given length, splatted bilinearly."""
    h = int(math.ceil(length / 2)) + 2
    k = np.zeros((2 * h + 1, 2 * h + 1))
    n = max(2, int(math.ceil(length * 16)) + 1)
    a = math.radians(angle_deg)
    t = np.linspace(-length / 2, length / 2, n)
    xs = h + t * math.cos(a)
    ys = h + t * math.sin(a)
    x0 = np.floor(xs).astype(int)
    y0 = np.floor(ys).astype(int)
    fx = xs - x0
    fy = ys - y0
    for dx, dy, w in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)),
                      (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
        np.add.at(k, (y0 + dy, x0 + dx), w)
    return k / k.sum()


def fast_len(n):
    """The next length >= n with no prime factor above 5 (fast FFT)."""
    while True:
        m = n
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1


def convolve(channels, kernels):
    """Convolves each 2-D array with every kernel, edges replicated."""
    pad = sum(k.shape[0] // 2 for k in kernels) + 1
    h, w = channels[0].shape
    shape = (fast_len(h + 2 * pad), fast_len(w + 2 * pad))
    tf = None
    for k in kernels:
        z = np.zeros(shape, dtype=np.float32)
        z[:k.shape[0], :k.shape[1]] = k
        z = np.roll(z, (-(k.shape[0] // 2), -(k.shape[1] // 2)), axis=(0, 1))
        f = np.fft.rfft2(z)
        tf = f if tf is None else tf * f
    out = []
    for c in channels:
        p = np.pad(c.astype(np.float32), pad, mode="edge")
        r = np.fft.irfft2(np.fft.rfft2(p, s=shape) * tf, s=shape)
        out.append(r[pad:pad + h, pad:pad + w].astype(np.float32))
    return out


def kernel_reach(kernels):
    return sum(k.shape[0] // 2 for k in kernels)


# --- sampling helpers ---

def bilinear(img, x, y):
    """img sampled at continuous (x, y), pixel i centred on i + 0.5."""
    h, w = img.shape
    x = np.clip(x - 0.5, 0, w - 1.001)
    y = np.clip(y - 0.5, 0, h - 1.001)
    x0 = x.astype(np.int32)
    y0 = y.astype(np.int32)
    fx = (x - x0).astype(np.float32)
    fy = (y - y0).astype(np.float32)
    a = img[y0, x0]
    b = img[y0, x0 + 1]
    c = img[y0 + 1, x0]
    d = img[y0 + 1, x0 + 1]
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy


def homography(src, dst):
    """3x3 H with dst ~ H src for four point pairs (direct linear transform)."""
    a = []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(a, dtype=np.float64))
    hm = vt[-1].reshape(3, 3)
    return hm / hm[2, 2]


def apply_h(hm, x, y):
    d = hm[2, 0] * x + hm[2, 1] * y + hm[2, 2]
    return ((hm[0, 0] * x + hm[0, 1] * y + hm[0, 2]) / d,
            (hm[1, 0] * x + hm[1, 1] * y + hm[1, 2]) / d)


# --- the label (coverage of ink, in label coordinates: modules) ---

TEX = 16  # texture pixels per module

FONT_PATHS = ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
              "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf",
              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]


def load_font(size, rng=None):
    paths = [p for p in FONT_PATHS if os.path.exists(p)]
    if rng is not None and paths:
        paths = [paths[rng.integers(len(paths))]]
    for p in paths:
        return ImageFont.truetype(p, size)
    return ImageFont.load_default(size=size)


def make_label(code, rng):
    """Ink coverage (0..1) of the label at TEX px/module, and its layout."""
    qz_left = rng.uniform(7, 12)
    qz_right = rng.uniform(7, 11)
    top = rng.uniform(1.5, 5)
    bar_h = rng.uniform(22, 60)
    digits = rng.random() < 0.8
    guard_ext = 5.0
    below = (guard_ext + 5.0) if digits else guard_ext
    bottom = rng.uniform(1, 3)
    spread = rng.uniform(-0.1, 0.1) if rng.random() < 0.5 else 0.0
    w_mod = qz_left + 95 + qz_right
    h_mod = top + bar_h + below + bottom
    tw, th = int(round(w_mod * TEX)), int(round(h_mod * TEX))

    # Column coverage of the normal bars and of the guard bars, exact over
    # each texture column, with the bar edges moved by spread / 2 each.
    mods = ean13_modules(code)
    bars = []
    i = 0
    while i < 95:
        if mods[i] == "1":
            j = i
            while j < 95 and mods[j] == "1":
                j += 1
            bars.append((i, j, guard_module(i)))
            i = j
        else:
            i += 1
    cols0 = np.arange(tw) / TEX - qz_left
    cols1 = cols0 + 1.0 / TEX
    cov_all = np.zeros(tw)
    cov_guard = np.zeros(tw)
    for a, b, g in bars:
        a -= spread / 2
        b += spread / 2
        c = np.clip(np.minimum(cols1, b) - np.maximum(cols0, a), 0, None) * TEX
        cov_all += c
        if g:
            cov_guard += c
    cov_all = np.clip(cov_all, 0, 1)
    cov_guard = np.clip(cov_guard, 0, 1)
    rows = (np.arange(th) + 0.5) / TEX
    y_top, y_bar = top, top + bar_h
    y_guard = y_bar + guard_ext
    cov = np.zeros((th, tw), dtype=np.float32)
    r_bar = (rows >= y_top) & (rows < y_bar)
    r_guard = (rows >= y_bar) & (rows < y_guard)
    cov[r_bar] = cov_all
    cov[r_guard] = cov_guard

    if digits:
        # Digits in a plain monospaced font: the first left of the start
        # guard, six under each half, each centred in its 7-module character.
        size = int(9.5 * TEX)
        font = load_font(size, rng)
        img = Image.new("L", (tw, th), 0)
        d = ImageDraw.Draw(img)
        yc = y_bar + 4.2  # digit centre, modules
        centres = [-min(4.5, qz_left - 3)] + [3 + 7 * k + 3.5 for k in range(6)] + \
                  [50 + 7 * k + 3.5 for k in range(6)]
        for ch, cx in zip(code, centres):
            d.text(((qz_left + cx) * TEX, yc * TEX), ch, fill=255, font=font,
                   anchor="mm")
        cov = np.maximum(cov, np.asarray(img, dtype=np.float32) / 255.0)

    layout = dict(qz_left=qz_left, qz_right=qz_right, w=w_mod, h=h_mod,
                  bar_top=y_top, bar_bottom=y_bar, digits=digits, spread=spread)
    return cov, layout


# --- the cover behind the label (reflectance per channel, 1x frame grid) ---

WORDS = ["THE", "NOVEL", "HISTORY", "of", "and", "PRESS", "Edition", "A",
         "SCIENCE", "Collected", "Stories", "price", "www", "reviews", "NEW"]


def make_background(W, H, base, tint, rng, notes):
    nch = len(tint)
    kind = rng.choice(["uniform", "gradient"])
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    refl = np.full((H, W), base, dtype=np.float32)
    if kind == "gradient":
        a = rng.uniform(0, 2 * math.pi)
        t = ((xx - W / 2) * math.cos(a) + (yy - H / 2) * math.sin(a)) / max(W, H)
        refl *= 1 + rng.uniform(-0.5, 0.5) * t
    notes.append("bg=" + kind)
    if rng.random() < 0.5:
        # Low-contrast texture: smooth blotches and a fine grain.
        lw, lh = max(2, W // 24), max(2, H // 24)
        low = Image.fromarray(rng.normal(0, 1, (lh, lw)).astype(np.float32), "F")
        low = np.asarray(low.resize((W, H), Image.BICUBIC), dtype=np.float32)
        amp = rng.uniform(0.02, 0.08)
        grain = rng.uniform(0.0, 0.03)
        refl *= 1 + amp * low + grain * rng.normal(0, 1, (H, W)).astype(np.float32)
        notes.append("texture=%.2f" % amp)
    chans = [refl * t for t in tint]
    if rng.random() < 0.6:
        nb = int(rng.integers(2, 9))
        for _ in range(nb):
            m = Image.new("L", (W, H), 0)
            d = ImageDraw.Draw(m)
            x0, y0 = rng.uniform(-0.1, 1.0) * W, rng.uniform(-0.1, 1.0) * H
            what = rng.choice(["rect", "ellipse", "text"])
            if what == "text":
                size = int(rng.integers(14, 70))
                words = " ".join(rng.choice(WORDS, size=int(rng.integers(1, 5))))
                d.text((x0, y0), words, fill=255, font=load_font(size, rng))
            else:
                x1 = x0 + rng.uniform(0.05, 0.5) * W
                y1 = y0 + rng.uniform(0.05, 0.5) * H
                (d.rectangle if what == "rect" else d.ellipse)(
                    [x0, y0, x1, y1], fill=255)
            mask = np.asarray(m, dtype=np.float32) / 255.0
            value = base * rng.uniform(0.15, 1.6)
            col = [value * t * rng.uniform(0.8, 1.2) for t in tint]
            for c in range(nch):
                chans[c] = chans[c] * (1 - mask) + mask * col[c]
        notes.append("blobs=%d" % nb)
    return [np.clip(c, 0.005, 0.95).astype(np.float32) for c in chans]


# --- one image ---

CELLS = ([("disk", r) for r in (1, 1.5, 2)] +
         [("gauss", s) for s in (0.5, 0.7, 1.0, 1.5)] +
         [("motion", l) for l in (1, 2, 3)] +
         [("motalong", 3)] +
         [("defmot", l) for l in (1, 2)])

FRAMES = [(640, 480), (800, 600), (1024, 768), (1280, 960), (1600, 1200)]


def fmt(v):
    return ("%g" % v)


PPM_MIN, PPM_MAX = 1.2, 4.0


def make_image(kind, sev, stratum, rng):
    """stratum in [0, 1): the image's share of the px/module range (jittered
    strata, so that each cell covers the whole range evenly)."""
    notes = []
    code = random_isbn(rng)
    ppm = PPM_MIN + (PPM_MAX - PPM_MIN) * stratum
    colour = rng.random() < 0.35
    nch = 3 if colour else 1

    # Reflectances (linear): paper, ink (print contrast signal), cover.
    paper = rng.uniform(0.6, 0.9)
    pcs = rng.uniform(0.5, 1.0)
    ink = paper * (1 - pcs)
    if rng.random() < 0.25:
        lighter = rng.uniform(0.03, 0.12)  # label barely lighter
    else:
        lighter = rng.uniform(0.12, 0.85)
    cover = paper * (1 - lighter)
    if colour:
        hue = rng.uniform(0.4, 1.6, 3)
        cover_tint = hue / hue.max()
        paper_tint = 1 + rng.uniform(-0.04, 0.04, 3)
        ink_tint = 1 + rng.uniform(-0.3, 0.3, 3)
        light_tint = 1 + rng.uniform(-0.06, 0.06, 3)
    else:
        cover_tint = paper_tint = ink_tint = light_tint = np.ones(1)
    notes += ["pcs=%.2f" % pcs, "paper=%.2f" % paper, "lighter=%.2f" % lighter]

    cov, lay = make_label(code, rng)
    if lay["spread"]:
        notes.append("spread=%+.2f" % lay["spread"])
    notes.append("digits=%d" % lay["digits"])

    # Geometry: label (u, v in modules) to frame pixels.
    angle = rng.uniform(-10, 10)
    persp = rng.random() < 0.3
    lw, lh = lay["w"], lay["h"]
    corners = np.array([[0, 0], [lw, 0], [lw, lh], [0, lh]], dtype=np.float64)
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    rot = np.array([[ca, -sa], [sa, ca]])
    placed = (corners - [lw / 2, lh / 2]) @ rot.T * ppm
    if persp:
        placed += rng.normal(0, 0.025 * lw * ppm, placed.shape)
    # Rescale so the module at the barcode's centre is exactly ppm pixels.
    uc, vc = lay["qz_left"] + 47.5, (lay["bar_top"] + lay["bar_bottom"]) / 2
    hm = homography(corners, placed)
    p0 = np.array(apply_h(hm, uc, vc))
    p1 = np.array(apply_h(hm, uc + 1, vc))
    local = np.linalg.norm(p1 - p0)
    placed *= ppm / local
    hm = homography(corners, placed)
    p0 = np.array(apply_h(hm, uc, vc))
    p1 = np.array(apply_h(hm, uc + 1, vc))
    across = math.degrees(math.atan2(p1[1] - p0[1], p1[0] - p0[0]))

    # Point-spread functions, sizes in modules of this image.
    jitter = rng.uniform(-4, 4)
    psf = []  # (kind, size in px, angle)
    if kind == "disk":
        psf.append(("disk", sev * ppm, 0))
    elif kind == "gauss":
        psf.append(("gauss", sev * ppm, 0))
    elif kind == "motion":
        psf.append(("line", sev * ppm, across + jitter))
    elif kind == "motalong":
        psf.append(("line", sev * ppm, across + 90 + jitter))
    elif kind == "defmot":
        psf.append(("disk", 1.0 * ppm, 0))
        psf.append(("line", sev * ppm, across + jitter))
    lens = rng.uniform(0.2, 0.4)  # the lens and demosaicing, px
    psf.append(("gauss", lens, 0))
    notes.append("psf=" + "+".join("%s%.2fpx" % (k, s) for k, s, _ in psf))
    if kind in ("motion", "motalong", "defmot"):
        notes.append("motion_angle=%.1f" % (psf[-2][2] % 180))

    def kernels(scale):
        ks = []
        for k, s, a in psf:
            if k == "disk":
                ks.append(psf_disk(s * scale))
            elif k == "gauss":
                ks.append(psf_gauss(s * scale))
            else:
                ks.append(psf_line(s * scale, a))
        return ks

    S = 3 if ppm < 2.5 else 2
    k1 = kernels(1)
    kS = kernels(S)
    reach = int(math.ceil(kernel_reach(kS) / S)) + 3

    # Frame: the first size (often a larger one) that holds the label.
    bw = placed[:, 0].max() - placed[:, 0].min()
    bh = placed[:, 1].max() - placed[:, 1].min()
    fi = int(rng.integers(len(FRAMES)))
    while True:
        W, H = FRAMES[fi]
        if rng.random() < 0.25:
            W, H = H, W
        if bw + 2 * reach + 16 < W and bh + 2 * reach + 16 < H:
            break
        fi = min(fi + 1, len(FRAMES) - 1)
    cx = rng.uniform(bw / 2 + reach + 8, W - bw / 2 - reach - 8)
    cy = rng.uniform(bh / 2 + reach + 8, H - bh / 2 - reach - 8)
    placed += [cx, cy]
    hm = homography(corners, placed)
    hinv = np.linalg.inv(hm)
    notes += ["angle=%.1f" % angle, "persp=%d" % persp, "size=%dx%d" % (W, H),
              "label_box=%d,%d,%d,%d" % (placed[:, 0].min(), placed[:, 1].min(),
                                         placed[:, 0].max(), placed[:, 1].max())]

    # Illumination (linear, multiplies the scene) and exposure.
    falloff = rng.uniform(0, 0.4)
    if rng.random() < 0.5:
        a = rng.uniform(0, 2 * math.pi)
        ux, uy = math.cos(a), math.sin(a)
        proj = [abs(ux) * W / 2 + abs(uy) * H / 2]

        def light(x, y):
            t = ((x - W / 2) * ux + (y - H / 2) * uy) / proj[0]  # -1..1
            return 1 - falloff * (t + 1) / 2
        notes.append("light=gradient%.2f" % falloff)
    else:
        ox, oy = rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H
        rmax = math.hypot(max(ox, W - ox), max(oy, H - oy))

        def light(x, y):
            return 1 - falloff * ((x - ox) ** 2 + (y - oy) ** 2) / rmax ** 2
        notes.append("light=vignette%.2f" % falloff)
    exposure = rng.uniform(0.65, 0.95) / paper  # brightest paper -> 0.65..0.95

    bg = make_background(W, H, cover, cover_tint, rng, notes)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32) + 0.5
    lit = (light(xx, yy) * exposure).astype(np.float32)
    frame = convolve([c * lit * light_tint[i] for i, c in enumerate(bg)], k1)

    # The label's neighbourhood on a grid S times finer, blurred there and
    # integrated over each pixel, replaces the coarse render around it.
    kx0 = max(0, int(placed[:, 0].min()) - reach)
    kx1 = min(W, int(math.ceil(placed[:, 0].max())) + reach)
    ky0 = max(0, int(placed[:, 1].min()) - reach)
    ky1 = min(H, int(math.ceil(placed[:, 1].max())) + reach)
    rx0, rx1 = max(0, kx0 - reach), min(W, kx1 + reach)
    ry0, ry1 = max(0, ky0 - reach), min(H, ky1 + reach)
    gx = rx0 + (np.arange((rx1 - rx0) * S) + 0.5) / S
    gy = ry0 + (np.arange((ry1 - ry0) * S) + 0.5) / S
    sx, sy = np.meshgrid(gx, gy)
    u, v = apply_h(hinv, sx, sy)
    inside = (u >= 0) & (u < lw) & (v >= 0) & (v < lh)
    c_ink = bilinear(cov, u * TEX, v * TEX)
    sl = (light(sx, sy) * exposure).astype(np.float32)
    fine = []
    for i in range(nch):
        lab = paper * paper_tint[i] - (paper * paper_tint[i] -
                                       ink * ink_tint[i]) * c_ink
        back = bilinear(bg[i], sx, sy)
        fine.append(np.where(inside, lab, back).astype(np.float32) * sl * light_tint[i])
    fine = convolve(fine, kS)
    oy0, ox0 = (ky0 - ry0) * S, (kx0 - rx0) * S
    hh, ww = ky1 - ky0, kx1 - kx0
    # A ramp over the outer 4 px hides any step between the two renders
    # (only cover is there: the label's blur reaches less far).
    ramp = np.minimum.outer(np.minimum(np.arange(hh), np.arange(hh)[::-1]),
                            np.minimum(np.arange(ww), np.arange(ww)[::-1]))
    wgt = np.clip((ramp + 0.5) / 4, 0, 1).astype(np.float32)
    for i in range(nch):
        f = fine[i][oy0:oy0 + hh * S, ox0:ox0 + ww * S]
        f = f.reshape(hh, S, ww, S).mean(axis=(1, 3))
        region = frame[i][ky0:ky1, kx0:kx1]
        frame[i][ky0:ky1, kx0:kx1] = wgt * f + (1 - wgt) * region

    # Sensor noise in linear light: shot noise (variance proportional to
    # the signal) and read noise. sigma is the grey levels after encoding at
    # the barcode's mean level (paper and ink averaged, where it is lit);
    # shot noise dominates as in a lit scene, so that the sRGB curve, steep
    # in the dark, leaves the paper about 0.9 sigma and the bars 1-2 sigma.
    sigma = rng.uniform(1, 6)
    shot = rng.uniform(0.9, 0.99)
    ref = float(np.clip((paper + ink) / 2 * exposure * light(cx, cy), 0.02, 1))
    s_lin = sigma / 255 / srgb_slope(ref)
    a_shot = shot * s_lin ** 2 / ref
    b_read = (1 - shot) * s_lin ** 2
    out = []
    for c in frame:
        n = rng.normal(0, 1, c.shape).astype(np.float32)
        c = c + n * np.sqrt(a_shot * np.clip(c, 0, None) + b_read).astype(np.float32)
        out.append(np.round(linear_to_srgb(c) * 255).astype(np.uint8))
    notes.append("noise=%.1f" % sigma)
    img = Image.fromarray(np.dstack(out) if colour else out[0],
                          "RGB" if colour else "L")
    if rng.random() < 1 / 3:
        r, pct = rng.uniform(0.8, 2.0), int(rng.integers(40, 130))
        img = img.filter(ImageFilter.UnsharpMask(radius=r, percent=pct,
                                                 threshold=int(rng.integers(0, 4))))
        notes.append("sharpen=%.1f/%d" % (r, pct))
    quality = int(rng.integers(60, 96)) if rng.random() < 0.8 else None
    notes.append("colour=%d" % colour)
    notes.append("quality=%s" % (quality if quality else "png"))
    return img, quality, code, ppm, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="folder to write (images/, truth.tsv)")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--per-cell", type=int, default=12, help="images per category")
    ap.add_argument("--only", help="make only the categories starting with this")
    args = ap.parse_args()
    os.makedirs(os.path.join(args.out, "images"), exist_ok=True)
    seeds = np.random.SeedSequence(args.seed)
    rows = []
    t0 = time.time()
    for ci, (kind, sev) in enumerate(CELLS):
        cat = "%s-%s" % (kind, fmt(sev))
        cell_seed = seeds.spawn(1)[0]
        cell_rng = np.random.default_rng(cell_seed.spawn(1)[0])
        strata = cell_rng.permutation(args.per_cell)
        jitter = cell_rng.random(args.per_cell)
        image_seeds = cell_seed.spawn(args.per_cell)
        if args.only and not cat.startswith(args.only):
            continue
        for i in range(args.per_cell):
            rng = np.random.default_rng(image_seeds[i])
            stratum = (strata[i] + jitter[i]) / args.per_cell
            img, q, code, ppm, notes = make_image(kind, sev, stratum, rng)
            name = "images/%s-%02d.%s" % (cat, i + 1, "jpg" if q else "png")
            path = os.path.join(args.out, name)
            if q:
                img.save(path, quality=q)
            else:
                img.save(path, optimize=False)
            rows.append((name, cat, code, "%.3f" % ppm, " ".join(notes)))
    with open(os.path.join(args.out, "truth.tsv"), "w") as f:
        f.write("file\tcategory\texpected\tpx_per_module\tdetail\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    print("%d images in %s, %.1f s" % (len(rows), args.out, time.time() - t0),
          file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate "blur as the world makes it": blurred photos of book barcodes, a tune part and a held-out part.

    make_blur_world.py --out DIR [--per-category 1.0] [--seed 19] [--holdout-seed 23] [--jobs N]

An independent second blur set (issue 27): nothing here comes from make_blur_sweep.py, synth.py or zint.
The bars are drawn from the EAN-13 encodation tables (ISO/IEC 15420, GS1 General Specifications 5.2) and
sampled exactly, at any fractional module size and angle, so no module ever lands on a whole pixel grid.

One photo, in linear light (the blur of a lens adds light, not grey levels):
  1. scene: a 978 ISBN (15 % 979-8/979-1x; random digits, valid check digit) with its human-readable digits
     and, on half of the labels, an "ISBN ..." line above the bars, printed on a white or light label
     (paper 0.72-0.98) stuck on a cover of any grey (0.05-0.95, with title lettering and a slow texture);
     print contrast 0.5-1.0 as the camera would see it in focus (ink = paper x (1 - contrast) in 8-bit
     terms); 1.2-4 px per module (never more than 12 px of blur width, see below); rotated by up to 10
     degrees; sampled 4 x 4 times per pixel;
  2. light: a linear gradient (up to 1.7:1 across the picture) and a vignette (corners down to 55 %);
  3. blur, the point-spread function on the 4x samples, sizes in modules of that photo:
       gauss_s<sigma>          Gaussian, sigma 0.5-1.5 modules (a soft lens, a scratched cover film)
       disk_r<radius>          defocus: a uniform disk, radius 0.5-2.5 modules
       motion-across_l<len>    a hand moving the book across the bars during the exposure, 1-3 modules
       motion-along_l<len>     the same along the bars, 2-6 modules
       disk+motion_r<r>_l<l>   defocus and motion across the bars together
     A motion path is slightly curved and its speed changes (the end where the hand is slower is
     brighter), within 15 degrees of its nominal direction. The blur's width in pixels (disk 2r,
     Gaussian 4 sigma, motion the length, combined 2r + length) is at most 12: a large blur in modules
     comes with a small module, as a far-away webcam gives it;
  4. sensor: the 4 x 4 samples averaged into one pixel, white balance off by up to 6 % per channel,
     shot and read noise per channel, gamma 1/2.2, on 40 % of the photos the camera's mild sharpening;
  5. JPEG quality 60-95 (4:2:0), 640 x 480.

Categories name the blur and its size (gauss_s1, disk_r1.5, motion-across_l2, motion-along_l4,
disk+motion_r1_l2), --per-category scales the images per category (1.0: 240 per part). The two parts are
the same design drawn with different seeds: DIR/tune (--seed) is the part one may look at while changing
the decoder, DIR/holdout (--holdout-seed) is only measured. Each part has images/<category>_NN.jpg,
truth.tsv (file, category, expected, kind, severity, part, detail) and stamp.json: a part is not
regenerated when its parameters and the generator's source are unchanged. Each image has its own seed
(part seed, category, index).
"""

import argparse
import json
import math
import multiprocessing
import os
import random
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as B  # noqa: E402

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

SIZE = (640, 480)
SUPER = 4  # scene samples per pixel along each axis
BLUR_SUPER = 2  # the blur works on 2 x 2 area averages of them per pixel (a PSF of >= 0.6 px is well sampled)
MAX_BLUR_PX = 12.0
MODULE_RANGE = (1.2, 4.0)
GAMMA = 2.2

# (kind, severities, images per category at --per-category 1). Disk carries the per-radius targets,
# so it has the most images per radius.
KINDS = [
    ("gauss", [0.5, 0.75, 1.0, 1.25, 1.5], 8),
    ("disk", [0.5, 1.0, 1.5, 2.0, 2.5], 16),
    ("motion-across", [1, 2, 3], 12),
    ("motion-along", [2, 4, 6], 8),
    ("disk+motion", [(0.5, 2), (1, 1), (1, 2), (1.5, 1), (1.5, 2)], 12),
]

# --------------------------------------------------------------------------
# EAN-13 symbol

# Left-hand odd parity (set A) per digit; set C (right half) is its complement, set B (left even parity)
# the mirror image of set C. The first digit is not drawn: it selects the A/B pattern of the left half.
SET_A = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111",
         "0001011"]
SET_C = ["".join("1" if b == "0" else "0" for b in a) for a in SET_A]
SET_B = [c[::-1] for c in SET_C]
LEFT_PARITY = ["AAAAAA", "AABABB", "AABBAB", "AABBBA", "ABAABB", "ABBAAB", "ABBBAA", "ABABAB", "ABABBA",
               "ABBABA"]
QUIET_LEFT, QUIET_RIGHT = 11, 7  # minimum quiet zones in modules
GUARD_MODULES = set(range(0, 3)) | set(range(45, 50)) | set(range(92, 95))


def check_digit(body12):
    """GS1 mod-10 over 12 digits: weight 1 on the 1st, 3rd, ... digit from the left, 3 on the others."""
    s = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body12))
    return str(-s % 10)


def ean13_modules(code):
    """95 booleans (True = dark module) for a 13-digit code."""
    assert len(code) == 13 and code.isdigit() and check_digit(code[:12]) == code[12], code
    parity = LEFT_PARITY[int(code[0])]
    s = "101"
    for d, p in zip(code[1:7], parity):
        s += (SET_A if p == "A" else SET_B)[int(d)]
    s += "01010"
    for d in code[7:]:
        s += SET_C[int(d)]
    s += "101"
    assert len(s) == 95
    return np.array([c == "1" for c in s])


def random_isbn(rng):
    if rng.random() < 0.15:
        prefix = rng.choice(["9798", "97910", "97911", "97912"])
    else:
        prefix = "978"
    body = prefix + "".join(str(rng.randrange(10)) for _ in range(12 - len(prefix)))
    return body + check_digit(body)


# Product prefixes of GS1 member organisations (France, Germany, UK, Italy, Netherlands, Spain, Poland, China,
# Japan, Korea), not 0/1 (UPC-A: readers differ in 12 or 13 digits), 2 (in-store), 977-979 (serials, books).
PRODUCT_PREFIXES = ["30", "34", "37", "400", "405", "426", "440", "50", "80", "83", "87", "84", "590", "690",
                    "693", "45", "49", "880"]


def random_product(rng):
    prefix = rng.choice(PRODUCT_PREFIXES)
    body = prefix + "".join(str(rng.randrange(10)) for _ in range(12 - len(prefix)))
    return body + check_digit(body)


def hyphenated(code):
    """An ISBN-looking line for above the bars (the hyphen positions are not checked against the ranges)."""
    p, g, rest = code[:3], code[3], code[4:12]
    cut = 2 + int(code[5]) % 4
    return "ISBN %s-%s-%s-%s-%s" % (p, g, rest[:cut], rest[cut:], code[12])


# --------------------------------------------------------------------------
# label: geometry in modules (u to the right from the left guard's outer edge, v down from the bars' top)


class Label:
    def __init__(self, rng, code, isbn_line):
        self.code = code
        self.bars = ean13_modules(code)
        self.bar_h = rng.uniform(32, 60)  # books often print the bars shorter than GS1's 69 modules
        self.guard_ext = 5.0
        self.bar_bottom = np.array([self.bar_h + (self.guard_ext if k in GUARD_MODULES else 0.0) for k in range(95)],
                                   dtype=np.float32)
        self.digit_h = 8.0
        self.isbn_line = isbn_line
        top_text = 10.0 if isbn_line else 0.0
        # Barcode area incl. quiet zones and digits: what must stay in the picture.
        self.box = (-QUIET_LEFT, -1.0 - top_text, 95 + QUIET_RIGHT, self.bar_h + self.guard_ext + self.digit_h)
        # Label paper: the box and a margin of its own.
        b = self.box
        self.paper = (b[0] - rng.uniform(0.5, 8), b[1] - rng.uniform(1, 8), b[2] + rng.uniform(0.5, 8),
                      b[3] + rng.uniform(1, 8))
        self.res = 10  # text raster pixels per module
        self.text = self._text_raster()

    def _text_raster(self):
        u0, v0, u1, v1 = self.paper
        r = self.res
        w, h = int(math.ceil((u1 - u0) * r)), int(math.ceil((v1 - v0) * r))
        img = Image.new("L", (w, h), 0)
        d = ImageDraw.Draw(img)

        def put(text, u_left, u_right, v_top, height):
            font = _font_for_height(height * r, text)
            box = d.textbbox((0, 0), text, font=font)
            tw = box[2] - box[0]
            x = (u_left + u_right) / 2.0 * r - tw / 2.0 - box[0] - u0 * r
            y = v_top * r - box[1] - v0 * r
            d.text((x, y), text, fill=255, font=font)

        below = self.bar_h + 0.8
        put(self.code[0], -8.5, -2.0, below, self.digit_h - 1.5)
        put(self.code[1:7], 3.5, 44.5, below, self.digit_h - 1.5)
        put(self.code[7:], 50.5, 91.5, below, self.digit_h - 1.5)
        if self.isbn_line:
            put(hyphenated(self.code), -4.0, 99.0, -9.5, 6.0)
        return np.asarray(img, dtype=np.float32) / 255.0

    def ink(self, U, V):
        """Ink coverage 0..1 at label coordinates U, V (arrays)."""
        k = np.floor(U).astype(np.int32)
        inside = (k >= 0) & (k < 95) & (V >= 0)
        kc = np.clip(k, 0, 94)
        bar = inside & self.bars[kc] & (V < self.bar_bottom[kc])
        u0, v0, _, _ = self.paper
        ti = np.clip(((V - v0) * self.res).astype(np.int32), 0, self.text.shape[0] - 1)
        tj = np.clip(((U - u0) * self.res).astype(np.int32), 0, self.text.shape[1] - 1)
        text = self.text[ti, tj] * self.on_paper(U, V)
        return np.maximum(bar.astype(np.float32), text)

    def on_paper(self, U, V):
        u0, v0, u1, v1 = self.paper
        return (U >= u0) & (U < u1) & (V >= v0) & (V < v1)


_FONTS = {}


def _font_for_height(px, text):
    """Pillow's built-in scalable font at the size whose digits are `px` tall."""
    key = round(px * 4)
    if key not in _FONTS:
        probe = ImageFont.load_default(size=100)
        box = probe.getbbox("0123456789")
        _FONTS[key] = ImageFont.load_default(size=max(4, int(round(100 * px / (box[3] - box[1])))))
    return _FONTS[key]


# --------------------------------------------------------------------------
# point-spread functions, in blur-grid units (BLUR_SUPER per pixel)


def gauss_psf(sigma):
    half = max(1, int(math.ceil(3.5 * sigma)))
    x = np.arange(-half, half + 1, dtype=np.float64)
    g = np.exp(-0.5 * (x / sigma) ** 2)
    k = np.outer(g, g)
    return k / k.sum()


def disk_psf(radius):
    """Uniform disk; each cell weighted by the share of its 5 x 5 sub-points inside, so the rim is smooth."""
    half = int(math.ceil(radius)) + 1
    sub = (np.arange(5) + 0.5) / 5 - 0.5
    x = (np.arange(-half, half + 1)[:, None] + sub[None, :]).reshape(-1)
    inside = (x[:, None] ** 2 + x[None, :] ** 2) <= radius * radius
    n = 2 * half + 1
    k = inside.reshape(n, 5, n, 5).mean(axis=(1, 3))
    return k / k.sum()


def motion_psf(length, angle, rng):
    """A path of `length` samples at `angle` (radians, image x right / y down), bowed by up to 8 % of its
    length, travelled at a speed that changes by up to a factor 2 from one end to the other; splatted
    bilinearly."""
    bow = rng.uniform(-0.08, 0.08) * length
    accel = rng.uniform(-0.6, 0.6)
    n = max(64, int(8 * length))
    t = (np.arange(n) + 0.5) / n - 0.5
    # Dwell time at t is 1/speed; speed 1 + accel * t.
    w = 1.0 / (1.0 + accel * t)
    ca, sa = math.cos(angle), math.sin(angle)
    along = t * length
    across = bow * (4 * t * t - 1.0 / 3.0)
    x = along * ca - across * sa
    y = along * sa + across * ca
    half = int(math.ceil(length / 2 + abs(bow))) + 2
    k = np.zeros((2 * half + 1, 2 * half + 1))
    fx, fy = x + half, y + half
    ix, iy = np.floor(fx).astype(int), np.floor(fy).astype(int)
    ax, ay = fx - ix, fy - iy
    for dx, dy, ww in ((0, 0, (1 - ax) * (1 - ay)), (1, 0, ax * (1 - ay)), (0, 1, (1 - ax) * ay), (1, 1, ax * ay)):
        np.add.at(k, (iy + dy, ix + dx), w * ww)
    return k / k.sum()


def apply_psfs(img, psfs):
    """Convolve `img` with every kernel in `psfs`, edges extended."""
    if not psfs:
        return img
    k = psfs[0]
    for other in psfs[1:]:
        k = full_convolve(k, other)
    h = k.shape[0] // 2
    pad = h + 2
    big = np.pad(img, pad, mode="edge")
    shape = (B.fast_fft_size(big.shape[0]), B.fast_fft_size(big.shape[1]))
    embed = np.zeros(shape, dtype=np.float32)
    embed[:k.shape[0], :k.shape[1]] = k
    embed = np.roll(embed, (-h, -h), axis=(0, 1))
    out = np.fft.irfft2(np.fft.rfft2(big, s=shape) * np.fft.rfft2(embed), s=shape)
    return out[pad:pad + img.shape[0], pad:pad + img.shape[1]].astype(np.float32)


def full_convolve(a, b):
    """Full 2-D convolution of two small odd-sized square kernels (the result is centred too)."""
    n = a.shape[0] + b.shape[0] - 1
    shape = (B.fast_fft_size(n), B.fast_fft_size(n))
    out = np.fft.irfft2(np.fft.rfft2(a, s=shape) * np.fft.rfft2(b, s=shape), s=shape)[:n, :n]
    return np.clip(out, 0, None) / out.sum()


def blur_width_modules(kind, sev):
    if kind == "gauss":
        return 4.0 * sev
    if kind == "disk":
        return 2.0 * sev
    if kind.startswith("motion"):
        return float(sev)
    r, l = sev
    return 2.0 * r + l


def category_name(kind, sev):
    if kind == "gauss":
        return "gauss_s%g" % sev
    if kind == "disk":
        return "disk_r%g" % sev
    if kind.startswith("motion"):
        return "%s_l%g" % (kind, sev)
    return "disk+motion_r%g_l%g" % sev


def severity_name(kind, sev):
    return "r%g_l%g" % sev if kind == "disk+motion" else "%g" % sev


def psfs_for(kind, sev, module_px, angle, rng):
    """Kernels in blur-grid units; motion directions relative to the bars (angle = the u axis' direction)."""
    m = module_px * BLUR_SUPER
    jitter = math.radians(rng.uniform(-15, 15))
    if kind == "gauss":
        return [gauss_psf(sev * m)]
    if kind == "disk":
        return [disk_psf(sev * m)]
    if kind == "motion-across":
        return [motion_psf(sev * m, angle + jitter, rng)]
    if kind == "motion-along":
        return [motion_psf(sev * m, angle + math.pi / 2 + jitter, rng)]
    r, l = sev
    return [disk_psf(r * m), motion_psf(l * m, angle + jitter, rng)]


# --------------------------------------------------------------------------
# photo


def to_linear(enc):
    return float(enc) ** GAMMA


def cover_field(rng, size, grey):
    """Cover reflectance (linear) at sample resolution: a grey, a slow texture, some title lettering."""
    w, h = size
    small = np.asarray(
        Image.fromarray((np.random.default_rng(rng.getrandbits(32)).random((6, 8)) * 255).astype(np.uint8))
        .resize((w, h), Image.BICUBIC), dtype=np.float32) / 255.0
    enc = np.clip(grey + (small - 0.5) * rng.uniform(0.02, 0.12), 0.02, 0.98)
    img = Image.fromarray((enc * 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    letters = "ABCDEFGHIJKLMNOPRSTUVWYaeinorst"
    for _ in range(rng.randrange(1, 4)):
        word = "".join(rng.choice(letters) for _ in range(rng.randrange(3, 10)))
        tone = rng.choice([max(0.0, grey - rng.uniform(0.3, 0.6)), min(1.0, grey + rng.uniform(0.3, 0.6))])
        font = _font_for_height(rng.uniform(0.05, 0.12) * h, word)
        d.text((rng.uniform(-0.1, 0.8) * w, rng.uniform(-0.05, 0.9) * h), word, fill=int(tone * 255), font=font)
    return (np.asarray(img, dtype=np.float32) / 255.0) ** GAMMA


def light_field(rng, size):
    """Illumination at sample resolution, 1 at the picture's centre."""
    w, h = size
    x = ((np.arange(w, dtype=np.float32) + 0.5 - w / 2) / w)[None, :]
    y = ((np.arange(h, dtype=np.float32) + 0.5 - h / 2) / w)[:, None]
    a = rng.uniform(0, 2 * math.pi)
    ratio = rng.uniform(1.0, 1.7)  # brightest to darkest end of the gradient across the picture's width
    g = math.log(ratio) * (x * math.cos(a) + y * math.sin(a))
    corner2 = 0.25 + 0.25 * (h / w) ** 2
    vig = 1.0 - rng.uniform(0.0, 0.45) * (x * x + y * y) / corner2
    return np.exp(g) * vig, {"gradient": round(ratio, 2), "vignette": round(float(1 - vig.min()), 2)}


def render(rng, label, module_px, angle_deg, psfs, size=SIZE, centre=None, cover_grey=None, noise=None):
    """One photo of `label` -> (RGB uint8 array, detail dict, to_pixel(u, v) -> (x, y))."""
    w, h = size
    angle = math.radians(angle_deg)
    ca, sa = math.cos(angle), math.sin(angle)
    uc = (label.box[0] + label.box[2]) / 2
    vc = (label.box[1] + label.box[3]) / 2
    if centre is None:
        # Keep the barcode, quiet zones and digits inside, 3 px from the edges.
        hw = (label.box[2] - label.box[0]) / 2 * module_px
        hh = (label.box[3] - label.box[1]) / 2 * module_px
        ex, ey = hw * abs(ca) + hh * abs(sa) + 3, hw * abs(sa) + hh * abs(ca) + 3
        cx = rng.uniform(ex, w - ex) if w > 2 * ex else w / 2
        cy = rng.uniform(ey, h - ey) if h > 2 * ey else h / 2
    else:
        cx, cy = centre

    def to_pixel(u, v):
        du, dv = (u - uc) * module_px, (v - vc) * module_px
        return cx + ca * du - sa * dv, cy + sa * du + ca * dv

    W, H = w * SUPER, h * SUPER
    xs = ((np.arange(W, dtype=np.float32) + 0.5) / SUPER - cx)[None, :]
    ys = ((np.arange(H, dtype=np.float32) + 0.5) / SUPER - cy)[:, None]
    U = uc + (xs * ca + ys * sa) / module_px
    V = vc + (-xs * sa + ys * ca) / module_px

    paper_enc = rng.uniform(0.72, 0.98)
    contrast = rng.uniform(0.5, 1.0)
    ink_lin = to_linear(paper_enc * (1.0 - contrast))
    paper_lin = to_linear(paper_enc)
    grey = rng.uniform(0.05, 0.95) if cover_grey is None else cover_grey
    refl = cover_field(rng, (W, H), grey)
    on = label.on_paper(U, V)
    ink = label.ink(U, V)
    refl = np.where(on, paper_lin + (ink_lin - paper_lin) * ink, refl).astype(np.float32)
    del U, V, on, ink
    light, light_detail = light_field(rng, (W, H))
    f = SUPER // BLUR_SUPER
    scene = (refl * light).reshape(h * BLUR_SUPER, f, w * BLUR_SUPER, f).mean(axis=(1, 3))
    del refl, light
    radiance = apply_psfs(scene, psfs)
    lin = radiance.reshape(h, BLUR_SUPER, w, BLUR_SUPER).mean(axis=(1, 3))

    wb = np.array([1 + rng.uniform(-0.06, 0.06), 1.0, 1 + rng.uniform(-0.06, 0.06)], dtype=np.float32)
    exposure = rng.uniform(0.92, 1.08)
    nrng = np.random.default_rng(rng.getrandbits(64))
    read_n, shot = noise if noise is not None else (rng.uniform(0.002, 0.008), rng.uniform(0.0002, 0.002))
    rgb = lin[:, :, None] * wb[None, None, :] * exposure
    rgb = rgb + nrng.standard_normal(rgb.shape).astype(np.float32) * np.sqrt(read_n ** 2 + shot * np.clip(rgb, 0, None))
    enc = np.clip(rgb, 0, 1) ** (1 / GAMMA)
    out = (enc * 255 + 0.5).astype(np.uint8)
    sharpen = rng.random() < 0.4
    if sharpen:
        img = Image.fromarray(out).filter(ImageFilter.UnsharpMask(radius=1.0, percent=rng.randrange(30, 90), threshold=2))
        out = np.asarray(img)
    detail = {"module_px": round(module_px, 3), "angle": round(angle_deg, 2), "paper": round(paper_enc, 2),
              "contrast": round(contrast, 2), "cover": round(grey, 2), "read_noise": round(read_n, 4),
              "shot_noise": round(shot, 5), "sharpen": sharpen}
    detail.update(light_detail)
    return out, detail, to_pixel


def make_world_photo(rng, kind, sev):
    code = random_isbn(rng)
    label = Label(rng, code, isbn_line=rng.random() < 0.5)
    width = blur_width_modules(kind, sev)
    module_px = rng.uniform(MODULE_RANGE[0], min(MODULE_RANGE[1], MAX_BLUR_PX / width))
    angle = rng.uniform(-10, 10)
    psfs = psfs_for(kind, sev, module_px, math.radians(angle), rng)
    rgb, detail, _ = render(rng, label, module_px, angle, psfs)
    detail["blur_px"] = round(width * module_px, 2)
    return rgb, code, detail


# --------------------------------------------------------------------------
# files


def up_to_date(out, params):
    try:
        with open(os.path.join(out, "stamp.json")) as f:
            return json.load(f) == params and os.path.exists(os.path.join(out, "truth.tsv"))
    except (OSError, ValueError):
        return False


def start_dir(out):
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "images"))


def finish_dir(out, header, lines, params):
    with open(os.path.join(out, "truth.tsv"), "w") as f:
        f.write("\t".join(header) + "\n")
        for line in lines:
            f.write("\t".join(str(c) for c in line) + "\n")
    with open(os.path.join(out, "stamp.json"), "w") as f:
        json.dump(params, f, sort_keys=True)


def save_jpeg(rgb, path, quality):
    Image.fromarray(rgb).save(path, "JPEG", quality=quality, subsampling=2)


def world_image(job):
    out, part, seed, kind, sev, i = job
    cat = category_name(kind, sev)
    rng = random.Random("world-%d-%s-%d" % (seed, cat, i))
    rgb, code, detail = make_world_photo(rng, kind, sev)
    quality = rng.randrange(60, 96)
    detail["jpeg"] = quality
    name = "images/%s_%02d.jpg" % (cat, i + 1)
    save_jpeg(rgb, os.path.join(out, name), quality)
    return [name, cat, code, kind, severity_name(kind, sev), part, " ".join("%s=%s" % kv for kv in detail.items())]


def write_part(out, part, seed, per_category, jobs):
    params = {"part": part, "seed": seed, "per_category": per_category, "size": list(SIZE),
              "sources": B.sources_digest(os.path.abspath(__file__))}
    if up_to_date(out, params):
        print("make_blur_world: %s is up to date" % out, file=sys.stderr)
        return
    start_dir(out)
    work = [(out, part, seed, kind, sev, i) for kind, severities, count in KINDS for sev in severities
            for i in range(max(1, int(round(count * per_category))))]
    with multiprocessing.Pool(jobs) as pool:
        lines = pool.map(world_image, work, chunksize=4)
    finish_dir(out, ["file", "category", "expected", "kind", "severity", "part", "detail"], lines, params)
    print("make_blur_world: wrote %d images to %s" % (len(lines), out), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="writes OUT/tune and OUT/holdout")
    ap.add_argument("--per-category", type=float, default=1.0,
                    help="scale of the images per category (1.0: 240 images per part)")
    ap.add_argument("--seed", type=int, default=19, help="seed of the tune part")
    ap.add_argument("--holdout-seed", type=int, default=23, help="seed of the held-out part")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (the images do not depend on it)")
    a = ap.parse_args()
    if a.seed == a.holdout_seed:
        ap.error("the tune and held-out parts need different seeds")
    write_part(os.path.join(a.out, "tune"), "tune", a.seed, a.per_category, a.jobs)
    write_part(os.path.join(a.out, "holdout"), "holdout", a.holdout_seed, a.per_category, a.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())

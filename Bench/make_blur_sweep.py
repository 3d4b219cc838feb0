#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the blur sweep for the accuracy benchmark (make bench-accuracy, issue 11), reproducibly.

    make_blur_sweep.py --out DIR [--per-cell 16] [--seed 13]

What a fixed-focus webcam or a far-away phone photo gives: an EAN-13 ISBN at a small module size, out of
focus. Every image is made the way a camera makes it, at 4x the final resolution first:

  1. scene: a 978/979 ISBN (random digits, valid check digit) rendered by zint with its quiet zones and
     human-readable digits at exactly 4 x module pixels per module (6, 8 or 12), black-ish ink, printed
     either on a plain light background (the label's paper is the background) or on a label pasted on a
     generated book cover (Bench/synth.py); tilted by up to +-3 degrees, and on half the images seen
     slightly at an angle (one side of the label 2-6 % shorter);
  2. defocus: the whole scene convolved with a uniform disk (anti-aliased edge) of radius
     r x module pixels of the final image (r = 0.5, 1, 1.5, 2, 2.5, 3 modules);
  3. pixels: a 4x4 area average down to 640x480, so a module is exactly 1.5, 2 or 3 pixels wide;
  4. sensor noise: gaussian, sigma 2-6 grey levels (the same sample on R, G and B, so the grey image a
     reader works on has that sigma);
  5. JPEG quality 70-95.

A cell of the sweep is a module size x a radius, category 'm<module>_r<radius>' (e.g. m2.0_r1.5), with
--per-cell images alternating between the plain and the cover background: 3 x 6 cells, 288 images by
default. Writes DIR/images/blur_m<module>_r<radius>_<background>_NN.jpg, DIR/truth.tsv (file, category,
expected, background, detail) and DIR/stamp.json (nothing is regenerated when parameters and generator
sources are unchanged). Each image has its own seed (seed, module, radius, index), so a larger --per-cell
keeps the first images.
"""

import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as B  # noqa: E402
import synth as S  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

MODULES = [1.5, 2.0, 3.0]
RADII = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
BACKGROUNDS = ["plain", "cover"]
SIZE = (640, 480)
OVERSAMPLE = 4  # the scene is made at 4x, so 1.5 px modules are 6 whole pixels before the area average
CODE_MIX = {"isbn": 85, "isbn979": 15}


def category(module, radius):
    return "m%.1f_r%.1f" % (module, radius)


def disk_kernel(radius, sub=16):
    """A normalised uniform disk of `radius` pixels; each pixel weighted by the part of it inside the disk
    (sub x sub samples per pixel), so a fractional radius is a fractional edge, not a rounded one."""
    half = int(math.ceil(radius))
    offs = (np.arange(sub) + 0.5) / sub - 0.5
    ax = np.arange(-half, half + 1, dtype=np.float64)
    # Sample positions along one axis: every pixel centre plus its sub-offsets.
    pos = (ax[:, None] + offs[None, :]).reshape(-1)
    inside = (pos[:, None] ** 2 + pos[None, :] ** 2) <= radius * radius
    n = 2 * half + 1
    k = inside.reshape(n, sub, n, sub).mean(axis=(1, 3))
    return k / k.sum()


def convolve(a, kernel):
    """2-D convolution of a float32 H x W x C array with a small centred kernel, by FFT; the image is
    extended by mirroring its edges (no dark frame at the border)."""
    h, w = a.shape[:2]
    p = kernel.shape[0] // 2
    padded = np.pad(a, ((p, p), (p, p), (0, 0)), mode="reflect")
    fh, fw = B.fast_fft_size(padded.shape[0]), B.fast_fft_size(padded.shape[1])
    kpad = np.zeros((fh, fw), dtype=np.float32)
    kpad[:kernel.shape[0], :kernel.shape[1]] = kernel
    kpad = np.roll(kpad, (-p, -p), axis=(0, 1))  # kernel centre at the origin
    kf = np.fft.rfft2(kpad)
    out = np.empty_like(a)
    for c in range(a.shape[2]):
        f = np.fft.rfft2(padded[:, :, c], s=(fh, fw))
        out[:, :, c] = np.fft.irfft2(f * kf, s=(fh, fw))[p:p + h, p:p + w]
    return out


def slight_perspective(rng):
    """A quad for a w x h label seen a little from one side: the left or right edge 2-6 % shorter."""
    k = rng.uniform(0.02, 0.06)
    left = rng.random() < 0.5

    def make(size):
        w, h = size
        if left:
            return [(0, h * k / 2), (w, 0), (w, h), (0, h * (1 - k / 2))]
        return [(0, 0), (w, h * k / 2), (w, h * (1 - k / 2)), (0, h)]
    return make


def make_one(rng, module, radius, background):
    """-> (RGB image of SIZE, jpeg quality, ean, detail)."""
    ean, _ = S.random_code(rng, CODE_MIX)
    hr_module = module * OVERSAMPLE  # 6, 8 or 12: zint renders whole pixels per module
    render = S.zint_render(ean, None, module_px=hr_module)
    W, H = SIZE[0] * OVERSAMPLE, SIZE[1] * OVERSAMPLE
    ink = S._colour(rng, 0, 45)
    if background == "plain":
        base = rng.randrange(200, 246)
        paper = tuple(max(0, min(255, base + rng.randrange(-8, 9))) for _ in range(3))
        scene = Image.new("RGB", (W, H), paper)
        margin = 0
    else:
        paper = None  # synth picks a white-ish label paper
        scene = S.cover_background(rng, W, H)
        margin = rng.uniform(1.5, 4)
    label = S.label_from_render(render, rng, ink=ink, paper=paper, margin_modules=margin, module_px=hr_module)
    angle = rng.uniform(-3, 3)
    persp = slight_perspective(rng) if rng.random() < 0.5 else None
    quad = persp(label.size) if persp else None
    rgb, mask = S.transform_label(label, angle=angle, perspective=quad)
    S.paste_somewhere(rng, scene, rgb, mask, margin=0.04)
    # Defocus at 4x: a disk of radius r modules = r * module final pixels = r * module * 4 pixels here.
    a = np.asarray(scene, dtype=np.float32)
    a = convolve(a, disk_kernel(radius * hr_module))
    # Pixels: the 4x4 area average.
    a = a.reshape(SIZE[1], OVERSAMPLE, SIZE[0], OVERSAMPLE, 3).mean(axis=(1, 3))
    sigma = rng.uniform(2, 6)
    noise = np.random.default_rng(rng.randrange(2 ** 63)).normal(0, sigma, a.shape[:2]).astype(np.float32)
    a = np.clip(a + noise[:, :, None] + 0.5, 0, 255).astype(np.uint8)
    quality = rng.randrange(70, 96)
    detail = "module=%g radius=%g modules (%.2f px) background=%s angle=%.1f perspective=%s noise=%.1f quality=%d" % (
        module, radius, radius * module, background, angle, "yes" if quad else "no", sigma, quality)
    return Image.fromarray(a, "RGB"), quality, ean, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-cell", type=int, default=16,
                    help="images per module size x radius, alternating plain and cover background (default 16)")
    ap.add_argument("--seed", type=int, default=13)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    # Lists, not tuples: the stamp is compared with its JSON.
    params = {"seed": a.seed, "per_cell": a.per_cell, "modules": MODULES, "radii": RADII, "size": list(SIZE),
              "sources": S.sources_digest(__file__, os.path.join(here, "synth.py"))}
    if S.cached(a.out, params):
        print("make_blur_sweep: %s is up to date" % a.out, file=sys.stderr)
        return 0
    S.fresh_dir(a.out)
    os.makedirs(os.path.join(a.out, "images"))
    lines = ["file\tcategory\texpected\tbackground\tdetail"]
    for module in MODULES:
        for radius in RADII:
            for i in range(a.per_cell):
                background = BACKGROUNDS[i % 2]
                rng = random.Random("blur-%d-%g-%g-%d" % (a.seed, module, radius, i))
                img, quality, ean, detail = make_one(rng, module, radius, background)
                name = "images/blur_%s_%s_%02d.jpg" % (category(module, radius), background, i + 1)
                S.save_photo(img, os.path.join(a.out, name), "jpg", quality)
                lines.append("\t".join([name, category(module, radius), ean, background, detail]))
            print("make_blur_sweep: %s: %d images" % (category(module, radius), a.per_cell), file=sys.stderr)
    with open(os.path.join(a.out, "truth.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    S.write_stamp(a.out, params)
    print("make_blur_sweep: wrote %d images to %s" % (len(lines) - 1, a.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

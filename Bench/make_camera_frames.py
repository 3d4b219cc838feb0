# SPDX-License-Identifier: Apache-2.0
"""Realistic camera frames for `make bench-camera` (issue 10): a book's back cover filling the
frame, text blocks above, below and through the band, the EAN-13 lying across the band (or no
barcode in the band), slight blur and sensor noise. Seeded; 8-bit PGM, the frame's size, which
the fake V4L2 device (Tests/FakeV4L2) serves as they are (YUYV, or MJPG at quality 85).

Each set has 4 frames that differ only in their noise, as many as isbnscan's capture buffers:
the fake rewrites a buffer only when its picture changes, so once each buffer holds its frame
nothing is copied per frame and the time measured is isbnscan's.

Usage: make_camera_frames.py --out DIR [--seed N]
  writes DIR/<W>x<H>-book-<i>.pgm and DIR/<W>x<H>-cover-<i>.pgm for 1280x720 and 1920x1080.
"""

import argparse
import os
import random

import numpy

from PIL import Image, ImageDraw, ImageFilter

import synth

SIZES = [(1280, 720), (1920, 1080)]
BAND = (0.05, 0.40, 0.90, 0.15)  # the default region: x, y, w, h (fractions)
FRAMES = 4
ISBN = "9780345391803"


def text_lines(rng, draw, x0, y0, x1, y1, line_h, ink):
    """Lines of 'words' (small blocks) filling a box, like the blurb of a back cover."""
    y = y0
    while y + line_h < y1:
        x = x0
        while x < x1:
            word = rng.randrange(line_h, line_h * 6)
            draw.rectangle([x, y, min(x + word, x1), y + line_h], fill=ink)
            x += word + line_h
        y += int(line_h * 2.6)


def cover(rng, w, h, with_book):
    img = synth.cover_background(rng, w, h).convert("L")
    # Make it a light cover with dark text (most back covers), then text around and in the band.
    img = img.point(lambda v: 140 + v * 110 // 255)
    draw = ImageDraw.Draw(img)
    bx, by, bw, bh = (int(BAND[0] * w), int(BAND[1] * h), int(BAND[2] * w), int(BAND[3] * h))
    line_h = max(5, h // 90)
    text_lines(rng, draw, bx, int(0.12 * h), bx + bw, by - 4, line_h, 30)           # blurb above the band
    text_lines(rng, draw, bx, by + bh + 4, bx + bw, int(0.92 * h), line_h, 30)      # and below it
    if with_book:
        # The barcode in the middle of the band, bars upright, 2 px/module at 720p; a price
        # line and text beside it inside the band.
        module = 2 if h <= 720 else 3
        code = synth.zint_render(ISBN, module_px=module, height=int(bh * 1.6 / module))
        code = code.rotate(1.5, expand=True, fillcolor=255, resample=Image.Resampling.BILINEAR)
        cx = bx + bw // 2 - code.width // 2
        cy = by + bh // 2 - code.height // 2
        img.paste(code, (cx, cy))
        text_lines(rng, draw, bx, by + 6, cx - 20, by + bh - 6, line_h, 40)
    else:
        text_lines(rng, draw, bx, by + 4, bx + bw, by + bh - 4, line_h, 30)          # text through the band
    return img.filter(ImageFilter.GaussianBlur(0.8))                                  # slight defocus


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    params = {"seed": args.seed, "sizes": SIZES, "frames": FRAMES,
              "digest": synth.sources_digest(__file__, synth.__file__)}
    if synth.cached(args.out, params):
        return
    synth.fresh_dir(args.out)
    for w, h in SIZES:
        for kind in ("book", "cover"):
            rng = random.Random("%d-%d-%s" % (args.seed, w, kind))
            base = cover(rng, w, h, kind == "book")
            pixels = numpy.asarray(base, dtype=numpy.float32)
            for i in range(FRAMES):
                noise = numpy.random.default_rng([args.seed, w, i]).normal(0, 6, pixels.shape)   # sensor noise, sigma 6
                noisy = numpy.clip(pixels + noise, 0, 255).round().astype(numpy.uint8)
                Image.fromarray(noisy, "L").save(os.path.join(args.out, "%dx%d-%s-%d.pgm" % (w, h, kind, i)))
    synth.write_stamp(args.out, params)


if __name__ == "__main__":
    main()

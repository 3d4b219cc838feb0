#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Blurred books held in front of a fixed-focus webcam: frame sequences for `make bench-camera`.

    make_camera_blur.py --out DIR [--sequences 10] [--seed 31] [--holdout-seed 37] [--jobs N]

What a webcam focused at a metre sees of a book held at reading distance (issue 27's "a blurred book
within 2 s by default"): the book's back cover fills the frame, its EAN-13 label lies across the band
(the default region: x 0.05-0.95, y 0.40-0.55) and the hand holding it never keeps still.

One sequence (one book, one hand) is 30 frames of 1280x720, 8-bit grey (PGM), served by the fake V4L2 device
(Tests/FakeV4L2) at 30 frames/s and looped:
  - the scene of make_blur_world.py (a 978/979 ISBN label on a cover of any grey, print contrast 0.5-1.0,
    uneven light, in linear light, the same sensor and, on some, the camera's sharpening), at 1.6-3 px per
    module, the bars turned by up to 6 degrees;
  - defocus: a uniform disk of radius 1-2 modules (the lens focused far behind the book), the same in every
    frame of a sequence;
  - the hand: the label drifts on a random walk of up to 6 px from where it started, moving 0.5-3 px a
    frame, and turns by up to 1 degree around its angle; on a third of the frames the exposure also catches
    a shake across the bars (motion blur of 0.3-0.7 module);
  - per frame: new sensor noise (sigma 1.5-4 grey levels) and auto-exposure wobble (gain 0.95-1.05).
Only a strip of the frame around the band is rendered; the rest is the cover's mean grey (the region of
interest never sees it).

DIR/tune (--seed) is the part one may look at while changing the decoder, DIR/holdout (--holdout-seed)
is only measured. Each part has seq_NN/frame_NN.pgm, truth.tsv (sequence, expected, detail) and stamp.json:
a part is not regenerated when its parameters and the generators' sources are unchanged.
"""

import argparse
import math
import multiprocessing
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as B  # noqa: E402
import make_blur_world as W  # noqa: E402

import numpy as np

FRAME = (1280, 720)
BAND = (0.05, 0.40, 0.90, 0.15)
STRIP = (0.36, 0.60)  # rendered rows, fractions of the height: the band and a margin
FRAMES = 30
MODULE_RANGE = (1.6, 3.0)
RADIUS_RANGE = (1.0, 2.0)


def sequence_plan(seed, index):
    rng = random.Random("camera-blur-%d-%d" % (seed, index))
    code = W.random_isbn(rng)
    plan = {
        "code": code,
        "isbn_line": rng.random() < 0.5,
        "module_px": rng.uniform(*MODULE_RANGE),
        "radius": rng.uniform(*RADIUS_RANGE),
        "angle": rng.uniform(-6, 6),
        "noise": rng.uniform(1.5, 4.0),
        "scene_seed": rng.getrandbits(32),
        "x": rng.uniform(-0.2, 0.2) * BAND[2] * FRAME[0],  # label centre from the band's centre
        "walk_seed": rng.getrandbits(32),
    }
    return plan


def hand(plan):
    """Per-frame offsets (px) and turns (degrees) of the label: a bounded random walk."""
    rng = random.Random(plan["walk_seed"])
    x = y = 0.0
    poses = []
    for _ in range(FRAMES):
        step = rng.uniform(0.5, 3.0)
        a = rng.uniform(0, 2 * math.pi)
        x = max(-6.0, min(6.0, x + step * math.cos(a)))
        y = max(-6.0, min(6.0, y + step * math.sin(a)))
        poses.append((x, y, rng.uniform(-1, 1), rng.random() < 1 / 3, rng.uniform(0.3, 0.7), rng.random()))
    return poses


def frame_image(job):
    out, seed, index, f = job
    plan = sequence_plan(seed, index)
    dx, dy, turn, shaken, shake, frame_seed = hand(plan)[f]
    m = plan["module_px"]
    angle = plan["angle"] + turn
    # Every frame draws the scene from the same seed: the same label, cover, light and sensor.
    rng = random.Random(plan["scene_seed"])
    label = W.Label(rng, plan["code"], isbn_line=plan["isbn_line"])
    psfs = [W.disk_psf(plan["radius"] * m * W.BLUR_SUPER)]
    if shaken:
        psfs.append(W.motion_psf(shake * m * W.BLUR_SUPER, math.radians(angle), random.Random(frame_seed)))
    w, h = FRAME
    top, bottom = int(STRIP[0] * h), int(STRIP[1] * h)
    band_cx, band_cy = (BAND[0] + BAND[2] / 2) * w, (BAND[1] + BAND[3] / 2) * h
    uc = (label.box[0] + label.box[2]) / 2
    vc = (label.box[1] + label.box[3]) / 2
    # The bars' centre (u 47.5, v bar_h / 2) on the band's centre line, moved by the hand.
    du, dv = (47.5 - uc) * m, (label.bar_h / 2 - vc) * m
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    cx = band_cx + plan["x"] + dx - (ca * du - sa * dv)
    cy = band_cy + dy - (sa * du + ca * dv) - top
    rgb, detail, _ = W.render(rng, label, m, angle, psfs, size=(w, bottom - top), centre=(cx, cy), noise=(0.0, 0.0))
    grey = rgb.astype(np.float32) @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    nrng = np.random.default_rng(int(frame_seed * 2**32))
    grey = grey * nrng.uniform(0.95, 1.05) + nrng.standard_normal(grey.shape).astype(np.float32) * plan["noise"]
    frame = np.full((h, w), float(np.mean(grey[[0, -1], :])), dtype=np.float32)
    frame[top:bottom] = grey
    pixels = np.clip(frame + 0.5, 0, 255).astype(np.uint8)
    path = os.path.join(out, "seq_%02d" % (index + 1), "frame_%02d.pgm" % (f + 1))
    with open(path, "wb") as fh:
        fh.write(b"P5\n%d %d\n255\n" % (w, h))
        fh.write(pixels.tobytes())
    if f:
        return None
    keep = ("paper", "contrast", "cover", "sharpen", "gradient", "vignette")
    detail = {k: v for k, v in detail.items() if k in keep}
    detail.update({"module_px": round(m, 2), "radius_modules": round(plan["radius"], 2),
                   "angle": round(plan["angle"], 1), "noise": round(plan["noise"], 1)})
    return ["seq_%02d" % (index + 1), plan["code"], " ".join("%s=%s" % kv for kv in detail.items())]


def write_part(out, seed, sequences, jobs):
    params = {"seed": seed, "sequences": sequences, "frames": FRAMES, "size": list(FRAME),
              "sources": B.sources_digest(os.path.abspath(__file__), os.path.abspath(W.__file__))}
    if W.up_to_date(out, params):
        print("make_camera_blur: %s is up to date" % out, file=sys.stderr)
        return
    W.start_dir(out)
    for i in range(sequences):
        os.makedirs(os.path.join(out, "seq_%02d" % (i + 1)))
    work = [(out, seed, i, f) for i in range(sequences) for f in range(FRAMES)]
    with multiprocessing.Pool(jobs) as pool:
        lines = [line for line in pool.map(frame_image, work, chunksize=5) if line]
    W.finish_dir(out, ["sequence", "expected", "detail"], lines, params)
    print("make_camera_blur: wrote %d sequences of %d frames to %s" % (len(lines), FRAMES, out), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="writes OUT/tune and OUT/holdout")
    ap.add_argument("--sequences", type=int, default=10, help="sequences per part")
    ap.add_argument("--seed", type=int, default=31, help="seed of the tune part")
    ap.add_argument("--holdout-seed", type=int, default=37, help="seed of the held-out part")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (the frames do not depend on it)")
    a = ap.parse_args()
    if a.seed == a.holdout_seed:
        ap.error("the tune and held-out parts need different seeds")
    write_part(os.path.join(a.out, "tune"), a.seed, a.sequences, a.jobs)
    write_part(os.path.join(a.out, "holdout"), a.holdout_seed, a.sequences, a.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())

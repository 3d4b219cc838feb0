#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write TestImages/witness/: barcodes whose bars read two ways, and the digits printed under them.

    python3 TestImages/make_witness.py

The bars of an EAN-13 whose upper half is printed as one code and lower half as another that
differs from it only where bar widths tell digits apart (1 and 7 at two places, so both have a
valid check digit): every line across the upper half reads the first, every line across the
lower half the second, and the re-measurement of each confirms it. The bars alone cannot decide
between them (the place is refused as ambiguous); the human-readable digits printed under the
symbol (GS1 General Specifications §5.2.3), read as one more witness, can. Each file has the
same bars and other printed digits, and is smoothed once (3x3 box) as a slightly soft print.

Uses generate.py's helpers (its PNG writer) and zint for the bar patterns and the digits, read
from zint's 1-bit BMP (make_jp_book_code.py's reader), so that ImageMagick is not needed. No
randomness: re-running gives byte-identical files.
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as g  # noqa: E402
import make_jp_book_code as jp  # noqa: E402  (sets g.zint to its BMP reader)

TRUE = g.ean13("978071671772")    # 9780716717720: the book; 1 at index 8, 7 at index 10
RIVAL = g.ean13("978071677712")   # 9780716777120: the same with those two swapped
OTHER = g.ean13("978071671774")   # 9780716717744: a valid code the bars do not show at all
assert (TRUE, RIVAL, OTHER) == ("9780716717720", "9780716777120", "9780716717744")
assert all(a == b or {a, b} == {"1", "7"} for a, b in zip(TRUE, RIVAL))

SCALE = 2           # zint's scale 2: 4 pixels per module
BAR_ROWS = 200      # zint draws the bars in rows 0..199 at this scale, the digits below


def spliced(upper, lower, printed):
    """zint's symbol with the bars' upper half from `upper`, the lower half from `lower` and the
    rows of digits (and the guards reaching among them) from `printed`; white border, box-smoothed."""
    a, b, c = (g.zint(code, "EANX", SCALE) for code in (upper, lower, printed))
    assert a.w == b.w == c.w and a.h == b.h == c.h
    img = g.Img(a.w, a.h)
    for y in range(a.h):
        source = a if y < BAR_ROWS // 2 else b if y < BAR_ROWS else c
        img.px[y] = list(source.px[y])
    return smoothed(g.pad(img, 40))


def smoothed(img):
    """One 3x3 box blur (edges clamped)."""
    out = g.Img(img.w, img.h)
    for y in range(img.h):
        for x in range(img.w):
            total = 0
            for dy in (-1, 0, 1):
                row = img.px[min(max(y + dy, 0), img.h - 1)]
                for dx in (-1, 0, 1):
                    total += row[min(max(x + dx, 0), img.w - 1)]
            out.px[y][x] = (total + 4) // 9
    return out


def main():
    g.TMP = tempfile.mkdtemp(prefix="isbnscan-witness-")
    try:
        folder = os.path.join(g.HERE, "witness")
        shutil.rmtree(folder, ignore_errors=True)
        files = [
            ("two-ways-printed-true.png", spliced(TRUE, RIVAL, TRUE), TRUE),
            ("two-ways-printed-rival.png", spliced(TRUE, RIVAL, RIVAL), RIVAL),
            ("two-ways-printed-other.png", spliced(TRUE, RIVAL, OTHER), None),
            ("plain-printed-other.png", spliced(TRUE, TRUE, OTHER), TRUE),
        ]
        for name, img, expected in files:
            g.write_bytes(g.out("witness", name), g.png_gray8(img))
            if expected:
                g.write_txt(g.out("witness", name[:-4]), expected)
    finally:
        shutil.rmtree(g.TMP, ignore_errors=True)


if __name__ == "__main__":
    main()

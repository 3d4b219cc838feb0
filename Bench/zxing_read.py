#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Read EAN barcodes in image files with zxing-cpp's Python reader; the benchmarks run it as a child process.

    zxing_read.py [--addons] [--] FILE...

Prints one JSON line per file: {"file": ..., "codes": [{"format": "EAN13", "text": "..."}], "error": null}.
EAN-13 and EAN-8 only; with --addons, EAN-2/EAN-5 add-ons are read too (zxing-cpp then appends their
digits to the EAN-13 text).  Each file is opened with Pillow (EXIF orientation applied) and passed to
zxingcpp.read_barcodes with its defaults otherwise (try_rotate, try_downscale, try_invert all on).
"""

import json
import sys
import warnings

import zxingcpp
from PIL import Image, ImageOps


def main(argv):
    addons = False
    if argv and argv[0] == "--addons":
        addons, argv = True, argv[1:]
    if argv and argv[0] == "--":
        argv = argv[1:]
    F = zxingcpp.BarcodeFormat
    kwargs = {}
    if addons:
        kwargs["ean_add_on_symbol"] = zxingcpp.EanAddOnSymbol.Read
    # zxing-cpp 3.x wants a list of formats (the | operator is deprecated); 2.x wants F.EAN13 | F.EAN8.
    try:
        formats = [F.EAN13, F.EAN8]
        zxingcpp.read_barcodes(Image.new("L", (8, 8), 255), formats=formats)
    except TypeError:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            formats = F.EAN13 | F.EAN8
    out = sys.stdout
    for path in argv:
        rec = {"file": path, "codes": [], "error": None}
        try:
            with Image.open(path) as im:
                im = ImageOps.exif_transpose(im)
                if im.mode not in ("L", "RGB"):
                    im = im.convert("RGB")
                for b in zxingcpp.read_barcodes(im, formats=formats, **kwargs):
                    rec["codes"].append({"format": b.format.name, "text": b.text})
        except Exception as e:  # a broken file must not stop the others
            rec["error"] = "%s: %s" % (type(e).__name__, e)
        out.write(json.dumps(rec) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

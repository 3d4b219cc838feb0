# SPDX-License-Identifier: Apache-2.0
"""Write TestImages/jpbook/: Japanese books' two-row barcodes (ISBN above, 書籍JANコード second row below).

    python3 TestImages/make_jp_book_code.py

Uses generate.py's helpers (the script's own PNG writer, cjpeg for the photo) and zint for the bar
patterns, read from zint's 1-bit BMP here so that ImageMagick is not needed: zint and cjpeg
(libjpeg-turbo-progs). Fixed seed: re-running gives byte-identical files.
"""
import os
import random
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as g  # noqa: E402

ISBN = g.ean13("978404893065")          # 9784048930659
SECOND = g.ean13("192305503200")        # C-code 3055, 3200 yen before tax
ALONE = g.ean13("192009501500")         # the example: C-code 0095, 1500 yen
assert SECOND == "1923055032002" and ALONE == "1920095015002"
ADDON_ISBN, ADDON = g.ean13("978055329335"), "51299"   # 9780553293357, USD 12.99
JAN = g.ean13("490123456789")           # 4901234567894, a product code: refused
assert ADDON_ISBN == "9780553293357" and JAN == "4901234567894"


def zint_bmp(data, symb="ISBNX", scale=2, extra=()):
    """zint's rendering as an 8-bit gray Img (0/255), read from its 1-bit BMP (rows bottom-up, 4-byte aligned)."""
    path = os.path.join(g.TMP, "zint.bmp")
    g.run(["zint", "-b", symb, "--scale=%d" % scale, "-d", data, "-o", path] + list(extra))
    d = open(path, "rb").read()
    offset, = struct.unpack("<I", d[10:14])
    w, h, _, bpp = struct.unpack("<iiHH", d[18:30])
    assert bpp == 1
    palette = [d[54 + 4 * i + 1] for i in range(2)]  # the green of each entry: 0 or 255
    stride = ((w + 31) // 32) * 4
    img = g.Img(w, abs(h))
    for row in range(abs(h)):
        y = abs(h) - 1 - row if h > 0 else row
        line = d[offset + row * stride: offset + (row + 1) * stride]
        img.px[y] = [palette[(line[x >> 3] >> (7 - (x & 7))) & 1] for x in range(w)]
    return img


g.zint = zint_bmp


def two_rows(top, bottom, scale=2):
    """The ISBN symbol above the second row, left-aligned as printed on a Japanese cover."""
    a, b = g.barcode_with_text(top, "ISBNX", scale), g.barcode_with_text(bottom, "EANX", scale)
    img = g.Img(max(a.w, b.w), a.h + b.h - 10 * scale)
    img.paste_gray(a, 0, 0)
    img.paste_gray(b, 0, a.h - 10 * scale)
    return img


def shelf():
    """One picture of three books' codes: the two rows of a Japanese book on the left, an ISBN with
    its 5-digit add-on at the top right, a product code (JAN, refused) at the bottom right."""
    both = two_rows(ISBN, SECOND)
    addon = g.barcode_with_text(ADDON_ISBN + "+" + ADDON)
    jan = g.barcode_with_text(JAN, "EANX")
    right = max(addon.w, jan.w)
    img = g.Img(both.w + 80 + right, max(both.h, addon.h + 60 + jan.h))
    img.paste_gray(both, 0, 0)
    img.paste_gray(addon, both.w + 80, 0)
    img.paste_gray(jan, both.w + 80, addon.h + 60)
    return img


def photo(img, seed):
    """The picture on a noisy warm-grey page, as a phone photo of a cover looks (JPEG q80)."""
    rnd = random.Random(seed)
    page = g.Img(img.w + 160, img.h + 120, 1, 200)
    for y in range(page.h):
        row = page.px[y]
        for x in range(page.w):
            row[x] = max(0, min(255, 190 + rnd.randint(-6, 6)))
    for y in range(img.h):
        for x in range(img.w):
            v = img.px[y][x]
            page.px[60 + y][80 + x] = max(0, min(255, (v * 225 // 255) + 20 + rnd.randint(-6, 6)))
    return page


def main():
    g.TMP = tempfile.mkdtemp(prefix="isbnscan-jpbook-")
    try:
        folder = os.path.join(g.HERE, "jpbook")
        shutil.rmtree(folder, ignore_errors=True)
        both = two_rows(ISBN, SECOND)
        g.write_bytes(g.out("jpbook", "two-rows.png"), g.png_gray8(both))
        g.write_txt(g.out("jpbook", "two-rows"), ISBN)
        g.cjpeg(photo(both, 25), g.out("jpbook", "two-rows-photo.jpg"), "-quality", "80")
        g.write_txt(g.out("jpbook", "two-rows-photo"), ISBN)
        alone = g.barcode_with_text(ALONE, "EANX")
        g.write_bytes(g.out("jpbook", "second-row-alone.png"), g.png_gray8(alone))
        g.write_bytes(g.out("jpbook", "shelf.png"), g.png_gray8(shelf()))
        g.write_txt(g.out("jpbook", "shelf"), ISBN + "\n" + ADDON_ISBN + ADDON)
    finally:
        shutil.rmtree(g.TMP, ignore_errors=True)


if __name__ == "__main__":
    main()

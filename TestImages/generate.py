#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regenerate the isbnscan test fixtures in this folder.

    python3 TestImages/generate.py            # (re)write every fixture, then verify
    python3 TestImages/generate.py --verify   # only run the zbarimg / ImageMagick checks

Needs: zint, ImageMagick 6 (/usr/bin/convert, /usr/bin/identify), exiftool,
libjpeg-turbo-progs (cjpeg), gcc + libjpeg62-turbo-dev (for the YCCK writer),
zbar-tools (zbarimg, only for verification).  Python stdlib only.

Design notes
* zint is only used to produce the bar patterns; every PNG / PGM / PPM is
  written by this script (exact control over colour type, bit depth, filters,
  no timestamps), JPEGs are written by cjpeg (or ImageMagick for CMYK, a tiny
  libjpeg program for YCCK).  All randomness uses fixed seeds, so re-running
  the script produces byte-identical files.
* PNG rows use filter type (row % 5), so every PNG exercises all five filters.
* /usr/local/bin/convert is a fake stand-in on the build box, so ImageMagick is
  always called by absolute path.
"""

import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CONVERT = "/usr/bin/convert"
IDENTIFY = "/usr/bin/identify"
TMP = None  # set in main()

# --------------------------------------------------------------------------
# small helpers


def run(cmd, **kw):
    """Run a command, fail loudly. Returns stdout bytes."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode != 0:
        sys.exit("command failed: %s\n%s" % (" ".join(cmd), r.stderr.decode(errors="replace")))
    return r.stdout


def out(*parts):
    p = os.path.join(HERE, *parts)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def write_txt(path_no_ext, text):
    """Expected result: exact text, no trailing newline."""
    write_bytes(path_no_ext + ".txt", text.encode("ascii"))


def ean_check(d12):
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d12))
    return str((10 - s % 10) % 10)


def ean13(d12):
    assert len(d12) == 12 and d12.isdigit()
    return d12 + ean_check(d12)


def ean8(d7):
    s = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(d7))
    return d7 + str((10 - s % 10) % 10)


# One distinct ISBN per fixture (check digit always recomputed here).
ISBN = {k: ean13(v[:12]) for k, v in {
    "png-gray8": "9780306406157",
    "png-gray1": "9780131103627",
    "png-gray2": "9781491949863",
    "png-gray4": "9780201633610",
    "png-gray16": "9780596517748",
    "png-gray-alpha": "9780132350884",
    "png-rgb8": "9780201616224",
    "png-rgb16": "9780135957059",
    "png-rgba-transparent": "9780262510875",
    "png-palette": "9780134685991",
    "png-palette-trns": "9781593279288",
    "png-interlaced": "9780596007126",
    "jpeg-gray": "9780321125217",
    "jpeg-rgb": "9780201485677",
    "jpeg-progressive": "9780131177055",
    "jpeg-cmyk": "9780735619678",
    "jpeg-ycck": "9780201835953",
    "pgm-p5": "9780321573513",
    "pgm-p5-16bit": "9781449355739",
    "ppm-p6": "9780596009205",
    "fake-extension": "9780262035613",
    "addon-ean5": "9780553293357",
    "addon-ean2": "9780439708180",
    "photo-like": "9780140449136",
    "jpeg-big-inverted": "9780262510875",
    "exif": "9780262033848",
    "roi-inside": "9780345391803",
    "roi-outside": "9780060850524",
    "roi-two-A": "9780743273565",
    "roi-two-B": "9780451524935",
    "corrupt": "9780544003415",
}.items()}
for _k, _v in ISBN.items():
    assert ean13(_v[:12]) == _v

# --------------------------------------------------------------------------
# a minimal gray/colour raster type: (w, h, channels, list-of-rows as lists)


class Img:
    def __init__(self, w, h, ch=1, fill=255):
        self.w, self.h, self.ch = w, h, ch
        f = fill if isinstance(fill, (tuple, list)) else (fill,) * ch
        self.px = [list(f) * w for _ in range(h)]

    def get(self, x, y):
        i = x * self.ch
        return tuple(self.px[y][i:i + self.ch])

    def set(self, x, y, v):
        i = x * self.ch
        self.px[y][i:i + self.ch] = v

    def paste_gray(self, g, x0, y0, dark=None, light=None):
        """Paste gray image g at (x0,y0); optionally map black->dark, white->light colours."""
        for y in range(g.h):
            row = g.px[y]
            dst = self.px[y0 + y]
            for x in range(g.w):
                v = row[x]
                if self.ch == 1 and dark is None:
                    dst[x0 + x] = v
                else:
                    if dark is None:
                        c = (v,) * self.ch
                    else:
                        t = v / 255.0
                        c = tuple(int(round(d + (l - d) * t)) for d, l in zip(dark, light))
                    i = (x0 + x) * self.ch
                    dst[i:i + self.ch] = c

    def fill_rect(self, x0, y0, x1, y1, v):
        v = v if isinstance(v, (tuple, list)) else (v,) * self.ch
        for y in range(y0, y1):
            for x in range(x0, x1):
                self.set(x, y, v)


def load_pgm(data):
    """Parse a binary 8-bit P5 as written by ImageMagick."""
    toks, pos = [], 2
    assert data[:2] == b"P5"
    while len(toks) < 3:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        toks.append(int(data[start:pos]))
    pos += 1
    w, h, maxv = toks
    assert maxv == 255
    img = Img(w, h, 1)
    for y in range(h):
        img.px[y] = list(data[pos + y * w: pos + (y + 1) * w])
    return img


def to_gray_img(path):
    return load_pgm(run([CONVERT, path, "-colorspace", "Gray", "-depth", "8", "pgm:-"]))


def zint(data, symb="ISBNX", scale=2, extra=()):
    """Render with zint and return an 8-bit gray Img (pure 0/255)."""
    p = os.path.join(TMP, "zint.png")
    run(["zint", "-b", symb, "--scale=%d" % scale, "-d", data, "-o", p] + list(extra))
    return to_gray_img(p)


def bbox_dark(img):
    ys = [y for y in range(img.h) if min(img.px[y]) < 128]
    xs = [x for x in range(img.w) if min(img.px[y][x] for y in ys) < 128]
    return xs[0], ys[0], xs[-1] + 1, ys[-1] + 1


def crop(img, x0, y0, x1, y1):
    r = Img(x1 - x0, y1 - y0, img.ch)
    for y in range(y0, y1):
        r.px[y - y0] = img.px[y][x0 * img.ch:x1 * img.ch]
    return r


def pad(img, border, fill=255):
    r = Img(img.w + 2 * border, img.h + 2 * border, img.ch, fill)
    r.paste_gray(img, border, border)
    return r


def barcode_with_text(data, symb="ISBNX", scale=2, border=None):
    """zint symbol with human-readable text, trimmed and given a white border."""
    g = zint(data, symb, scale)
    if border is None:
        border = 20 * scale          # zint scale s = 2*s px per module -> 10-module quiet zone
    return pad(crop(g, *bbox_dark(g)), border)


def bars_only(data, height, symb="EANX", scale=2):
    """Just the bars (no text, no guard descent) of exactly `height` px, no quiet zone.
    Built by replicating one scan line of the zint rendering."""
    g = zint(data, symb, scale, ["--notext"])
    x0, y0, x1, y1 = bbox_dark(g)
    line = g.px[y0 + 5][x0:x1]
    r = Img(x1 - x0, height, 1)
    r.px = [list(line) for _ in range(height)]
    return r


# --------------------------------------------------------------------------
# writers


def png_chunk(tag, data):
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def _filter_rows(rows, bpp):
    """Apply PNG filter (row index % 5) to each raw scanline."""
    outb = bytearray()
    prev = bytes(len(rows[0])) if rows else b""
    for i, raw in enumerate(rows):
        ft = i % 5
        f = bytearray(len(raw))
        for x in range(len(raw)):
            a = raw[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ft == 0:
                p = 0
            elif ft == 1:
                p = a
            elif ft == 2:
                p = b
            elif ft == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if (pa <= pb and pa <= pc) else (b if pb <= pc else c)
            f[x] = (raw[x] - p) & 0xFF
        outb.append(ft)
        outb += f
        prev = raw
    return bytes(outb)


def _pack_samples(samples, bit_depth):
    """samples: flat list of ints for one scanline -> bytes."""
    if bit_depth == 8:
        return bytes(samples)
    if bit_depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    per = 8 // bit_depth
    b = bytearray()
    for i in range(0, len(samples), per):
        v = 0
        chunk = samples[i:i + per]
        for j in range(per):
            v = (v << bit_depth) | (chunk[j] if j < len(chunk) else 0)
        b.append(v)
    return bytes(b)


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def png_bytes(w, h, color_type, bit_depth, rows, palette=None, trns=None, interlace=False, extra_chunks=()):
    """rows: list of h lists, each w*channels ints (already in the target bit depth)."""
    ch = CHANNELS[color_type]
    bpp = max(1, ch * bit_depth // 8)
    if not interlace:
        raw = [_pack_samples(r, bit_depth) for r in rows]
        data = _filter_rows(raw, bpp)
    else:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        data = b""
        for x0, y0, dx, dy in passes:
            sub = []
            for y in range(y0, h, dy):
                s = []
                for x in range(x0, w, dx):
                    s += rows[y][x * ch:(x + 1) * ch]
                if s:
                    sub.append(_pack_samples(s, bit_depth))
            if sub:
                data += _filter_rows(sub, bpp)
    out_ = b"\x89PNG\r\n\x1a\n"
    out_ += png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bit_depth, color_type, 0, 0, 1 if interlace else 0))
    for c in extra_chunks:
        out_ += c
    if palette:
        out_ += png_chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        out_ += png_chunk(b"tRNS", bytes(trns))
    out_ += png_chunk(b"IDAT", zlib.compress(data, 9))
    out_ += png_chunk(b"IEND", b"")
    return out_


def png_gray8(img):
    return png_bytes(img.w, img.h, 0, 8, img.px)


def pnm_bytes(img, maxval=255):
    magic = b"P5" if img.ch == 1 else b"P6"
    hdr = b"%s\n%d %d\n%d\n" % (magic, img.w, img.h, maxval)
    if maxval == 255:
        body = b"".join(bytes(r) for r in img.px)
    else:
        body = b"".join(struct.pack(">%dH" % len(r), *r) for r in img.px)
    return hdr + body


def cjpeg(img, dst, *opts):
    src = os.path.join(TMP, "cj.pnm")
    write_bytes(src, pnm_bytes(img))
    run(["cjpeg", "-quality", "90", "-optimize"] + list(opts) + ["-outfile", dst, src])


# --------------------------------------------------------------------------
# 1. isbn/


YCCK_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
/* usage: adobejpg in.ppm out.jpg cmyk|ycck  -- writes an Adobe CMYK (transform 0)
   or YCCK (transform 2) JPEG.
   CMYK samples are stored Adobe-inverted (value = 255 - ink), like Photoshop. */
int main(int argc, char **argv) {
  FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
  int w, h, maxv;
  if (argc < 4 || !in || !out || fscanf(in, "P6 %d %d %d", &w, &h, &maxv) != 3) return 1;
  fgetc(in);
  unsigned char *rgb = malloc((size_t)w * h * 3), *row = malloc((size_t)w * 4);
  if (fread(rgb, 3, (size_t)w * h, in) != (size_t)w * h) return 1;
  struct jpeg_compress_struct c; struct jpeg_error_mgr e;
  c.err = jpeg_std_error(&e); jpeg_create_compress(&c); jpeg_stdio_dest(&c, out);
  c.image_width = w; c.image_height = h; c.input_components = 4; c.in_color_space = JCS_CMYK;
  jpeg_set_defaults(&c); jpeg_set_colorspace(&c, argv[3][0] == 'y' ? JCS_YCCK : JCS_CMYK);
  c.write_Adobe_marker = TRUE;
  jpeg_set_quality(&c, 90, TRUE);
  jpeg_start_compress(&c, TRUE);
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      int r = rgb[(y*w+x)*3], g = rgb[(y*w+x)*3+1], b = rgb[(y*w+x)*3+2];
      int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
      int k = 255 - mx, C = 0, M = 0, Y = 0;
      if (mx > 0) { C = (mx - r) * 255 / mx; M = (mx - g) * 255 / mx; Y = (mx - b) * 255 / mx; }
      row[x*4] = 255 - C; row[x*4+1] = 255 - M; row[x*4+2] = 255 - Y; row[x*4+3] = 255 - k;
    }
    JSAMPROW rp = row; jpeg_write_scanlines(&c, &rp, 1);
  }
  jpeg_finish_compress(&c); jpeg_destroy_compress(&c); fclose(out); return 0;
}
"""


def gen_isbn():
    d = "isbn"
    p = lambda name: out(d, name)

    def std(key, scale=2):
        # scale 2 = 4 px/module (~460 px wide); scale 1 = 2 px/module (~230 px wide),
        # used for the bulky uncompressed / 4-channel formats to keep the folder small
        return barcode_with_text(ISBN[key], scale=scale)

    # --- PNG gray 8
    g = std("png-gray8")
    write_bytes(p("png-gray8.png"), png_gray8(g))
    write_txt(p("png-gray8"), ISBN["png-gray8"])

    # --- PNG gray 1/2/4 bit
    for key, bd, dark, light in (("png-gray1", 1, 0, 1), ("png-gray2", 2, 0, 3), ("png-gray4", 4, 1, 14)):
        g = std(key)
        rows = [[dark if v < 128 else light for v in r] for r in g.px]
        write_bytes(p(key + ".png"), png_bytes(g.w, g.h, 0, bd, rows))
        write_txt(p(key), ISBN[key])

    # --- PNG gray 16: high byte carries the image, low byte is the INVERSE (trap for
    #     decoders that keep the low byte of each 16-bit sample)
    g = std("png-gray16")
    rows = [[0x10FF if v < 128 else 0xEE00 for v in r] for r in g.px]
    write_bytes(p("png-gray16.png"), png_bytes(g.w, g.h, 0, 16, rows))
    write_txt(p("png-gray16"), ISBN["png-gray16"])

    # --- PNG gray + alpha (opaque)
    g = std("png-gray-alpha")
    rows = [sum(([v, 255] for v in r), []) for r in g.px]
    write_bytes(p("png-gray-alpha.png"), png_bytes(g.w, g.h, 4, 8, rows))
    write_txt(p("png-gray-alpha"), ISBN["png-gray-alpha"])

    # --- PNG RGB 8: dark green bars on pale yellow
    g = std("png-rgb8")
    c = Img(g.w, g.h, 3)
    c.paste_gray(g, 0, 0, dark=(10, 70, 30), light=(250, 245, 200))
    write_bytes(p("png-rgb8.png"), png_bytes(c.w, c.h, 2, 8, c.px))
    write_txt(p("png-rgb8"), ISBN["png-rgb8"])

    # --- PNG RGB 16 (48-bit): same low-byte trap as gray16, slight colour tint
    g = std("png-rgb16")
    rows = [sum(([0x18FF, 0x10FF, 0x30FF] if v < 128 else [0xF000, 0xEC00, 0xE000] for v in r), []) for r in g.px]
    write_bytes(p("png-rgb16.png"), png_bytes(g.w, g.h, 2, 16, rows))
    write_txt(p("png-rgb16"), ISBN["png-rgb16"])

    # --- PNG RGBA: RGB black everywhere, barcode only in alpha
    g = std("png-rgba-transparent")
    rows = [sum(([0, 0, 0, 255] if v < 128 else [0, 0, 0, 0] for v in r), []) for r in g.px]
    write_bytes(p("png-rgba-transparent.png"), png_bytes(g.w, g.h, 6, 8, rows))
    write_txt(p("png-rgba-transparent"), ISBN["png-rgba-transparent"])

    # --- PNG palette: navy bars on cream, red + green decorative frame.
    #     Index order deliberately not sorted by luminance.
    g = std("png-palette")
    pal = [(200, 30, 30), (20, 30, 90), (30, 160, 60), (250, 240, 215)]  # red, navy, green, cream
    rows = [[1 if v < 128 else 3 for v in r] for r in g.px]
    for y in range(g.h):
        for x in range(g.w):
            if x < 4 or x >= g.w - 4 or y < 4 or y >= g.h - 4:
                rows[y][x] = 0 if ((x + y) // 16) % 2 == 0 else 2
    write_bytes(p("png-palette.png"), png_bytes(g.w, g.h, 3, 8, rows, palette=pal))
    write_txt(p("png-palette"), ISBN["png-palette"])

    # --- PNG palette + tRNS: background entry is fully transparent BLACK,
    #     bars are opaque near-black; composited over white it reads correctly.
    g = std("png-palette-trns")
    pal = [(0, 0, 0), (15, 15, 40), (120, 120, 120)]
    trns = [0, 255, 128]
    rows = [[1 if v < 128 else 0 for v in r] for r in g.px]
    write_bytes(p("png-palette-trns.png"), png_bytes(g.w, g.h, 3, 8, rows, palette=pal, trns=trns))
    write_txt(p("png-palette-trns"), ISBN["png-palette-trns"])

    # --- PNG Adam7 interlaced RGB: brown bars on white
    g = std("png-interlaced")
    c = Img(g.w, g.h, 3)
    c.paste_gray(g, 0, 0, dark=(60, 30, 10), light=(255, 255, 255))
    write_bytes(p("png-interlaced.png"), png_bytes(c.w, c.h, 2, 8, c.px, interlace=True))
    write_txt(p("png-interlaced"), ISBN["png-interlaced"])

    # --- JPEG baseline grayscale
    g = std("jpeg-gray")
    cjpeg(g, p("jpeg-gray.jpg"))
    write_txt(p("jpeg-gray"), ISBN["jpeg-gray"])

    # --- JPEG baseline YCbCr colour: dark blue on cream
    g = std("jpeg-rgb")
    c = Img(g.w, g.h, 3)
    c.paste_gray(g, 0, 0, dark=(20, 30, 110), light=(250, 243, 220))
    cjpeg(c, p("jpeg-rgb.jpg"))
    write_txt(p("jpeg-rgb"), ISBN["jpeg-rgb"])

    # --- JPEG progressive colour: dark red on light gray
    g = std("jpeg-progressive")
    c = Img(g.w, g.h, 3)
    c.paste_gray(g, 0, 0, dark=(110, 20, 20), light=(235, 235, 235))
    cjpeg(c, p("jpeg-progressive.jpg"), "-progressive")
    write_txt(p("jpeg-progressive"), ISBN["jpeg-progressive"])

    # --- JPEG Adobe CMYK / YCCK via a tiny libjpeg program.
    #     (ImageMagick 6.9 `convert x -colorspace CMYK y.jpg` actually writes YCCK,
    #     Adobe transform=2, so it cannot be used for the plain-CMYK fixture.)
    csrc = os.path.join(TMP, "adobejpg.c")
    exe = os.path.join(TMP, "adobejpg")
    write_bytes(csrc, YCCK_C.encode())
    run(["gcc", "-O1", "-o", exe, csrc, "-ljpeg"])

    for kind, dark, light in [("cmyk", (10, 40, 60), (255, 250, 235)),
                              ("ycck", (40, 10, 60), (250, 250, 240))]:
        name = "jpeg-" + kind
        g = std(name, 1)
        c = Img(g.w, g.h, 3)
        c.paste_gray(g, 0, 0, dark=dark, light=light)
        src = os.path.join(TMP, kind + "_src.ppm")
        write_bytes(src, pnm_bytes(c))
        run([exe, src, p(name + ".jpg"), kind])
        write_txt(p(name), ISBN[name])

    # --- PNM
    g = std("pgm-p5", 1)
    write_bytes(p("pgm-p5.pgm"), pnm_bytes(g))
    write_txt(p("pgm-p5"), ISBN["pgm-p5"])

    g = std("pgm-p5-16bit", 1)
    g16 = Img(g.w, g.h, 1)
    g16.px = [[0x1234 if v < 128 else 0xF0F0 for v in r] for r in g.px]
    write_bytes(p("pgm-p5-16bit.pgm"), pnm_bytes(g16, maxval=65535))
    write_txt(p("pgm-p5-16bit"), ISBN["pgm-p5-16bit"])

    g = std("ppm-p6", 1)
    c = Img(g.w, g.h, 3)
    c.paste_gray(g, 0, 0, dark=(0, 0, 0), light=(230, 255, 240))
    write_bytes(p("ppm-p6.ppm"), pnm_bytes(c))
    write_txt(p("ppm-p6"), ISBN["ppm-p6"])

    # --- PNG bytes under a .jpg name
    g = std("fake-extension")
    write_bytes(p("fake-extension.jpg"), png_gray8(g))
    write_txt(p("fake-extension"), ISBN["fake-extension"])

    # --- add-ons
    for key, addon in (("addon-ean5", "51299"), ("addon-ean2", "12")):
        g = barcode_with_text(ISBN[key] + "+" + addon)
        write_bytes(p(key + ".png"), png_gray8(g))
        write_txt(p(key), ISBN[key] + addon)

    # --- photo-like: textured noisy background, barcode label off-centre, slight rotation-free
    rnd = random.Random(1234)
    W, H = 1000, 750
    bg = Img(W, H, 3)
    # low-frequency texture: coarse random grid, bilinearly interpolated, plus fine noise
    cell = 50
    gw, gh = W // cell + 2, H // cell + 2
    grid = [[rnd.randint(90, 170) for _ in range(gw)] for _ in range(gh)]
    for y in range(H):
        gy, fy = divmod(y, cell)
        fy /= cell
        row = bg.px[y]
        for x in range(W):
            gx, fx = divmod(x, cell)
            fx /= cell
            v = (grid[gy][gx] * (1 - fx) * (1 - fy) + grid[gy][gx + 1] * fx * (1 - fy)
                 + grid[gy + 1][gx] * (1 - fx) * fy + grid[gy + 1][gx + 1] * fx * fy)
            v += rnd.randint(-5, 5)
            r_, g_, b_ = v + 12, v + 4, v - 8  # warm wooden-table tint
            row[x * 3:x * 3 + 3] = [max(0, min(255, int(t))) for t in (r_, g_, b_)]
    label = barcode_with_text(ISBN["photo-like"], border=24)
    lx, ly = 380, 210
    # soft shadow
    for y in range(ly + 6, ly + label.h + 6):
        for x in range(lx + 6, lx + label.w + 6):
            i = x * 3
            bg.px[y][i:i + 3] = [int(t * 0.6) for t in bg.px[y][i:i + 3]]
    bg.paste_gray(label, lx, ly, dark=(25, 25, 30), light=(238, 236, 228))
    # mild sensor noise over the label too
    for y in range(ly, ly + label.h):
        row = bg.px[y]
        for x in range(lx, lx + label.w):
            n = rnd.randint(-8, 8)
            i = x * 3
            row[i:i + 3] = [max(0, min(255, t + n)) for t in row[i:i + 3]]
    src = os.path.join(TMP, "photo.ppm")
    write_bytes(src, pnm_bytes(bg))
    run(["cjpeg", "-quality", "85", "-optimize", "-outfile", p("photo-like.jpg"), src])
    write_txt(p("photo-like"), ISBN["photo-like"])

    gen_big_inverted(p)


def gen_big_inverted(p):
    """jpeg-big-inverted: 2400x2000 (4.8 MP, so looked at half size first), light bars on a dark
    label, 4 px per module, on a plain grey page with some lines of faint texture. The half-size
    look cannot read it (inverted); the decoder decodes the label's rows at full size only and an
    inverting pass reads it. Written separately (python3 -c 'import generate ...') as well."""
    W, H = 2400, 2000
    rnd = random.Random(99)
    bg = Img(W, H, 1, 196)
    for y in range(0, H, 7):
        row = bg.px[y]
        for x in range(W):
            row[x] = 196 + rnd.randint(-3, 3)
    label = barcode_with_text(ISBN["jpeg-big-inverted"], scale=2)
    bg.paste_gray(label, 1500, 1300, dark=(236,), light=(28,))
    src = os.path.join(TMP, "big.pgm")
    write_bytes(src, pnm_bytes(bg))
    run(["cjpeg", "-grayscale", "-quality", "85", "-optimize", "-outfile", p("jpeg-big-inverted.jpg"), src])
    write_txt(p("jpeg-big-inverted"), ISBN["jpeg-big-inverted"])


# --------------------------------------------------------------------------
# 2. exif/


def transform(img, op):
    """Apply EXIF orientation op N as a *display* transform (stored -> upright)."""
    W, H = img.w, img.h
    if op in (1, 2, 3, 4):
        r = Img(W, H, img.ch)
    else:
        r = Img(H, W, img.ch)
    for y in range(H):
        for x in range(W):
            v = img.get(x, y)
            if op == 1:
                nx, ny = x, y
            elif op == 2:
                nx, ny = W - 1 - x, y
            elif op == 3:
                nx, ny = W - 1 - x, H - 1 - y
            elif op == 4:
                nx, ny = x, H - 1 - y
            elif op == 5:
                nx, ny = y, x
            elif op == 6:          # rotate 90 CW
                nx, ny = H - 1 - y, x
            elif op == 7:
                nx, ny = H - 1 - y, W - 1 - x
            else:                  # 8: rotate 90 CCW
                nx, ny = y, W - 1 - x
            r.set(nx, ny, v)
    return r


INVERSE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6}


def exif_upright():
    W, H = 480, 640
    img = Img(W, H, 1)
    img.fill_rect(10, 10, 50, 50, 0)
    bars = bars_only(ISBN["exif"], 70, scale=2)   # 380 x 70 (zint scale 2 = 4 px per module)
    y0 = int(H * 0.475) - bars.h // 2             # centred in band [256, 352)
    img.paste_gray(bars, (W - bars.w) // 2, y0)
    assert 0.40 * H <= y0 and y0 + bars.h <= 0.55 * H
    return img


def gen_exif():
    up = exif_upright()
    for n in range(1, 9):
        stored = transform(up, INVERSE[n])
        assert pixels_equal(transform(stored, n), up)
        dst = out("exif", "orientation-%d.jpg" % n)
        cjpeg(stored, dst)
        run(["exiftool", "-q", "-overwrite_original", "-n", "-Orientation#=%d" % n, dst])
        write_txt(out("exif", "orientation-%d" % n), ISBN["exif"])


def pixels_equal(a, b):
    return a.w == b.w and a.h == b.h and a.px == b.px


# --------------------------------------------------------------------------
# 3. roi/  (800x600, band x=0.05 y=0.4 w=0.9 h=0.15 -> x 40..760, y 240..330)


def gen_roi():
    W, H = 800, 600

    def save(name, placements, expected, all_=None):
        img = Img(W, H, 1)
        for key, x, y in placements:
            img.paste_gray(bars_only(ISBN[key], 60, scale=1), x, y)
        write_bytes(out("roi", name + ".png"), png_gray8(img))
        write_txt(out("roi", name), expected)
        if all_:
            write_bytes(out("roi", name + ".all.txt"), "\n".join(all_).encode())

    # bars are 190 px wide, 60 px tall
    save("band-inside", [("roi-inside", 305, 255)], ISBN["roi-inside"])             # rows 255..315
    save("band-outside", [("roi-outside", 305, 45)], ISBN["roi-outside"])           # rows 45..105
    save("band-two-books", [("roi-two-A", 420, 255), ("roi-two-B", 150, 45)],
         ISBN["roi-two-A"], [ISBN["roi-two-A"], ISBN["roi-two-B"]])


# --------------------------------------------------------------------------
# 4. rejected/


REJECTED = {
    "jan": ("EANX", ean13("490123456789"), ean13("490123456789")),
    "isbn979": ("ISBNX", ean13("979103230569"), ean13("979103230569")),
    "ean8": ("EANX", "9638507", ean8("9638507")),   # zint 2.11 wants 7 digits for EAN-8
    "upca": ("UPCA", "03600029145", ean13("003600029145")),
}


def gen_rejected():
    for name, (symb, data, _) in REJECTED.items():
        g = barcode_with_text(data, symb=symb)
        write_bytes(out("rejected", name + ".png"), png_gray8(g))
    assert REJECTED["jan"][2] == "4901234567894"
    assert REJECTED["ean8"][2] == "96385074"
    write_txt(out("rejected", "jan"), REJECTED["jan"][2])
    write_txt(out("rejected", "isbn979"), REJECTED["isbn979"][2])
    write_txt(out("rejected", "ean8"), REJECTED["ean8"][2])
    # zbar reports UPC-A as EAN-13 with a leading 0 unless upca is explicitly enabled
    assert REJECTED["upca"][2] == "0036000291452"
    write_txt(out("rejected", "upca"), REJECTED["upca"][2])


# --------------------------------------------------------------------------
# 5. negative/


def gen_negative():
    write_bytes(out("negative", "blank.png"), png_gray8(Img(400, 300, 1)))

    rnd = random.Random(42)
    n = Img(400, 300, 1)
    n.px = [[rnd.randrange(256) for _ in range(400)] for _ in range(300)]
    write_bytes(out("negative", "noise.png"), png_gray8(n))

    pgm = run([CONVERT, "-size", "400x300", "xc:white", "-fill", "black",
               "-font", "DejaVu-Sans", "-pointsize", "22",
               "-annotate", "+20+60", "Used books - shelf 12",
               "-annotate", "+20+110", "ISBN 978-0-306-40615-7",
               "-pointsize", "16",
               "-annotate", "+20+160", "The quick brown fox jumps",
               "-annotate", "+20+190", "over the lazy dog. 1234567890",
               "-depth", "8", "-colorspace", "Gray", "pgm:-"])
    write_bytes(out("negative", "text.png"), png_gray8(load_pgm(pgm)))

    # regular stripes: bar-like but not any valid symbology
    s = Img(400, 300, 1)
    for y in range(60, 240):
        for x in range(40, 360):
            if (x // 6) % 2 == 0:
                s.px[y][x] = 0
    write_bytes(out("negative", "stripes.png"), png_gray8(s))


# --------------------------------------------------------------------------
# 6. corrupt/


def gen_corrupt():
    good_png = png_gray8(barcode_with_text(ISBN["corrupt"]))
    write_bytes(out("corrupt", "empty.png"), b"")
    write_bytes(out("corrupt", "not-an-image.png"),
                b"This is not an image.\nIt is plain ASCII text with a .png extension.\n"
                b"isbnscan should report that the format is not recognised.\n")

    gif = os.path.join(TMP, "x.gif")
    run(["zint", "-b", "ISBNX", "--scale=1", "-d", ISBN["corrupt"], "-o", gif])
    # isbnscan reads GIF since issue 12: the zint GIF is now a positive fixture.
    shutil.copyfile(gif, out("isbn", "gif-zint.gif"))
    write_bytes(out("isbn", "gif-zint.txt"), ISBN["corrupt"].encode())

    write_bytes(out("corrupt", "truncated.png"), good_png[:len(good_png) * 4 // 10])

    jpg = os.path.join(TMP, "good.jpg")
    cjpeg(barcode_with_text(ISBN["corrupt"]), jpg)
    data = open(jpg, "rb").read()
    write_bytes(out("corrupt", "truncated.jpg"), data[:len(data) * 4 // 10])
    # Cut before any row is complete: still errors now that damaged files are read as far as they go.
    write_bytes(out("corrupt", "truncated-header.png"), good_png[:good_png.index(b"IDAT") + 8])
    write_bytes(out("corrupt", "truncated-header.jpg"), data[:data.index(b"\xff\xda") + 16])

    # flip one byte in the middle of the IDAT payload (chunk CRC no longer matches)
    i = good_png.index(b"IDAT") + 4
    n = struct.unpack(">I", good_png[i - 8:i - 4])[0]
    pos = i + n // 2
    bad = bytearray(good_png)
    bad[pos] ^= 0x5A
    write_bytes(out("corrupt", "corrupt-crc.png"), bytes(bad))

    # a valid SOI + APP0 JFIF + DQT header, then garbage
    rnd = random.Random(7)
    sos = data.index(b"\xff\xdb")  # up to first DQT
    hdr = data[:sos]
    garbage = bytes(rnd.randrange(256) for _ in range(1500))
    write_bytes(out("corrupt", "corrupt.jpg"), hdr + garbage)

    # decompression bomb: IHDR claims 50000 x 50000 gray8 (2.5 GB); IDAT holds only 4 rows
    w = h = 50000
    idat = zlib.compress(b"\x00" * ((w + 1) * 4), 9)
    bomb = (b"\x89PNG\r\n\x1a\n"
            + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + png_chunk(b"IDAT", idat)
            + png_chunk(b"IEND", b""))
    write_bytes(out("corrupt", "bomb.png"), bomb)

    write_bytes(out("corrupt", "bad-pnm.pgm"), b"P5\n0 300\n255\n" + bytes(64))
    write_bytes(out("corrupt", "bad-pnm-garbage.pgm"), b"P5\nabc def\n255\n" + bytes(64))


# --------------------------------------------------------------------------
# verification


ZBAR = ["zbarimg", "-q", "--raw", "-Sdisable", "-Sean13.enable", "-Sean8.enable",
        "-Sean5.enable", "-Sean2.enable"]


def zbar(path):
    r = subprocess.run(ZBAR + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode().split()


def zbar_via_convert(path):
    tmp = tempfile.mkdtemp()
    try:
        png = os.path.join(tmp, "x.png")
        subprocess.run([CONVERT, path, "-colorspace", "sRGB", png], stderr=subprocess.DEVNULL)
        return zbar(png)
    finally:
        shutil.rmtree(tmp)


def verify():
    ok = True
    rows = []
    for folder in ("isbn", "exif", "roi", "rejected"):
        for f in sorted(os.listdir(os.path.join(HERE, folder))):
            if f.endswith(".txt"):
                continue
            path = os.path.join(HERE, folder, f)
            base = os.path.splitext(path)[0]
            exp = open(base + ".txt").read()
            rc, syms = zbar(path)
            # zbar reports an add-on as a separate symbol; join them like our expected text
            joined = "".join(sorted(syms, key=len, reverse=True)) if len(syms) == 2 and all(len(s) in (2, 5, 13) for s in syms) and folder == "isbn" else None
            got = joined if joined else " ".join(syms)
            if folder == "roi" and f == "band-two-books.png":
                allexp = open(base + ".all.txt").read().split("\n")
                status = "ok" if sorted(syms) == sorted(allexp) else "MISMATCH"
            else:
                status = "ok" if got == exp else ("no decode" if not syms else "MISMATCH")
            rows.append((folder + "/" + f, exp, got, status))
    for folder in ("negative",):
        for f in sorted(os.listdir(os.path.join(HERE, folder))):
            rc, syms = zbar(os.path.join(HERE, folder, f))
            rows.append((folder + "/" + f, "(nothing)", " ".join(syms), "ok" if not syms else "UNEXPECTED DECODE"))
    w = max(len(r[0]) for r in rows)
    for r in rows:
        print("%-*s  %-20s  %-20s  %s" % (w, r[0], r[1], r[2], r[3]))

    # EXIF: auto-orient must give the upright picture
    for n in range(1, 9):
        pgm = run([CONVERT, os.path.join(HERE, "exif", "orientation-%d.jpg" % n), "-auto-orient",
                   "-colorspace", "Gray", "-depth", "8", "pgm:-"])
        img = load_pgm(pgm)
        sq = sum(img.px[y][x] for y in range(15, 45) for x in range(15, 45)) / 900
        other = [sum(img.px[y + j][x + i] for j in range(5, 35) for i in range(5, 35)) / 900
                 for (x, y) in ((img.w - 50, 10), (10, img.h - 50), (img.w - 50, img.h - 50))] if img.w > 60 else []
        good = img.w == 480 and img.h == 640 and sq < 40 and all(o > 215 for o in other)
        ok &= good
        print("exif/orientation-%d.jpg auto-orient -> %dx%d, top-left square mean %.0f: %s"
              % (n, img.w, img.h, sq, "ok" if good else "WRONG"))
    for f in ("jpeg-cmyk.jpg", "jpeg-ycck.jpg"):
        info = run([IDENTIFY, "-verbose", os.path.join(HERE, "isbn", f)]).decode()
        cs = [l.strip() for l in info.splitlines() if "Colorspace:" in l or "jpeg:colorspace" in l]
        d = open(os.path.join(HERE, "isbn", f), "rb").read()
        i = d.find(b"\xff\xee")
        tr = d[i + 4 + 11] if i >= 0 and d[i + 4:i + 9] == b"Adobe" else None
        rc, syms = zbar_via_convert(os.path.join(HERE, "isbn", f))
        print("isbn/%s: %s; Adobe transform=%s; convert->sRGB PNG->zbarimg: %s"
              % (f, "; ".join(cs), tr, " ".join(syms) or "nothing"))
    total = 0
    for root, _, files in os.walk(HERE):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    print("total size of TestImages/: %d bytes" % total)
    return ok


def main():
    global TMP
    if "--verify" not in sys.argv:
        TMP = tempfile.mkdtemp(prefix="isbnscan-fixtures-")
        try:
            for sub in ("isbn", "exif", "roi", "rejected", "negative", "corrupt"):
                d = os.path.join(HERE, sub)
                if os.path.isdir(d):
                    shutil.rmtree(d)
            gen_isbn()
            gen_exif()
            gen_roi()
            gen_rejected()
            gen_negative()
            gen_corrupt()
        finally:
            shutil.rmtree(TMP, ignore_errors=True)
    verify()


if __name__ == "__main__":
    main()

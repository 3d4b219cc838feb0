#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes TestImages/formats/: the images of isbn/ in TIFF, WebP, GIF, HEIF and BMP.

Python stdlib for the uncompressed TIFF and BMP files (written byte by byte), then Debian tools:
tiffcp (libtiff-tools) for compression and multi-page files, cwebp and webpmux (webp), gif2rgb
(giflib-tools), heif-enc (libheif-examples). Sources: isbn/pgm-p5.pgm (250x156 gray,
9780321573513), isbn/ppm-p6.ppm (250x156 RGB, 9780596009205), isbn/pgm-p5-16bit.pgm (16-bit
gray, 9781449355739), isbn/png-gray8.png (501x312, 9780306406157). Each image gets a sibling
.txt with its expected code. Run from anywhere: python3 TestImages/make_formats.py
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "formats")


def read_pnm(path):
    data = open(path, "rb").read()
    fields, offset = [], 2
    while len(fields) < 3:
        while data[offset:offset + 1].isspace():
            offset += 1
        start = offset
        while data[offset:offset + 1].isdigit():
            offset += 1
        fields.append(int(data[start:offset]))
    offset += 1
    width, height, maxval = fields
    channels = 3 if data[:2] == b"P6" else 1
    size = 2 if maxval > 255 else 1
    raster = data[offset:offset + width * height * channels * size]
    if size == 2:
        samples = list(struct.unpack(">%dH" % (len(raster) // 2), raster))
    else:
        samples = list(raster)
    return width, height, channels, maxval, samples


def tiff(path, width, height, samples, bits, photometric, spp=1, orientation=None, colormap=None):
    """An uncompressed big-endian single-strip TIFF (TIFF 6.0 baseline)."""
    if bits == 16:
        raster = struct.pack(">%dH" % len(samples), *samples)
    elif bits == 8:
        raster = bytes(samples)
    else:  # 1-bit rows, padded to a byte
        rows = []
        for y in range(height):
            row = bytearray((width + 7) // 8)
            for x in range(width):
                if samples[y * width + x]:
                    row[x >> 3] |= 0x80 >> (x & 7)
            rows.append(bytes(row))
        raster = b"".join(rows)
    entries = [(256, 4, [width]), (257, 4, [height]), (258, 3, [bits] * spp), (259, 3, [1]),
               (262, 3, [photometric]), (273, 4, [0]), (277, 3, [spp]), (278, 4, [height]),
               (279, 4, [len(raster)]), (284, 3, [1])]
    if orientation:
        entries.append((274, 3, [orientation]))
    if colormap:
        entries.append((320, 3, colormap))
    entries.sort()
    ifd_offset = 8
    ifd_size = 2 + 12 * len(entries) + 4
    extra = bytearray()
    extra_base = ifd_offset + ifd_size
    packed = []
    for tag, kind, values in entries:
        fmt = "H" if kind == 3 else "I"
        blob = struct.pack(">%d%s" % (len(values), fmt), *values)
        packed.append([tag, kind, len(values), blob])
    for item in packed:
        if len(item[3]) > 4:
            item.append(extra_base + len(extra))
            extra += item[3]
            if len(extra) % 2:
                extra += b"\0"
    strip_offset = extra_base + len(extra)
    out = bytearray(b"MM\0*" + struct.pack(">I", ifd_offset))
    out += struct.pack(">H", len(entries))
    for item in packed:
        tag, kind, count, blob = item[:4]
        if tag == 273:
            blob = struct.pack(">I", strip_offset)
        if len(blob) > 4:
            out += struct.pack(">HHII", tag, kind, count, item[4])
        else:
            out += struct.pack(">HHI", tag, kind, count) + blob.ljust(4, b"\0")
    out += struct.pack(">I", 0) + extra + raster
    open(path, "wb").write(out)


def bmp(path, width, height, channels, samples, bits, top_down=False):
    """An uncompressed BMP with a BITMAPINFOHEADER: 1/8-bit gray palette or 24-bit BGR."""
    stride = ((width * bits + 31) // 32) * 4
    palette = b""
    if bits == 8:
        palette = b"".join(bytes([i, i, i, 0]) for i in range(256))
    elif bits == 1:
        palette = bytes([0, 0, 0, 0, 255, 255, 255, 0])
    rows = []
    for y in range(height):
        row = bytearray(stride)
        for x in range(width):
            i = y * width + x
            if bits == 24:
                r, g, b = samples[3 * i:3 * i + 3]
                row[3 * x:3 * x + 3] = bytes([b, g, r])
            elif bits == 8:
                row[x] = samples[i]
            elif samples[i] >= 128:
                row[x >> 3] |= 0x80 >> (x & 7)
        rows.append(bytes(row))
    if not top_down:
        rows.reverse()
    pixels = b"".join(rows)
    offset = 14 + 40 + len(palette)
    header = b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, width, -height if top_down else height, 1, bits, 0, len(pixels),
                       2835, 2835, len(palette) // 4, 0)
    open(path, "wb").write(header + info + palette + pixels)


def rotate_for(orientation, width, height, samples):
    """The stored pixels of an upright picture for orientation 6 (the viewer turns them 90° clockwise)."""
    assert orientation == 6
    # Turning the stored image (sw x sh) 90° clockwise puts stored (sx, sy) at upright (sh-1-sy, sx).
    sw, sh = height, width
    stored = [0] * (sw * sh)
    for sy in range(sh):
        for sx in range(sw):
            ux, uy = sh - 1 - sy, sx
            stored[sy * sw + sx] = samples[uy * width + ux]
    return sw, sh, stored


def exif_orientation(value):
    """An EXIF block (TIFF header, IFD0 with Orientation only), as webpmux stores it."""
    return b"MM\0*" + struct.pack(">IHHHIHHI", 8, 1, 274, 3, 1, value, 0, 0)


def boxes(data, start, end):
    """(type, offset, size, header size) of the ISO BMFF boxes in data[start:end]."""
    out, i = [], start
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[i + 8:i + 16])[0], 16
        out.append((kind.decode("latin-1"), i, size, header))
        i += size
    return out


def heif_with_irot(data, angle):
    """`data` (a HEIC from heif-enc: one coded image, meta before mdat) with an `irot` property
    (ISO/IEC 23008-12 §6.5.10: rotation by angle x 90 degrees anti-clockwise) added to the
    primary item: the box sizes on the way down and the iloc file offsets are fixed up."""
    data = bytearray(data)
    meta = next(b for b in boxes(data, 0, len(data)) if b[0] == "meta")
    inner = boxes(data, meta[1] + 12, meta[1] + meta[2])  # meta is a full box
    pitm = next(b for b in inner if b[0] == "pitm")
    primary = struct.unpack(">H", data[pitm[1] + 12:pitm[1] + 14])[0]
    iprp = next(b for b in inner if b[0] == "iprp")
    ipco, ipma = [next(b for b in boxes(data, iprp[1] + 8, iprp[1] + iprp[2]) if b[0] == k) for k in ("ipco", "ipma")]
    count = len(boxes(data, ipco[1] + 8, ipco[1] + ipco[2]))
    irot = struct.pack(">I4sB", 9, b"irot", angle & 3)
    # ipma: version 0, flags 0 here (16-bit item IDs, 8-bit associations).
    version, flags = data[ipma[1] + 8], int.from_bytes(data[ipma[1] + 9:ipma[1] + 12], "big")
    assert version == 0 and flags & 1 == 0
    entries = struct.unpack(">I", data[ipma[1] + 12:ipma[1] + 16])[0]
    i = ipma[1] + 16
    for _ in range(entries):
        item, n = struct.unpack(">HB", data[i:i + 3])
        if item == primary:
            data[i + 2] = n + 1
            data[i + 3 + n:i + 3 + n] = bytes([0x80 | (count + 1)])  # essential, 1-based index
            break
        i += 3 + n
    grown = 1 + len(irot)
    # Sizes first (ipma before the insertion moves it; the others start before ipco's end).
    for box, extra in ((ipma, 1), (ipco, len(irot)), (iprp, grown), (meta, grown)):
        struct.pack_into(">I", data, box[1], struct.unpack(">I", data[box[1]:box[1] + 4])[0] + extra)
    data[ipco[1] + ipco[2]:ipco[1] + ipco[2]] = irot
    # iloc (before iprp in heif-enc's files, so not moved): shift offsets into the file by `grown`.
    iloc = next(b for b in inner if b[0] == "iloc")
    assert iloc[1] < iprp[1]
    v = data[iloc[1] + 8]
    j = iloc[1] + 12
    offset_size, length_size = data[j] >> 4, data[j] & 15
    base_size, index_size = data[j + 1] >> 4, (data[j + 1] & 15) if v in (1, 2) else 0
    j += 2
    items = struct.unpack(">H", data[j:j + 2])[0] if v < 2 else struct.unpack(">I", data[j:j + 4])[0]
    j += 2 if v < 2 else 4

    def field(at, size):
        return int.from_bytes(data[at:at + size], "big") if size else 0

    for _ in range(items):
        j += 2 if v < 2 else 4
        method = 0
        if v in (1, 2):
            method = data[j + 1] & 15
            j += 2
        j += 2  # data_reference_index
        base = field(j, base_size)
        if method == 0 and base_size and base:
            data[j:j + base_size] = (base + grown).to_bytes(base_size, "big")
        j += base_size
        extents = struct.unpack(">H", data[j:j + 2])[0]
        j += 2
        for _ in range(extents):
            j += index_size
            if method == 0 and not (base_size and base):
                data[j:j + offset_size] = (field(j, offset_size) + grown).to_bytes(offset_size, "big")
            j += offset_size + length_size
    return bytes(data)


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    isbn = os.path.join(HERE, "isbn")
    gw, gh, _, _, gray = read_pnm(os.path.join(isbn, "pgm-p5.pgm"))
    cw, ch, _, _, rgb = read_pnm(os.path.join(isbn, "ppm-p6.ppm"))
    ww, wh, _, _, gray16 = read_pnm(os.path.join(isbn, "pgm-p5-16bit.pgm"))
    GRAY, RGB, GRAY16, PNG = "9780321573513", "9780596009205", "9781449355739", "9780306406157"
    expected = {}
    tmp = tempfile.mkdtemp()

    def out(name, code):
        expected[name] = code
        return os.path.join(OUT, name)

    # TIFF: 8-bit gray LZW, 16-bit gray, palette Deflate, RGB PackBits, 1-bit G4 (min-is-white),
    # a two-page file (blank page 1, the barcode on page 2), orientation 6.
    tiff(os.path.join(tmp, "gray.tif"), gw, gh, gray, 8, 1)
    run("tiffcp", "-c", "lzw", os.path.join(tmp, "gray.tif"), out("tiff-gray8-lzw.tif", GRAY))
    tiff(out("tiff-gray16.tif", GRAY16), ww, wh, gray16, 16, 1)
    colours = sorted(set(zip(rgb[0::3], rgb[1::3], rgb[2::3])))
    assert len(colours) <= 256, len(colours)
    index = {c: i for i, c in enumerate(colours)}
    indices = [index[c] for c in zip(rgb[0::3], rgb[1::3], rgb[2::3])]
    cmap = [c[k] * 257 for k in range(3) for c in colours + [(0, 0, 0)] * (256 - len(colours))]
    tiff(os.path.join(tmp, "palette.tif"), cw, ch, indices, 8, 3, colormap=cmap)
    run("tiffcp", "-c", "zip", os.path.join(tmp, "palette.tif"), out("tiff-palette-deflate.tif", RGB))
    tiff(os.path.join(tmp, "rgb.tif"), cw, ch, rgb, 8, 2, spp=3)
    run("tiffcp", "-c", "packbits", os.path.join(tmp, "rgb.tif"), out("tiff-rgb-packbits.tif", RGB))
    # 1 bit, min-is-white: a set bit is black.
    tiff(os.path.join(tmp, "bilevel.tif"), gw, gh, [1 if v < 128 else 0 for v in gray], 1, 0)
    run("tiffcp", "-c", "g4", os.path.join(tmp, "bilevel.tif"), out("tiff-g4.tif", GRAY))
    tiff(os.path.join(tmp, "blank.tif"), gw, gh, [0] * (gw * gh), 1, 0)
    run("tiffcp", "-c", "g4", os.path.join(tmp, "blank.tif"), os.path.join(tmp, "blank-g4.tif"))
    run("tiffcp", os.path.join(tmp, "blank-g4.tif"), os.path.join(OUT, "tiff-g4.tif"), out("tiff-multipage.tif", GRAY))
    sw, sh, stored = rotate_for(6, gw, gh, gray)
    tiff(out("tiff-orientation-6.tif", GRAY), sw, sh, stored, 8, 1, orientation=6)

    # WebP: lossy from the PPM, lossless from the PGM, and lossless with EXIF orientation 6.
    run("cwebp", "-q", "90", os.path.join(isbn, "ppm-p6.ppm"), "-o", out("webp-lossy.webp", RGB))
    run("cwebp", "-lossless", os.path.join(isbn, "pgm-p5.pgm"), "-o", out("webp-lossless.webp", GRAY))
    rotated = os.path.join(tmp, "rotated.pgm")
    open(rotated, "wb").write(b"P5\n%d %d\n255\n" % (sw, sh) + bytes(stored))
    run("cwebp", "-lossless", rotated, "-o", os.path.join(tmp, "rotated.webp"))
    exif = os.path.join(tmp, "exif.bin")
    open(exif, "wb").write(exif_orientation(6))
    run("webpmux", "-set", "exif", exif, os.path.join(tmp, "rotated.webp"), "-o", out("webp-exif-6.webp", GRAY))

    # GIF from raw RGB (gif2rgb -s W H reads RGB triplets and writes a GIF).
    raw = os.path.join(tmp, "rgb.raw")
    open(raw, "wb").write(bytes(rgb))
    with open(out("gif-rgb.gif", RGB), "wb") as gif:
        subprocess.run(["gif2rgb", "-1", "-s", str(cw), str(ch), raw], stdout=gif, check=True, stderr=subprocess.DEVNULL)

    # HEIF/HEIC (x265) from the PNG.
    run("heif-enc", "-q", "90", os.path.join(isbn, "png-gray8.png"), "-o", out("heic-gray.heic", PNG))
    # The PGM stored turned (156x250, as for Orientation 6) with an irot of 270° anti-clockwise:
    # upright it is 250x156 again. heif-enc has no rotation option; the box is added here.
    y4m = os.path.join(tmp, "rotated.y4m")
    chroma = bytes([128]) * (((sw + 1) // 2) * ((sh + 1) // 2))
    open(y4m, "wb").write(b"YUV4MPEG2 W%d H%d F1:1 Ip A1:1 C420jpeg\nFRAME\n" % (sw, sh) + bytes(stored) + chroma + chroma)
    run("heif-enc", "-q", "90", y4m, "-o", os.path.join(tmp, "rotated.heic"))
    with open(out("heic-irot-270.heic", GRAY), "wb") as f:
        f.write(heif_with_irot(open(os.path.join(tmp, "rotated.heic"), "rb").read(), 3))

    # BMP: 8-bit palette bottom-up, 24-bit top-down, 1-bit.
    bmp(out("bmp-gray8.bmp", GRAY), gw, gh, 1, gray, 8)
    bmp(out("bmp-rgb24-topdown.bmp", RGB), cw, ch, 3, rgb, 24, top_down=True)
    bmp(out("bmp-1bit.bmp", GRAY), gw, gh, 1, gray, 1)

    for name, code in expected.items():
        open(os.path.join(OUT, os.path.splitext(name)[0] + ".txt"), "w").write(code)
    for name in sorted(expected):
        print("%-28s %7d bytes  %s" % (name, os.path.getsize(os.path.join(OUT, name)), expected[name]))


if __name__ == "__main__":
    sys.exit(main())

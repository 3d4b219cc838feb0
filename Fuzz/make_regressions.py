#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes Fuzz/regressions/: small hostile files for every decoder, replayed by `make test`
(Tests/ImagingTests/FuzzRegressionTests.swift: each must give an image or a clear error, never a
crash). Findings of `make fuzz` that were fixed are added here by hand, named after what they hit.
Python stdlib only."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "regressions")
TI = os.path.join(os.path.dirname(HERE), "TestImages")


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def bmp_header(width, height, bits, compression=0, offset=None, extra=b"", size=0):
    offset = offset if offset is not None else 14 + 40 + len(extra)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, compression, size, 0, 0, 0, 0)
    return b"BM" + struct.pack("<IHHI", offset + size, 0, 0, offset) + info + extra


def tiff_ifd(entries, next_ifd=0, data=b""):
    out = b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        out += struct.pack("<HHII", tag, kind, count, value)
    return out + struct.pack("<I", next_ifd) + data


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    # BMP: sizes and offsets that lie.
    write("bmp-huge-dims.bmp", bmp_header(60000, 60000, 8) + bytes(1024))
    write("bmp-offset-past-end.bmp", bmp_header(4, 4, 24, offset=1 << 30) + bytes(64))
    write("bmp-palette-past-offset.bmp", bmp_header(4, 4, 8, offset=20) + bytes(64))
    write("bmp-masks-zero-and-full.bmp", bmp_header(2, 2, 32, compression=3,
          extra=struct.pack("<III", 0, 0xFFFFFFFF, 0x00F0F000)) + bytes(16))
    write("bmp-int-min-height.bmp", bmp_header(1, -2147483648, 8) + bytes(16))
    write("bmp-rle8.bmp", bmp_header(4, 4, 8, compression=1) + bytes(1024 + 16))
    # TIFF: an IFD that points at itself, a strip past the end, a 0x0 image.
    write("tiff-ifd-loop.tif", tiff_ifd([(256, 4, 1, 8), (257, 4, 1, 8), (258, 3, 1, 8), (262, 3, 1, 1),
                                         (273, 4, 1, 1000000), (278, 4, 1, 8), (279, 4, 1, 64)], next_ifd=8))
    write("tiff-zero-size.tif", tiff_ifd([(256, 4, 1, 0), (257, 4, 1, 0), (273, 4, 1, 8), (279, 4, 1, 1)]))
    write("tiff-g4-garbage.tif", tiff_ifd([(256, 4, 1, 64), (257, 4, 1, 64), (258, 3, 1, 1), (259, 3, 1, 4),
                                           (262, 3, 1, 0), (273, 4, 1, 8 + 2 + 7 * 12 + 4), (278, 4, 1, 64),
                                           (279, 4, 1, 32)], data=bytes(range(200, 232))))
    # GIF: a frame far outside its logical screen, and a screen of 0x0.
    gif = open(os.path.join(TI, "isbn", "gif-zint.gif"), "rb").read()
    moved = bytearray(gif)
    i = moved.index(b",")  # image separator (the zint GIF has no extension blocks before it)
    moved[i + 1:i + 5] = struct.pack("<HH", 60000, 60000)
    write("gif-frame-outside-screen.gif", bytes(moved))
    write("gif-zero-screen.gif", b"GIF89a" + struct.pack("<HHBBB", 0, 0, 0, 0, 0) + b";")
    write("gif-cut-in-lzw.gif", gif[:len(gif) // 2])
    # WebP and HEIF: containers that end early or hold nothing.
    webp = open(os.path.join(TI, "formats", "webp-lossy.webp"), "rb").read()
    write("webp-cut.webp", webp[:len(webp) // 3])
    write("webp-riff-size-lies.webp", b"RIFF" + struct.pack("<I", 0xFFFFFFF0) + webp[8:])
    write("heif-ftyp-only.heic", struct.pack(">I", 24) + b"ftypheic" + struct.pack(">I", 0) + b"mif1heic")
    heic = open(os.path.join(TI, "formats", "heic-gray.heic"), "rb").read()
    write("heif-cut.heic", heic[:len(heic) // 2])
    # JPEG and PNG headers claiming huge sizes, PNM with an absurd maxval.
    write("png-ihdr-huge.png", open(os.path.join(TI, "corrupt", "bomb.png"), "rb").read())
    write("pgm-maxval-zero.pgm", b"P5 2 2 0\n" + bytes(4))
    for name in sorted(os.listdir(OUT)):
        print(name, os.path.getsize(os.path.join(OUT, name)))


if __name__ == "__main__":
    main()

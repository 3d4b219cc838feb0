# SPDX-License-Identifier: Apache-2.0
"""Write TestImages/text/: pages with an ISBN printed as text and no barcode (`isbnscan scan --text`).

    .build/bench-venv/bin/python TestImages/make_text_pages.py     (Pillow: make bench-deps; zint)

Each page is typeset with Pillow in DejaVu Serif (fonts-dejavu-core) at 10 pt and 200 dpi equivalent
(28 px per em), black on white, saved as 8-bit gray PNG. Each positive page NAME.png has NAME.txt with
the expected ISBN-13s, one per line, no trailing newline (empty for a page that must give none).
Re-running gives the same pixels.

The page isbn10-hyphenated is also saved as a camera would save a photo taken with the phone turned:
exif-orientation-N.jpg holds its pixels stored turned, with the EXIF Orientation tag N (3: upside
down, 6: to be turned a quarter clockwise, 8: a quarter counter-clockwise) that turns them upright
(8-bit gray JPEG, quality 90).
"""
import os
import shutil
import subprocess
import tempfile

from PIL import Image, ImageDraw, ImageFilter, ImageFont, ImageOps

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "text")
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
EM = 28

PAGES = {
    # name: (lines, expected ISBN-13s)
    "isbn10-hyphenated": (["First published 1975.", "All rights reserved.", "ISBN 0-306-40615-2"], ["9780306406157"]),
    "isbn13-japan": (["Printed in Japan.", "ISBN 978-4-10-101001-4"], ["9784101010014"]),
    "isbn10-x-check-digit": (["Library of Congress Catalog Card Number 79-1234", "ISBN 0-8044-2957-X"], ["9780804429573"]),
    "wrong-check-digit": (["All rights reserved.", "ISBN 0-306-40615-3"], []),
    "undefined-range": (["All rights reserved.", "ISBN 699-0000-00-7"], []),
    "japanese-c-code": (["Shinchosha, Tokyo.", "ISBN4-10-101001-3 C0193 \u00a5476E"], ["9784101010014"]),
    "two-isbns-qualifiers": (["Library of Congress Cataloging-in-Publication Data",
                              "ISBN 0-306-40615-2 (pbk.)", "ISBN 978-1-56619-909-4 (hardcover)"],
                             ["9780306406157", "9781566199094"]),
    "no-isbn-numbers": (["Orders: Tel. (212) 555-0134  Fax (212) 555-0199", "Item 0-306-40615-2  Qty 3",
                         "ISSN 0317-8471", "Price list: 12.95  8.50  19.99", "10 9 8 7 6 5 4 3 2 1"], []),
}


def page(lines):
    font = ImageFont.truetype(FONT, EM)
    width = 40 + max(int(font.getlength(line)) for line in lines) + 40
    height = 30 + len(lines) * int(EM * 1.5) + 30
    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((40, 30 + i * int(EM * 1.5)), line, font=font, fill=0)
    return img


SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def turned_label():
    """A price label turned by 35 degrees on a dark cover: beyond the few degrees Tesseract's
    layout analysis straightens."""
    font = ImageFont.truetype(SANS, 24)
    label = Image.new("L", (400, 120), 250)
    draw = ImageDraw.Draw(label)
    draw.text((20, 14), "$24.95  Higher in Canada", font=font, fill=20)
    draw.text((20, 64), "ISBN 978-0-312-45678-8", font=font, fill=20)
    turned = label.rotate(35, resample=Image.BICUBIC, expand=True, fillcolor=0)
    mask = Image.new("L", label.size, 255).rotate(35, resample=Image.BICUBIC, expand=True, fillcolor=0)
    cover = Image.new("L", (560, 460), 70)
    cover.paste(turned, ((cover.width - turned.width) // 2, (cover.height - turned.height) // 2), mask)
    return cover


def cut_off():
    """An ISBN-13 line the photo cuts off after 978-1-58573-0: those ten digits make a valid
    ISBN-10 (of the 978 group), which must not be read."""
    font = ImageFont.truetype(FONT, EM)
    line = "ISBN 978-1-58573-057-5"
    width = 40 + int(font.getlength("ISBN 978-1-58573-0"))
    photo = Image.new("L", (width, 130), 255)
    draw = ImageDraw.Draw(photo)
    draw.text((40, 20), "Second printing.", font=font, fill=0)
    draw.text((40, 20 + int(EM * 1.5)), line, font=font, fill=0)
    return photo


def small_capitals():
    """`ISBN 978-0-393-05867-3` whose capitals are 6.5 pixels tall, over a patch of paper (a covered
    barcode's place), as a photo taken from some way off: drawn 4 times larger on grey paper, reduced
    by area, then a Gaussian blur of 0.5 px."""
    scale = 4
    probe = ImageFont.truetype(FONT, 200).getbbox("H")
    font = ImageFont.truetype(FONT, int(round(6.5 * scale * 200 / (probe[3] - probe[1]))))
    photo = Image.new("L", (240 * scale, 120 * scale), 205)
    draw = ImageDraw.Draw(photo)
    draw.text((30 * scale, 20 * scale), "ISBN 978-0-393-05867-3", font=font, fill=30)
    draw.rectangle((30 * scale, 36 * scale, 200 * scale, 100 * scale), fill=212)
    return photo.resize((240, 120), Image.BOX).filter(ImageFilter.GaussianBlur(0.5))


def barcode_and_line():
    """A back cover's corner: the EAN-13 of 978-0-306-40615-7 (zint, 2 px per module, with its digits
    under the bars) and, beneath it, its ISBN printed as text, `ISBN 978-0-306-40615-7`: one book
    read two ways, which `scan --text` lists once."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bars.png")
        subprocess.run(["zint", "-b", "13", "-d", "978030640615", "--scale=2", "-o", path], check=True)
        bars = Image.open(path).convert("L")
    font = ImageFont.truetype(SANS, 24)
    photo = Image.new("L", (bars.width + 80, bars.height + 110), 255)
    photo.paste(bars, (40, 30))
    ImageDraw.Draw(photo).text((40, 30 + bars.height + 24), "ISBN 978-0-306-40615-7", font=font, fill=0)
    return photo


# Photos rather than pages: name -> (image, expected ISBN-13s).
PHOTOS = {
    "turned-35-degrees": (turned_label, ["9780312456788"]),
    "cut-off-by-the-edge": (cut_off, []),
    "small-capitals-6.5px": (small_capitals, ["9780393058673"]),
    "barcode-and-isbn-line": (barcode_and_line, ["9780306406157"]),
}

# EXIF Orientation: how the stored pixels are turned from the upright page (the tag says how to turn
# them back).
STORED = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def main():
    shutil.rmtree(HERE, ignore_errors=True)
    os.makedirs(HERE)
    for name, (lines, expected) in PAGES.items():
        page(lines).save(os.path.join(HERE, name + ".png"), optimize=True)
        with open(os.path.join(HERE, name + ".txt"), "w") as f:
            f.write("\n".join(expected))
    for name, (make, expected) in PHOTOS.items():
        make().save(os.path.join(HERE, name + ".png"), optimize=True)
        with open(os.path.join(HERE, name + ".txt"), "w") as f:
            f.write("\n".join(expected))
    lines, expected = PAGES["isbn10-hyphenated"]
    upright = page(lines)
    for orientation, stored in STORED.items():
        exif = Image.Exif()
        exif[0x0112] = orientation
        path = os.path.join(HERE, "exif-orientation-%d" % orientation)
        upright.transpose(stored).save(path + ".jpg", quality=90, exif=exif.tobytes())
        with open(path + ".txt", "w") as f:
            f.write("\n".join(expected))
        # The tag turns the pixels back upright.
        assert ImageOps.exif_transpose(Image.open(path + ".jpg")).size == upright.size
    print("make_text_pages: %d pages and %d photos in %s" % (len(PAGES), len(PHOTOS) + len(STORED), HERE))


if __name__ == "__main__":
    main()

// SPDX-License-Identifier: Apache-2.0
/*
 * CCodecs — the only place in isbnscan where libpng and libjpeg run.
 *
 * Both libraries report fatal errors by longjmp. Every setjmp lives in this C file, and no
 * longjmp ever crosses a Swift frame: each function returns a status and writes a one-line
 * message into the caller's buffer.
 *
 * Output of every decoder: 8-bit luminance (Y800), `width`×`height` pixels, row-major,
 * stride exactly `width`, origin top-left, in the file's stored pixel order (EXIF orientation
 * is reported, not applied). Luminance is Rec. 601 (Y = 0.299 R + 0.587 G + 0.114 B); alpha is
 * composited over white; 16-bit samples keep their high byte.
 */
#ifndef ISBNSCAN_CCODECS_H
#define ISBNSCAN_CCODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ISC_OK = 0,
    /** The library rejected the data (bad CRC, bad Huffman code, bad header…). */
    ISC_ERR_CORRUPT = 1,
    /** The data ended before the image did. */
    ISC_ERR_TRUNCATED = 2,
    /** width × height exceeds the caller's pixel limit; nothing was allocated for pixels. */
    ISC_ERR_TOO_LARGE = 3,
    /** malloc failed. */
    ISC_ERR_NO_MEMORY = 4,
    /** A valid file in a variant we do not decode (e.g. an unusual JPEG colour space). */
    ISC_ERR_UNSUPPORTED = 5,
} isc_status;

/** Progressive JPEG scans decoded at most (libjpeg progress monitor): more is ISC_ERR_CORRUPT. */
#define ISC_JPEG_MAX_SCANS 100

/** Longest side accepted (pixels): bounds libpng's row buffers whatever the pixel limit. */
#define ISC_MAX_SIDE 65535u

typedef struct {
    /** malloc'd `width * height` bytes; the caller owns it and releases it with free(). */
    uint8_t *pixels;
    uint32_t width;
    uint32_t height;
    /** The image's declared size before any decode-time scaling. */
    uint32_t source_width;
    uint32_t source_height;
    /** EXIF orientation 1…8 (EXIF 2.3, tag 0x0112; TIFF 6.0 tag 274 has the same values),
     *  or 0 when absent or invalid. */
    int orientation;
    /** Pages (TIFF directories) in the file; 1 for single-image formats. */
    uint32_t page_count;
    /** ISC_OK, or ISC_ERR_TRUNCATED / ISC_ERR_CORRUPT when the data was damaged but rows
     *  0 ..< `rows_decoded` (of `height`) were decoded before the damage (JPEG, PNG): the call
     *  still returns ISC_OK, rows from `rows_decoded` on are white (truncated) or as the library
     *  left them (corrupt JPEG data, where libjpeg resynchronises), and `message` says what
     *  happened. */
    isc_status damage;
    uint32_t rows_decoded;
} isc_luma_image;

/**
 * Decodes a PNG held in memory to luminance (libpng 1.6, png_read_row).
 * Handles gray, gray+alpha, RGB, RGBA, palette (with tRNS), 1/2/4/8/16-bit, Adam7 interlace,
 * and reads the eXIf chunk for orientation.
 * 8-bit, non-interlaced files whose every critical chunk is intact are inflated with
 * libdeflate instead of libpng's zlib (same pixels, 2-3× faster); anything else, and any
 * file that path declines, goes through libpng from the start.
 * On failure `out->pixels` is NULL and `message` holds a NUL-terminated reason.
 */
isc_status isc_png_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                               isc_luma_image *out, char *message, size_t message_size);

/**
 * For tests, the two paths of isc_png_decode_luma apart: libpng only; and the libdeflate path
 * only, which returns ISC_ERR_UNSUPPORTED (nothing allocated) where it declines the file.
 */
isc_status isc_png_decode_luma_libpng(const uint8_t *data, size_t size, uint64_t max_pixels,
                                      isc_luma_image *out, char *message, size_t message_size);
isc_status isc_png_decode_luma_deflate(const uint8_t *data, size_t size, uint64_t max_pixels, isc_luma_image *out);

/**
 * Decodes a JPEG held in memory to luminance (libjpeg-turbo, jpeg_read_scanlines).
 * Gray and YCbCr/RGB decode straight to JCS_GRAYSCALE (libjpeg keeps the Y component);
 * CMYK and YCCK, including Adobe-inverted CMYK, are converted through RGB.
 * `scale_denom` (1, 2, 4 or 8) asks libjpeg to decode at 1/scale_denom size (DCT scaling);
 * with 0, the image is decoded at half size when it has more than `halve_above` pixels, else
 * at full size (`out->width` tells which: compare with `out->source_width`).
 * Reads the APP1 Exif segment for orientation.
 */
isc_status isc_jpeg_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                unsigned scale_denom, uint64_t halve_above,
                                isc_luma_image *out, char *message, size_t message_size);

/** Rows `first` ..< `first + count` of an image. */
typedef struct {
    uint32_t first;
    uint32_t count;
} isc_row_band;

/**
 * As isc_jpeg_decode_luma at full size, but only the rows of `bands` (`band_count` of them, in
 * increasing order; overlaps and rows past the image are ignored) are decoded: libjpeg skips the
 * rows between them (jpeg_skip_scanlines: entropy decoding without the inverse DCT) and stops after
 * the last (jpeg_abort_decompress), so the file's later data is not even read. `out->pixels` is a
 * whole `width * height` image (calloc: pages of rows never written cost no memory) whose other
 * rows are 0. libjpeg skips whole iMCU rows only (jpeg_skip_scanlines inside one returned wrong
 * rows in libjpeg-turbo 2.1.5); the rows around them are read and dropped. Damage among the rows
 * passed over is `out->damage` with `rows_decoded` where the skip began (not an error), the rows
 * asked for after it as a whole decode leaves them; damage after the last band goes unseen. CMYK
 * and YCCK files are decoded whole.
 * From `data`/`size`, or from the open regular file `fd` when `data` is NULL (as
 * isc_jpeg_decode_luma_fd).
 */
isc_status isc_jpeg_decode_luma_rows(const uint8_t *data, size_t size, int fd, uint64_t max_pixels,
                                     const isc_row_band *bands, size_t band_count,
                                     isc_luma_image *out, char *message, size_t message_size);

/**
 * As isc_png_decode_luma and isc_jpeg_decode_luma, reading the open regular file `fd` from its
 * start in 64 KiB steps (PNG: libpng's read callback over a dup'ed descriptor with stdio; JPEG: a
 * libjpeg source manager calling read(2)), so memory follows the image size, not the file size:
 * bytes after the image are never read. `fd` stays open; its offset is moved (lseek to 0, then
 * reads).
 */
isc_status isc_png_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size);
isc_status isc_jpeg_decode_luma_fd(int fd, uint64_t max_pixels, unsigned scale_denom, uint64_t halve_above,
                                   isc_luma_image *out, char *message, size_t message_size);

/**
 * Decodes one Motion-JPEG frame (V4L2_PIX_FMT_MJPEG) to luminance, like
 * isc_jpeg_decode_luma. Many webcams leave out the Huffman tables (no DHT segment) and rely
 * on the standard ones (ITU-T T.81 Annex K.3; the AVI1 convention of Motion-JPEG). When no
 * DHT comes before the first SOS, the standard tables are inserted just before it and
 * `*inserted_dht` is set to 1. (libjpeg-turbo would also fall back to them by itself; the
 * insertion makes that explicit and independent of the libjpeg build.)
 */
isc_status isc_mjpeg_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                 isc_luma_image *out, int *inserted_dht,
                                 char *message, size_t message_size);

/**
 * As isc_mjpeg_decode_luma, but only rows `first_row` ..< `first_row + row_count` of the frame
 * (clamped to it): the rows above are passed over with entropy decoding only (walked by
 * isbnscan, see isc_mjpeg_decode_luma_rows_by, or skipped by libjpeg, jpeg_skip_scanlines), the
 * rows below never decoded (jpeg_abort_decompress after the last row). `out` is
 * `width` x `row_count` (after clamping); `source_width`/`source_height` give the frame's size.
 * Corrupt entropy data that libjpeg resynchronises on is not an error, as in a whole decode.
 */
isc_status isc_mjpeg_decode_luma_rows(const uint8_t *data, size_t size, uint64_t max_pixels,
                                      uint32_t first_row, uint32_t row_count,
                                      isc_luma_image *out, int *inserted_dht,
                                      char *message, size_t message_size);

/** How isc_mjpeg_decode_luma_rows_by passes the rows above the band. */
typedef enum {
    /** Walked by isbnscan's own Huffman walk when the frame allows (baseline, three components in
     *  one interleaved scan, Y at full resolution, no restart markers), else ISC_MJPEG_ROWS_SKIP:
     *  what isc_mjpeg_decode_luma_rows does. */
    ISC_MJPEG_ROWS_AUTO = 0,
    /** Skipped by libjpeg (jpeg_skip_scanlines). */
    ISC_MJPEG_ROWS_SKIP = 1,
    /** Walked, or ISC_ERR_UNSUPPORTED (nothing allocated) when the frame does not allow it. */
    ISC_MJPEG_ROWS_CUT = 2,
} isc_mjpeg_rows_path;

/**
 * isc_mjpeg_decode_luma_rows by one way or the other (tests and the fuzz target compare them).
 * Walked: the Huffman codes of the iMCU rows above the one holding `first_row` are read without
 * libjpeg (one table look-up for a code and its magnitude bits, often two codes at once; the DC
 * differences summed), then libjpeg decodes from that row on a JPEG of the frame's headers, one
 * made-up iMCU row setting the DC predictions, and the frame's own bytes from where the walk
 * ended: the same coefficients, so the same pixels, as skipping or a whole decode.
 */
isc_status isc_mjpeg_decode_luma_rows_by(const uint8_t *data, size_t size, uint64_t max_pixels,
                                         uint32_t first_row, uint32_t row_count, isc_mjpeg_rows_path path,
                                         isc_luma_image *out, int *inserted_dht,
                                         char *message, size_t message_size);

/** The DHT segment (FF C4 … , all four Annex K.3 tables) that isc_mjpeg_decode_luma inserts.
 *  Returns its length; 0 if libjpeg could not provide the tables. */
size_t isc_mjpeg_standard_dht(const uint8_t **segment);

/**
 * Decodes page `page` (0-based TIFF directory) of a TIFF held in memory to luminance (libtiff 4.5,
 * TIFFClientOpenExt with per-file error handlers). Gray and bilevel (1/2/4/8/16-bit,
 * min-is-black or min-is-white, any compression libtiff has: none, CCITT G3/G4, LZW, Deflate,
 * PackBits…), palette and contiguous RGB(A) 8/16-bit rows are read with TIFFReadScanline;
 * anything else (tiles, YCbCr/JPEG, CMYK, separate planes) through TIFFRGBAImageGet in bands.
 * `out->orientation` is the Orientation tag (274), `out->page_count` the number of pages.
 */
isc_status isc_tiff_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels, uint32_t page,
                                isc_luma_image *out, char *message, size_t message_size);

/**
 * Decodes a WebP held in memory to luminance (libwebp 1.2: WebPDemux for the first frame of an
 * animation and the EXIF chunk, WebPDecode to YUV, or to RGBA composited over white when the
 * image has alpha). `out->orientation` comes from the EXIF chunk.
 */
isc_status isc_webp_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                isc_luma_image *out, char *message, size_t message_size);

/**
 * Decodes the first frame of a GIF held in memory to luminance (giflib 5, DGifOpen with a memory
 * reader, DGifGetLine row by row: later frames are never read). The frame is placed on its
 * logical screen, which is white; the transparent colour (Graphic Control Extension) is white.
 */
isc_status isc_gif_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                               isc_luma_image *out, char *message, size_t message_size);

/**
 * Decodes the primary image of a HEIF/HEIC (HEVC) or AVIF file held in memory to luminance
 * (libheif 1.15, heif_decode_image to heif_chroma_monochrome). The HEIF transforms (irot, imir,
 * clap) are applied by libheif, so the result is upright and `out->orientation` is 1.
 */
isc_status isc_heif_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                                isc_luma_image *out, char *message, size_t message_size);

/**
 * Decodes a Windows bitmap (BMP) held in memory to luminance: BITMAPCOREHEADER (12 bytes) and
 * BITMAPINFOHEADER and its V2–V5 successors (40…124 bytes); 1/4/8-bit palette, 16-bit (5-5-5 or
 * bit fields), 24-bit, 32-bit (BGRX or bit fields), bottom-up or top-down. Every offset and size
 * is checked against `size`. RLE and embedded JPEG/PNG bitmaps are ISC_ERR_UNSUPPORTED.
 */
isc_status isc_bmp_decode_luma(const uint8_t *data, size_t size, uint64_t max_pixels,
                               isc_luma_image *out, char *message, size_t message_size);

/**
 * As isc_tiff_decode_luma, isc_webp_decode_luma, isc_gif_decode_luma, isc_heif_decode_luma and
 * isc_bmp_decode_luma, reading the open regular file `fd` with pread(2) only as far as the image
 * needs, so memory follows the image size, not the file size: TIFF through libtiff's client
 * procedures (strips read as needed, never mapped), GIF through giflib's read function (the
 * first frame, then stop), HEIF through libheif's heif_reader (the boxes it parses and the coded
 * image), WebP the RIFF length its header declares (at most 4 bytes a canvas pixel + 16 MiB,
 * whatever the header claims), BMP its headers and palette (2 KiB at most) and the rows its
 * header declares. `fd` stays open and its offset is not moved.
 */
isc_status isc_tiff_decode_luma_fd(int fd, uint64_t max_pixels, uint32_t page,
                                   isc_luma_image *out, char *message, size_t message_size);
isc_status isc_webp_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size);
isc_status isc_gif_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size);
isc_status isc_heif_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size);
isc_status isc_bmp_decode_luma_fd(int fd, uint64_t max_pixels, isc_luma_image *out, char *message, size_t message_size);

/**
 * EXIF orientation (1…8) from an EXIF block that starts with "Exif\0\0" or directly with a
 * TIFF header ("II*\0" / "MM\0*"), via libexif. Returns 0 when absent or invalid.
 */
int isc_exif_orientation(const uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif
#endif

// SPDX-License-Identifier: Apache-2.0
/*
 * fakev4l2 — a fake V4L2 capture device for tests, with no kernel module.
 *
 * Build: cc -O2 -shared -fPIC -o libfakev4l2.so fakev4l2.c -ljpeg -lpng
 * Use:   LD_PRELOAD=./libfakev4l2.so FAKE_V4L2_FRAMES=book.png isbnscan camera
 *    or  dlopen it and call its open/close/ioctl/mmap/munmap/poll/read (what
 *        isc_v4l2_use_syscalls_from in Sources/CV4L2 does for in-process tests).
 *
 * It interposes open/open64/openat/close/ioctl/mmap/mmap64/munmap/poll/select/read. Calls on
 * any other file go straight to the kernel with syscall(2), so no dlsym(RTLD_NEXT) is needed
 * and the same code works preloaded or dlopen'ed. Preloaded, it also interposes
 * opendir/readdir/readdir64/closedir (through dlsym(RTLD_NEXT), libc's own) so that the
 * device's folder lists the device, as /dev lists a real camera: `isbnscan devices` finds it. The device fd is a real descriptor (a
 * memfd named "fakev4l2-device") so /proc/self/fd shows it; each buffer is a memfd named
 * "fakev4l2-buffer", so the mapping the program gets is real shared memory and shows in
 * /proc/self/maps. Tests count both to prove nothing leaks.
 *
 * Configuration (environment, read at every open of the device):
 *   FAKE_V4L2_DEVICE   path served (default /dev/video0)
 *   FAKE_V4L2_FRAMES   images separated by ':' (binary PGM P5 8-bit, or PNG); "blank" = white.
 *                      Each image is centred on a white frame of the negotiated size.
 *   FAKE_V4L2_FRAMES_PER_IMAGE  frames each image is shown for (default 10)
 *   FAKE_V4L2_LOOP     1 (default): start the list again; 0: white frames after the last image
 *   FAKE_V4L2_FORMATS  formats offered, in ENUM_FMT order, comma-separated, from
 *                      YUYV, GREY, NV12, MJPG, MJPG-NODHT (MJPG frames without Huffman tables),
 *                      MJPG-422 (chroma halved across only, as many UVC cameras send; MJPG is
 *                      4:2:0), MJPG-RST (a restart marker after every MCU row) (default YUYV,MJPG)
 *   FAKE_V4L2_SIZES    discrete frame sizes (default 640x480,1280x720,320x240)
 *   FAKE_V4L2_QUALITY  JPEG quality of MJPG frames, 1-100 (default 85)
 *   FAKE_V4L2_PAD      extra bytes at the end of every line (bytesperline > minimum; default 0)
 *   FAKE_V4L2_CHROMA   neutral: YUYV and NV12 frames get neutral chroma (128, a grey picture);
 *                      default: far from neutral (U 0x10, V 0xF0; NV12 0x40), so a decoder
 *                      that mixes chroma into luminance fails
 *   FAKE_V4L2_FPS      frames per second; 0 = as fast as asked. Default: what S_PARM set, else 30
 *   FAKE_V4L2_IO       mmap (default: STREAMING) or read (READWRITE only)
 *   FAKE_V4L2_CARD     card name (default "Fake Camera")
 *   FAKE_V4L2_FAULT    busy | eacces (open fails) | busy-fmt (S_FMT says EBUSY: another
 *                      program streams) | notcapture (an output-only device) |
 *                      enodev-after:N (unplugged after N frames) | eagain (every other DQBUF
 *                      says EAGAIN although poll said ready) | stall-after:N (no frame after N)
 *   FAKE_V4L2_LOG      file that gets one line per event (open, s_fmt, mmap, streamon, …)
 *                      and, at exit, "exit open=<devices> mapped=<mappings> streaming=<0|1>"
 * In-process tests pass the same settings with fake_v4l2_use_settings("FRAMES=a.png\nFPS=0")
 * instead of setenv, and read the counters fake_v4l2_open_devices(), fake_v4l2_live_mappings().
 * Not thread-safe: one capture thread, as isbnscan has.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <jpeglib.h>
#include <png.h>

#define MAX_DEVICES 8
#define MAX_BUFFERS 16
#define MAX_IMAGES 32
#define MAX_FORMATS 8
#define MAX_SIZES 8
#define MAX_MAPPINGS 64

/* ---- raw system calls ------------------------------------------------------------------ */

static int sys_open(const char *path, int flags, mode_t mode) {
    return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}
static int sys_close(int fd) { return (int)syscall(SYS_close, fd); }
static ssize_t sys_write(int fd, const void *b, size_t n) { return syscall(SYS_write, fd, b, n); }
static void *sys_mmap(void *a, size_t l, int p, int f, int fd, off_t o) {
    return (void *)syscall(SYS_mmap, a, l, p, f, fd, o);
}
static int sys_munmap(void *a, size_t l) { return (int)syscall(SYS_munmap, a, l); }
static int sys_ppoll(struct pollfd *fds, nfds_t n, int timeout_ms) {
    struct timespec ts, *tp = NULL;
    if (timeout_ms >= 0) {
        ts.tv_sec = timeout_ms / 1000;
        ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        tp = &ts;
    }
    return (int)syscall(SYS_ppoll, fds, n, tp, NULL, (size_t)8);
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- settings -------------------------------------------------------------------------- */

/* Settings given with fake_v4l2_use_settings replace the environment entirely. */
static char *given_settings;

/* The value of setting `name` (FAKE_V4L2_<name> in the environment), or NULL. */
static const char *setting(const char *name) {
    if (given_settings == NULL) {
        char key[64];
        snprintf(key, sizeof key, "FAKE_V4L2_%s", name);
        return getenv(key);
    }
    static char value[4096];
    size_t n = strlen(name);
    for (const char *line = given_settings; *line; ) {
        size_t len = strcspn(line, "\n");
        if (len > n && strncmp(line, name, n) == 0 && line[n] == '=') {
            snprintf(value, sizeof value, "%.*s", (int)(len - n - 1), line + n + 1);
            return value;
        }
        line += len + (line[len] == '\n');
    }
    return NULL;
}

/* In-process tests: use `text` ("NAME=value" lines, names without FAKE_V4L2_) instead of the
 * environment, so no test has to call setenv while other threads read the environment.
 * NULL goes back to the environment. The returned value of setting() is valid until the
 * next call, so callers copy or parse it at once. */
void fake_v4l2_use_settings(const char *text) {
    free(given_settings);
    given_settings = text ? strdup(text) : NULL;
}

/* ---- log ------------------------------------------------------------------------------- */

static void log_event(const char *fmt, ...) {
    const char *path = setting("LOG");
    if (path == NULL || *path == 0) return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    int fd = sys_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    sys_write(fd, line, (size_t)n);
    sys_close(fd);
}

/* ---- images ---------------------------------------------------------------------------- */

typedef struct {
    int width, height;
    uint8_t *pixels;   /* NULL: blank (white) */
} image;

static int load_pgm(const char *path, image *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    int w, h, maxval;
    if (fscanf(f, "P5 %d %d %d", &w, &h, &maxval) != 3 || maxval != 255 || w <= 0 || h <= 0) {
        fclose(f);
        return -1;
    }
    fgetc(f);
    out->pixels = malloc((size_t)w * h);
    if (fread(out->pixels, 1, (size_t)w * h, f) != (size_t)w * h) {
        free(out->pixels);
        fclose(f);
        return -1;
    }
    fclose(f);
    out->width = w;
    out->height = h;
    return 0;
}

static int load_png(const char *path, image *out) {
    png_image png;
    memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&png, path)) return -1;
    png.format = PNG_FORMAT_GRAY;
    out->pixels = malloc(PNG_IMAGE_SIZE(png));
    png_color white = {255, 255, 255};
    if (!png_image_finish_read(&png, &white, out->pixels, 0, NULL)) {
        free(out->pixels);
        png_image_free(&png);
        return -1;
    }
    out->width = (int)png.width;
    out->height = (int)png.height;
    return 0;
}

static int load_image(const char *path, image *out) {
    memset(out, 0, sizeof *out);
    if (strcmp(path, "blank") == 0 || *path == 0) return 0;
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".png") == 0) return load_png(path, out);
    return load_pgm(path, out);
}

/* ---- formats --------------------------------------------------------------------------- */

enum { F_YUYV, F_GREY, F_NV12, F_MJPG, F_MJPG_NODHT, F_MJPG_422, F_MJPG_RST };

static uint32_t fourcc_of(int kind) {
    switch (kind) {
    case F_YUYV: return V4L2_PIX_FMT_YUYV;
    case F_GREY: return V4L2_PIX_FMT_GREY;
    case F_NV12: return V4L2_PIX_FMT_NV12;
    default: return V4L2_PIX_FMT_MJPEG;
    }
}

static const char *name_of(int kind) {
    switch (kind) {
    case F_YUYV: return "YUYV 4:2:2";
    case F_GREY: return "8-bit Greyscale";
    case F_NV12: return "Y/UV 4:2:0";
    default: return "Motion-JPEG";
    }
}

/* ---- device state ---------------------------------------------------------------------- */

typedef struct {
    int memfd;
    uint32_t length;
    long queued;    /* 0: not queued; else its place in the queue (drivers fill buffers in the order queued) */
    long content;   /* which frame image the buffer holds, −1 none */
} buffer;

typedef struct {
    int fd;                     /* −1: slot free */
    int formats[MAX_FORMATS], nformats;
    uint32_t sizes[MAX_SIZES][2];
    int nsizes;
    image images[MAX_IMAGES];
    int nimages;
    long per_image;
    int loop;
    int pad;
    int neutral_chroma;
    int quality;
    double fps;                 /* <0: not set by env */
    double parm_fps;
    int read_io;
    char card[32];
    /* faults */
    int notcapture;
    int busy_fmt;
    long enodev_after, stall_after;
    int eagain, eagain_toggle;
    int gone;
    /* negotiated */
    int kind;
    uint32_t width, height, bytesperline, sizeimage;
    /* frames, one cache entry per image (+1 blank) in the negotiated format */
    uint8_t *frames[MAX_IMAGES + 1];
    uint32_t frame_size[MAX_IMAGES + 1];
    /* streaming */
    buffer buffers[MAX_BUFFERS];
    uint32_t nbuffers;
    int streaming;
    long served;
    double start;
    long queue_serial;          /* the last QBUF's place in the queue */
} device;

static device devices[MAX_DEVICES];
static int devices_initialised;
static struct { void *addr; size_t len; } mappings[MAX_MAPPINGS];
static int live_mappings;

int fake_v4l2_open_devices(void) {
    int n = 0;
    for (int i = 0; i < MAX_DEVICES; i++) n += devices_initialised && devices[i].fd >= 0;
    return n;
}
int fake_v4l2_live_mappings(void) { return live_mappings; }

static device *find(int fd) {
    if (!devices_initialised || fd < 0) return NULL;
    for (int i = 0; i < MAX_DEVICES; i++)
        if (devices[i].fd == fd) return &devices[i];
    return NULL;
}

static int parse_kind(const char *s, size_t n) {
    if (n == 4 && !strncmp(s, "YUYV", 4)) return F_YUYV;
    if (n == 4 && !strncmp(s, "GREY", 4)) return F_GREY;
    if (n == 4 && !strncmp(s, "NV12", 4)) return F_NV12;
    if (n == 4 && !strncmp(s, "MJPG", 4)) return F_MJPG;
    if (n == 10 && !strncmp(s, "MJPG-NODHT", 10)) return F_MJPG_NODHT;
    if (n == 8 && !strncmp(s, "MJPG-422", 8)) return F_MJPG_422;
    if (n == 8 && !strncmp(s, "MJPG-RST", 8)) return F_MJPG_RST;
    return -1;
}

static void configure(device *d) {
    const char *v;
    v = setting("FORMATS");
    if (v == NULL || *v == 0) v = "YUYV,MJPG";
    d->nformats = 0;
    while (*v && d->nformats < MAX_FORMATS) {
        size_t n = strcspn(v, ",");
        int kind = parse_kind(v, n);
        if (kind >= 0) d->formats[d->nformats++] = kind;
        v += n + (v[n] == ',');
    }
    v = setting("SIZES");
    if (v == NULL || *v == 0) v = "640x480,1280x720,320x240";
    d->nsizes = 0;
    while (*v && d->nsizes < MAX_SIZES) {
        unsigned w, h;
        if (sscanf(v, "%ux%u", &w, &h) == 2) {
            d->sizes[d->nsizes][0] = w;
            d->sizes[d->nsizes][1] = h;
            d->nsizes++;
        }
        size_t n = strcspn(v, ",");
        v += n + (v[n] == ',');
    }
    d->nimages = 0;
    v = setting("FRAMES");
    if (v == NULL) v = "blank";
    while (d->nimages < MAX_IMAGES) {
        size_t n = strcspn(v, ":");
        char path[4096];
        snprintf(path, sizeof path, "%.*s", (int)n, v);
        if (load_image(path, &d->images[d->nimages]) != 0) {
            fprintf(stderr, "fakev4l2: cannot read image '%s' (PGM P5 8-bit or PNG)\n", path);
            memset(&d->images[d->nimages], 0, sizeof(image));
        }
        d->nimages++;
        if (v[n] == 0) break;
        v += n + 1;
    }
    v = setting("FRAMES_PER_IMAGE");
    d->per_image = v ? atol(v) : 10;
    if (d->per_image < 1) d->per_image = 1;
    v = setting("LOOP");
    d->loop = v ? atoi(v) : 1;
    v = setting("PAD");
    d->pad = v ? atoi(v) : 0;
    v = setting("CHROMA");
    d->neutral_chroma = v && strcmp(v, "neutral") == 0;
    v = setting("QUALITY");
    d->quality = v && *v ? atoi(v) : 85;
    if (d->quality < 1 || d->quality > 100) d->quality = 85;
    v = setting("FPS");
    d->fps = v && *v ? atof(v) : -1;
    d->parm_fps = 30;
    v = setting("IO");
    d->read_io = v && !strcmp(v, "read");
    v = setting("CARD");
    snprintf(d->card, sizeof d->card, "%s", v ? v : "Fake Camera");
    v = setting("FAULT");
    if (v == NULL) v = "";
    d->notcapture = !strcmp(v, "notcapture");
    d->busy_fmt = !strcmp(v, "busy-fmt");
    d->eagain = !strcmp(v, "eagain");
    d->enodev_after = !strncmp(v, "enodev-after:", 13) ? atol(v + 13) : -1;
    d->stall_after = !strncmp(v, "stall-after:", 12) ? atol(v + 12) : -1;
    d->kind = d->nformats ? d->formats[0] : F_YUYV;
    d->width = d->nsizes ? d->sizes[0][0] : 640;
    d->height = d->nsizes ? d->sizes[0][1] : 480;
}

/* ---- frame synthesis ------------------------------------------------------------------- */

/* The luminance frame for image `i` (or blank when i < 0): centred, white around. */
static uint8_t *compose(device *d, int i) {
    uint32_t w = d->width, h = d->height;
    uint8_t *y = malloc((size_t)w * h);
    memset(y, 255, (size_t)w * h);
    if (i < 0 || d->images[i].pixels == NULL) return y;
    const image *im = &d->images[i];
    int ox = ((int)w - im->width) / 2, oy = ((int)h - im->height) / 2;
    for (int row = 0; row < im->height; row++) {
        int fy = oy + row;
        if (fy < 0 || fy >= (int)h) continue;
        for (int col = 0; col < im->width; col++) {
            int fx = ox + col;
            if (fx >= 0 && fx < (int)w) y[(size_t)fy * w + fx] = im->pixels[(size_t)row * im->width + col];
        }
    }
    return y;
}

static uint8_t *encode_jpeg(device *d, const uint8_t *y, uint32_t *size, int strip_dht) {
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    unsigned char *out = NULL;
    unsigned long out_size = 0;
    jpeg_mem_dest(&c, &out, &out_size);
    c.image_width = d->width;
    c.image_height = d->height;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;   /* YCbCr 4:2:0 like a webcam */
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, d->quality, TRUE);
    if (d->kind == F_MJPG_422) c.comp_info[0].v_samp_factor = 1;   /* Y 2x1, Cb and Cr 1x1 */
    if (d->kind == F_MJPG_RST) c.restart_in_rows = 1;
    jpeg_start_compress(&c, TRUE);
    uint8_t *rgb = malloc((size_t)d->width * 3);
    while (c.next_scanline < c.image_height) {
        const uint8_t *src = y + (size_t)c.next_scanline * d->width;
        for (uint32_t x = 0; x < d->width; x++) rgb[3 * x] = rgb[3 * x + 1] = rgb[3 * x + 2] = src[x];
        JSAMPROW row = rgb;
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    free(rgb);
    if (strip_dht) {
        /* Drop every DHT (FFC4) segment before SOS, as many webcams do. */
        size_t r = 2, w = 2;
        while (r + 4 <= out_size && out[r] == 0xFF && out[r + 1] != 0xDA) {
            size_t len = 2 + ((size_t)out[r + 2] << 8 | out[r + 3]);
            if (out[r + 1] != 0xC4) {
                memmove(out + w, out + r, len);
                w += len;
            }
            r += len;
        }
        memmove(out + w, out + r, out_size - r);
        out_size -= r - w;
    }
    *size = (uint32_t)out_size;
    return out;
}

static void free_frames(device *d) {
    for (int i = 0; i <= MAX_IMAGES; i++) {
        free(d->frames[i]);
        d->frames[i] = NULL;
    }
}

static void build_frames(device *d) {
    free_frames(d);
    for (int i = 0; i <= d->nimages; i++) {
        uint8_t *y = compose(d, i < d->nimages ? i : -1);
        uint32_t w = d->width, h = d->height, bpl = d->bytesperline;
        uint8_t *f = NULL;
        uint32_t size = d->sizeimage;
        switch (d->kind) {
        case F_GREY:
            f = calloc(1, size);
            for (uint32_t r = 0; r < h; r++) memcpy(f + (size_t)r * bpl, y + (size_t)r * w, w);
            break;
        case F_YUYV:
            f = calloc(1, size);
            for (uint32_t r = 0; r < h; r++) {
                uint8_t *dst = f + (size_t)r * bpl;
                for (uint32_t x = 0; x < w; x++) {
                    dst[2 * x] = y[(size_t)r * w + x];
                    dst[2 * x + 1] = d->neutral_chroma ? 0x80 : (x & 1) ? 0xF0 : 0x10;   /* V, U: far from neutral on purpose */
                }
            }
            break;
        case F_NV12:
            f = calloc(1, size);
            for (uint32_t r = 0; r < h; r++) memcpy(f + (size_t)r * bpl, y + (size_t)r * w, w);
            memset(f + (size_t)bpl * h, d->neutral_chroma ? 0x80 : 0x40, (size_t)bpl * (h / 2));
            break;
        default:
            f = encode_jpeg(d, y, &size, d->kind == F_MJPG_NODHT);
            break;
        }
        free(y);
        d->frames[i] = f;
        d->frame_size[i] = size;
    }
}

/* Which cached frame number `n` shows: an image index, or nimages for blank. */
static int frame_image(device *d, long n) {
    long i = n / d->per_image;
    if (i >= d->nimages) {
        if (!d->loop) return d->nimages;
        i %= d->nimages;
    }
    return (int)i;
}

static double fps_of(device *d) { return d->fps >= 0 ? d->fps : d->parm_fps; }

/* Seconds until frame `served` is due (≤ 0: now). */
static double wait_time(device *d) {
    double fps = fps_of(d);
    if (fps <= 0) return 0;
    return d->start + (double)d->served / fps - now_seconds();
}

static int stalled(device *d) { return d->stall_after >= 0 && d->served >= d->stall_after; }

static int has_queued(device *d) {
    for (uint32_t i = 0; i < d->nbuffers; i++)
        if (d->buffers[i].queued) return 1;
    return 0;
}

/* ---- buffers --------------------------------------------------------------------------- */

static void free_buffers(device *d) {
    for (uint32_t i = 0; i < d->nbuffers; i++) sys_close(d->buffers[i].memfd);
    d->nbuffers = 0;
}

static int fill_buffer(device *d, buffer *b, long n) {
    int image_index = frame_image(d, n);
    if (b->content != image_index) {
        uint32_t size = d->frame_size[image_index];
        if (size > b->length) size = b->length;
        if (pwrite(b->memfd, d->frames[image_index], size, 0) != (ssize_t)size) return errno;
        b->content = image_index;
    }
    return 0;
}

/* ---- ioctl ----------------------------------------------------------------------------- */

static void set_format(device *d, struct v4l2_pix_format *p) {
    int kind = -1;
    for (int i = 0; i < d->nformats; i++)
        if (fourcc_of(d->formats[i]) == p->pixelformat) { kind = d->formats[i]; break; }
    if (kind < 0) kind = d->formats[0];   /* drivers pick a supported one */
    /* nearest discrete size */
    long best = -1;
    uint32_t bw = d->sizes[0][0], bh = d->sizes[0][1];
    for (int i = 0; i < d->nsizes; i++) {
        long dw = (long)d->sizes[i][0] - p->width, dh = (long)d->sizes[i][1] - p->height;
        long dist = labs(dw) + labs(dh);
        if (best < 0 || dist < best) { best = dist; bw = d->sizes[i][0]; bh = d->sizes[i][1]; }
    }
    p->pixelformat = fourcc_of(kind);
    p->width = bw;
    p->height = bh;
    p->field = V4L2_FIELD_NONE;
    switch (kind) {
    case F_YUYV: p->bytesperline = bw * 2 + d->pad; p->sizeimage = p->bytesperline * bh; break;
    case F_GREY: p->bytesperline = bw + d->pad; p->sizeimage = p->bytesperline * bh; break;
    case F_NV12: p->bytesperline = bw + d->pad; p->sizeimage = p->bytesperline * bh * 3 / 2; break;
    default: p->bytesperline = 0; p->sizeimage = bw * bh * 2; break;
    }
    d->kind = kind;
}

static int device_ioctl(device *d, unsigned long request, void *arg) {
    if (d->gone) { errno = ENODEV; return -1; }
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *cap = arg;
        memset(cap, 0, sizeof *cap);
        snprintf((char *)cap->driver, sizeof cap->driver, "fakev4l2");
        snprintf((char *)cap->card, sizeof cap->card, "%s", d->card);
        snprintf((char *)cap->bus_info, sizeof cap->bus_info, "fake:0");
        cap->version = 0x060100;
        uint32_t caps = d->notcapture ? V4L2_CAP_VIDEO_OUTPUT : V4L2_CAP_VIDEO_CAPTURE;
        caps |= d->read_io ? V4L2_CAP_READWRITE : V4L2_CAP_STREAMING;
        cap->device_caps = caps;
        cap->capabilities = caps | V4L2_CAP_DEVICE_CAPS;
        log_event("querycap");
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || d->notcapture || f->index >= (uint32_t)d->nformats) {
            errno = EINVAL;
            return -1;
        }
        int kind = d->formats[f->index];
        f->pixelformat = fourcc_of(kind);
        f->flags = kind >= F_MJPG ? V4L2_FMT_FLAG_COMPRESSED : 0;
        snprintf((char *)f->description, sizeof f->description, "%s", name_of(kind));
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *s = arg;
        int known = 0;
        for (int i = 0; i < d->nformats; i++) known |= fourcc_of(d->formats[i]) == s->pixel_format;
        if (!known || s->index >= (uint32_t)d->nsizes) { errno = EINVAL; return -1; }
        s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        s->discrete.width = d->sizes[s->index][0];
        s->discrete.height = d->sizes[s->index][1];
        return 0;
    }
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || d->notcapture) { errno = EINVAL; return -1; }
        if (request == VIDIOC_S_FMT && (d->nbuffers || d->busy_fmt)) { errno = EBUSY; return -1; }
        if (request == VIDIOC_G_FMT) {
            f->fmt.pix.pixelformat = fourcc_of(d->kind);
            f->fmt.pix.width = d->width;
            f->fmt.pix.height = d->height;
        }
        int kind = d->kind;
        set_format(d, &f->fmt.pix);
        if (request == VIDIOC_S_FMT) {
            d->width = f->fmt.pix.width;
            d->height = f->fmt.pix.height;
            d->bytesperline = f->fmt.pix.bytesperline;
            d->sizeimage = f->fmt.pix.sizeimage;
            char cc[5];
            memcpy(cc, &f->fmt.pix.pixelformat, 4);
            cc[4] = 0;
            log_event("s_fmt %s %ux%u", cc, d->width, d->height);
            build_frames(d);
        } else {
            d->kind = kind;
        }
        return 0;
    }
    case VIDIOC_S_PARM:
    case VIDIOC_G_PARM: {
        struct v4l2_streamparm *p = arg;
        if (p->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) { errno = EINVAL; return -1; }
        if (request == VIDIOC_S_PARM && p->parm.capture.timeperframe.numerator > 0
            && p->parm.capture.timeperframe.denominator > 0)
            d->parm_fps = (double)p->parm.capture.timeperframe.denominator / p->parm.capture.timeperframe.numerator;
        memset(&p->parm, 0, sizeof p->parm);
        p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        p->parm.capture.timeperframe.numerator = 1000;
        p->parm.capture.timeperframe.denominator = (uint32_t)(d->parm_fps * 1000);
        return 0;
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *r = arg;
        if (d->read_io || r->memory != V4L2_MEMORY_MMAP || r->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
            errno = EINVAL;
            return -1;
        }
        if (d->streaming) { errno = EBUSY; return -1; }
        free_buffers(d);
        uint32_t n = r->count;
        if (n > MAX_BUFFERS) n = MAX_BUFFERS;
        if (n > 0 && n < 2) n = 2;
        if (d->sizeimage == 0) {
            struct v4l2_pix_format p = {.width = d->width, .height = d->height, .pixelformat = fourcc_of(d->kind)};
            set_format(d, &p);
            d->bytesperline = p.bytesperline;
            d->sizeimage = p.sizeimage;
            build_frames(d);
        }
        for (uint32_t i = 0; i < n; i++) {
            buffer *b = &d->buffers[i];
            b->memfd = memfd_create("fakev4l2-buffer", MFD_CLOEXEC);
            b->length = (d->sizeimage + 4095) & ~4095u;
            if (b->memfd < 0 || ftruncate(b->memfd, b->length) != 0) {
                int e = errno;
                d->nbuffers = i + (b->memfd >= 0);
                free_buffers(d);
                errno = e;
                return -1;
            }
            b->queued = 0;
            b->content = -1;
        }
        d->nbuffers = n;
        r->count = n;
        log_event("reqbufs %u", n);
        return 0;
    }
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF: {
        struct v4l2_buffer *b = arg;
        if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || b->memory != V4L2_MEMORY_MMAP) { errno = EINVAL; return -1; }
        if (request == VIDIOC_QUERYBUF) {
            if (b->index >= d->nbuffers) { errno = EINVAL; return -1; }
            b->m.offset = b->index << 24;
            b->length = d->buffers[b->index].length;
            b->flags = d->buffers[b->index].queued ? V4L2_BUF_FLAG_QUEUED : 0;
            return 0;
        }
        if (request == VIDIOC_QBUF) {
            if (b->index >= d->nbuffers || d->buffers[b->index].queued) { errno = EINVAL; return -1; }
            d->buffers[b->index].queued = ++d->queue_serial;
            return 0;
        }
        /* DQBUF */
        if (!d->streaming) { errno = EINVAL; return -1; }
        if (d->enodev_after >= 0 && d->served >= d->enodev_after) {
            d->gone = 1;
            log_event("unplugged after %ld frames", d->served);
            errno = ENODEV;
            return -1;
        }
        if (d->eagain && (d->eagain_toggle ^= 1)) { errno = EAGAIN; return -1; }
        if (stalled(d) || !has_queued(d) || wait_time(d) > 0) { errno = EAGAIN; return -1; }
        /* The buffer queued first, as a driver's queue (vb2) gives them back: a program that
         * queues each buffer back at once gets them in turn. */
        uint32_t index = 0;
        while (!d->buffers[index].queued) index++;
        for (uint32_t i = index + 1; i < d->nbuffers; i++)
            if (d->buffers[i].queued && d->buffers[i].queued < d->buffers[index].queued) index = i;
        buffer *buf = &d->buffers[index];
        int e = fill_buffer(d, buf, d->served);
        if (e) { errno = e; return -1; }
        buf->queued = 0;
        b->index = index;
        b->bytesused = d->frame_size[buf->content];
        b->sequence = (uint32_t)d->served;
        b->flags = V4L2_BUF_FLAG_MAPPED;
        b->field = V4L2_FIELD_NONE;
        d->served++;
        return 0;
    }
    case VIDIOC_STREAMON:
        if (d->nbuffers == 0) { errno = EINVAL; return -1; }
        if (!d->streaming) {
            d->streaming = 1;
            d->start = now_seconds();
            log_event("streamon");
        }
        return 0;
    case VIDIOC_STREAMOFF:
        if (d->streaming) log_event("streamoff after %ld frames", d->served);
        d->streaming = 0;
        for (uint32_t i = 0; i < d->nbuffers; i++) d->buffers[i].queued = 0;
        return 0;
    default:
        errno = ENOTTY;
        return -1;
    }
}

/* ---- readiness (poll/select) ----------------------------------------------------------- */

/* POLLIN when a frame can be dequeued now, POLLERR|POLLHUP when gone, 0 not yet. `*wait`
 * gets the seconds until it may become ready (−1: not by itself). */
static short readiness(device *d, double *wait) {
    *wait = -1;
    if (d->gone) return POLLERR | POLLHUP;
    if (d->enodev_after >= 0 && d->served >= d->enodev_after) return POLLERR | POLLHUP;
    if (d->read_io) {
        if (!d->streaming) { d->streaming = 1; d->start = now_seconds(); }
    } else if (!d->streaming || !has_queued(d)) {
        return POLLERR;
    }
    if (stalled(d)) return 0;
    double t = wait_time(d);
    if (t <= 0) return POLLIN | POLLRDNORM;
    *wait = t;
    return 0;
}

/* Poll the fake fds in `fds` (and the real ones through the kernel). */
static int fake_poll(struct pollfd *fds, nfds_t n, int timeout) {
    double deadline = timeout < 0 ? -1 : now_seconds() + timeout / 1000.0;
    for (;;) {
        int ready = 0;
        double soonest = -1;
        struct pollfd real[64];
        nfds_t nreal = n < 64 ? n : 64;
        for (nfds_t i = 0; i < nreal; i++) {
            real[i] = fds[i];
            device *d = find(fds[i].fd);
            if (d) {
                double w;
                fds[i].revents = readiness(d, &w) & (fds[i].events | POLLERR | POLLHUP | POLLNVAL);
                if (fds[i].revents) ready++;
                if (w >= 0 && (soonest < 0 || w < soonest)) soonest = w;
                real[i].fd = -1;   /* the kernel ignores negative fds */
            }
        }
        int wait_ms;
        if (ready) {
            wait_ms = 0;
        } else {
            double limit = deadline < 0 ? soonest : deadline - now_seconds();
            if (soonest >= 0 && soonest < limit) limit = soonest;
            wait_ms = limit < 0 ? (deadline < 0 ? -1 : 0) : (int)(limit * 1000 + 0.999);
        }
        int r = sys_ppoll(real, nreal, wait_ms);   /* EINTR passes through to the caller */
        if (r < 0) return r;
        for (nfds_t i = 0; i < nreal; i++)
            if (real[i].fd >= 0) { fds[i].revents = real[i].revents; ready += real[i].revents != 0; }
        if (ready) return ready;
        if (deadline >= 0 && now_seconds() >= deadline) return 0;
    }
}

static int any_fake(struct pollfd *fds, nfds_t n) {
    for (nfds_t i = 0; i < n; i++)
        if (find(fds[i].fd)) return 1;
    return 0;
}

/* ---- interposed entry points ----------------------------------------------------------- */

static const char *served_device(void) {
    const char *served = setting("DEVICE");
    return served == NULL || *served == 0 ? "/dev/video0" : served;
}

static int fake_open(const char *path, int flags, mode_t mode) {
    const char *served = served_device();
    if (path == NULL || strcmp(path, served) != 0) return sys_open(path, flags, mode);
    const char *fault = setting("FAULT");
    if (fault && !strcmp(fault, "busy")) { log_event("open EBUSY"); errno = EBUSY; return -1; }
    if (fault && !strcmp(fault, "eacces")) { log_event("open EACCES"); errno = EACCES; return -1; }
    if (!devices_initialised) {
        for (int i = 0; i < MAX_DEVICES; i++) devices[i].fd = -1;
        devices_initialised = 1;
    }
    device *d = NULL;
    for (int i = 0; i < MAX_DEVICES; i++)
        if (devices[i].fd < 0) { d = &devices[i]; break; }
    if (d == NULL) { errno = EMFILE; return -1; }
    int fd = memfd_create("fakev4l2-device", (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
    if (fd < 0) return -1;
    memset(d, 0, sizeof *d);
    d->fd = fd;
    configure(d);
    log_event("open %s", path);
    return fd;
}

int open(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return fake_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return fake_open(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (dirfd != AT_FDCWD && path[0] != '/') return (int)syscall(SYS_openat, dirfd, path, flags, mode);
    return fake_open(path, flags, mode);
}

int close(int fd) {
    device *d = find(fd);
    if (d) {
        if (d->streaming) log_event("streamoff at close");
        d->streaming = 0;
        free_buffers(d);
        free_frames(d);
        for (int i = 0; i < d->nimages; i++) free(d->images[i].pixels);
        d->fd = -1;
        log_event("close");
    }
    return sys_close(fd);
}

int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    device *d = find(fd);
    if (d) return device_ioctl(d, request, arg);
    return (int)syscall(SYS_ioctl, fd, request, arg);
}

void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
    device *d = find(fd);
    if (d == NULL) return sys_mmap(addr, length, prot, flags, fd, offset);
    if (d->gone) { errno = ENODEV; return MAP_FAILED; }
    uint32_t index = (uint32_t)(offset >> 24);
    if ((offset & 0xFFFFFF) || index >= d->nbuffers || length > d->buffers[index].length) {
        errno = EINVAL;
        return MAP_FAILED;
    }
    void *p = sys_mmap(addr, length, prot, flags, d->buffers[index].memfd, 0);
    if (p == MAP_FAILED) return p;
    for (int i = 0; i < MAX_MAPPINGS; i++)
        if (mappings[i].addr == NULL) { mappings[i].addr = p; mappings[i].len = length; break; }
    live_mappings++;
    log_event("mmap %u", index);
    return p;
}

void *mmap64(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
    return mmap(addr, length, prot, flags, fd, offset);
}

int munmap(void *addr, size_t length) {
    for (int i = 0; i < MAX_MAPPINGS; i++)
        if (addr != NULL && mappings[i].addr == addr) {
            mappings[i].addr = NULL;
            live_mappings--;
            log_event("munmap");
            break;
        }
    return sys_munmap(addr, length);
}

int poll(struct pollfd *fds, nfds_t n, int timeout) {
    if (!any_fake(fds, n)) return sys_ppoll(fds, n, timeout);
    return fake_poll(fds, n, timeout);
}

int select(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds, struct timeval *timeout) {
    int fake = -1;
    for (int fd = 0; readfds && fd < nfds; fd++)
        if (FD_ISSET(fd, readfds) && find(fd)) { fake = fd; break; }
    if (fake < 0) {
        struct timespec ts, *tp = NULL;
        if (timeout) { ts.tv_sec = timeout->tv_sec; ts.tv_nsec = timeout->tv_usec * 1000; tp = &ts; }
        return (int)syscall(SYS_pselect6, nfds, readfds, writefds, exceptfds, tp, NULL);
    }
    /* Only the fake fd is supported in a select set. */
    struct pollfd p = {.fd = fake, .events = POLLIN};
    int ms = timeout ? (int)(timeout->tv_sec * 1000 + timeout->tv_usec / 1000) : -1;
    int r = fake_poll(&p, 1, ms);
    if (r < 0) return r;
    FD_ZERO(readfds);
    if (writefds) FD_ZERO(writefds);
    if (exceptfds) FD_ZERO(exceptfds);
    if (p.revents & (POLLIN | POLLERR)) FD_SET(fake, readfds);
    return r;
}

ssize_t read(int fd, void *buf, size_t count) {
    device *d = find(fd);
    if (d == NULL) return syscall(SYS_read, fd, buf, count);
    if (d->gone) { errno = ENODEV; return -1; }
    if (!d->read_io) { errno = EINVAL; return -1; }
    if (!d->streaming) { d->streaming = 1; d->start = now_seconds(); }
    if (d->enodev_after >= 0 && d->served >= d->enodev_after) { d->gone = 1; errno = ENODEV; return -1; }
    if (d->sizeimage == 0) {
        struct v4l2_pix_format p = {.width = d->width, .height = d->height, .pixelformat = fourcc_of(d->kind)};
        set_format(d, &p);
        d->bytesperline = p.bytesperline;
        d->sizeimage = p.sizeimage;
        build_frames(d);
    }
    if (stalled(d) || wait_time(d) > 0) { errno = EAGAIN; return -1; }
    int image_index = frame_image(d, d->served);
    size_t size = d->frame_size[image_index];
    if (size > count) size = count;
    memcpy(buf, d->frames[image_index], size);
    d->served++;
    return (ssize_t)size;
}

__attribute__((destructor)) static void report_at_exit(void) {
    int streaming = 0;
    for (int i = 0; devices_initialised && i < MAX_DEVICES; i++) streaming |= devices[i].fd >= 0 && devices[i].streaming;
    if (setting("LOG"))
        log_event("exit open=%d mapped=%d streaming=%d", fake_v4l2_open_devices(), live_mappings, streaming);
}

/* ---- the device's folder lists it -------------------------------------------------------- */

/* The listing of the served device's folder that is open (one at a time, as `isbnscan devices`
 * lists one folder): once its real entries are read, the device's name follows unless one of
 * them was that name (a real node, or a file a test put there). */
static DIR *listing;
static int listing_named, listing_done;

/* 1 when `path` names the folder of the served device (trailing slashes aside). */
static int is_device_folder(const char *path) {
    const char *served = served_device(), *slash = strrchr(served, '/');
    if (path == NULL || slash == NULL) return 0;
    size_t folder = slash == served ? 1 : (size_t)(slash - served), n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    return n == folder && strncmp(path, served, n) == 0;
}

DIR *opendir(const char *path) {
    static DIR *(*real)(const char *);
    if (real == NULL) real = (DIR *(*)(const char *))dlsym(RTLD_NEXT, "opendir");
    DIR *dir = real(path);
    if (dir && is_device_folder(path)) { listing = dir; listing_named = 0; listing_done = 0; }
    return dir;
}

int closedir(DIR *dir) {
    static int (*real)(DIR *);
    if (real == NULL) real = (int (*)(DIR *))dlsym(RTLD_NEXT, "closedir");
    if (dir == listing) listing = NULL;
    return real(dir);
}

/* The entry readdir or readdir64 returns after the real ones: the device as a character device. */
#define LIST_DEVICE(entry_type, real_name)                                                       \
    static entry_type *(*real)(DIR *);                                                         \
    static entry_type entry;                                                                   \
    if (real == NULL) real = (entry_type * (*)(DIR *)) dlsym(RTLD_NEXT, real_name);            \
    entry_type *e = real(dir);                                                                 \
    if (dir != listing) return e;                                                              \
    const char *name = strrchr(served_device(), '/') + 1;                                      \
    if (e) { if (strcmp(e->d_name, name) == 0) listing_named = 1; return e; }                  \
    if (listing_named || listing_done || strlen(name) >= sizeof entry.d_name) return NULL;     \
    listing_done = 1;                                                                          \
    memset(&entry, 0, sizeof entry);                                                           \
    entry.d_ino = 1;                                                                           \
    entry.d_type = DT_CHR;                                                                     \
    entry.d_reclen = sizeof entry;                                                             \
    strcpy(entry.d_name, name);                                                                \
    return &entry;

struct dirent *readdir(DIR *dir) { LIST_DEVICE(struct dirent, "readdir") }
struct dirent64 *readdir64(DIR *dir) { LIST_DEVICE(struct dirent64, "readdir64") }

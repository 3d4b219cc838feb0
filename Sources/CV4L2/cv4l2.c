// SPDX-License-Identifier: Apache-2.0
/* Fixed-argument wrappers for the V4L2 ioctls (see cv4l2.h). */
#define _GNU_SOURCE
#include "cv4l2.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/videodev2.h>

/* ---- system call table ----------------------------------------------------------------- */

typedef struct {
    int (*open)(const char *, int, ...);
    int (*close)(int);
    int (*ioctl)(int, unsigned long, ...);
    void *(*mmap)(void *, size_t, int, int, int, off_t);
    int (*munmap)(void *, size_t);
    int (*poll)(struct pollfd *, nfds_t, int);
    ssize_t (*read)(int, void *, size_t);
} syscalls;

static const syscalls libc_calls = {open, close, ioctl, mmap, munmap, poll, read};
static syscalls calls = {open, close, ioctl, mmap, munmap, poll, read};
static void *loaded_library;

int isc_v4l2_use_syscalls_from(const char *library_path, char *message, size_t message_size) {
    if (library_path == NULL) {
        calls = libc_calls;
        return 0;
    }
    void *handle = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(message, message_size, "dlopen: %s", dlerror());
        return EINVAL;
    }
    static const char *names[] = {"open", "close", "ioctl", "mmap", "munmap", "poll", "read"};
    void *found[7];
    for (int i = 0; i < 7; i++) {
        found[i] = dlsym(handle, names[i]);
        if (found[i] == NULL) {
            snprintf(message, message_size, "%s has no symbol %s", library_path, names[i]);
            dlclose(handle);
            return EINVAL;
        }
    }
    /* POSIX guarantees that dlsym's object pointers convert to function pointers. */
    calls.open = (int (*)(const char *, int, ...))found[0];
    calls.close = (int (*)(int))found[1];
    calls.ioctl = (int (*)(int, unsigned long, ...))found[2];
    calls.mmap = (void *(*)(void *, size_t, int, int, int, off_t))found[3];
    calls.munmap = (int (*)(void *, size_t))found[4];
    calls.poll = (int (*)(struct pollfd *, nfds_t, int))found[5];
    calls.read = (ssize_t (*)(int, void *, size_t))found[6];
    loaded_library = handle;   /* kept loaded: mappings and fds may still point into it */
    return 0;
}

/* ioctl retried on EINTR (V4L2 ioctls may be restarted), errno returned. */
static int xioctl(int fd, unsigned long request, void *arg) {
    int r;
    do { r = calls.ioctl(fd, request, arg); } while (r == -1 && errno == EINTR);
    return r == -1 ? errno : 0;
}

/* ---- constants ------------------------------------------------------------------------- */

const uint32_t ISC_V4L2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
const uint32_t ISC_V4L2_CAP_VIDEO_CAPTURE_MPLANE = V4L2_CAP_VIDEO_CAPTURE_MPLANE;
const uint32_t ISC_V4L2_CAP_READWRITE = V4L2_CAP_READWRITE;
const uint32_t ISC_V4L2_CAP_STREAMING = V4L2_CAP_STREAMING;
const uint32_t ISC_V4L2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
const uint32_t ISC_V4L2_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR;
const short ISC_POLLIN = POLLIN, ISC_POLLERR = POLLERR, ISC_POLLHUP = POLLHUP, ISC_POLLNVAL = POLLNVAL;

uint32_t isc_v4l2_fourcc(char a, char b, char c, char d) {
    return v4l2_fourcc((uint8_t)a, (uint8_t)b, (uint8_t)c, (uint8_t)d);
}

/* ---- open / close ---------------------------------------------------------------------- */

int isc_v4l2_open(const char *path, int *fd) {
    int r;
    do { r = calls.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC); } while (r == -1 && errno == EINTR);
    if (r == -1) return errno;
    *fd = r;
    return 0;
}

int isc_v4l2_close(int fd) {
    /* Linux releases the descriptor even when close reports EINTR: never retry. */
    return calls.close(fd) == -1 ? errno : 0;
}

/* ---- VIDIOC_QUERYCAP ------------------------------------------------------------------- */

static void copy_field(char *dst, size_t size, const __u8 *src, size_t src_size) {
    size_t n = strnlen((const char *)src, src_size);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

int isc_v4l2_querycap(int fd, isc_v4l2_capability *out) {
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    memset(out, 0, sizeof *out);
    int r = xioctl(fd, VIDIOC_QUERYCAP, &cap);
    if (r) return r;
    copy_field(out->driver, sizeof out->driver, cap.driver, sizeof cap.driver);
    copy_field(out->card, sizeof out->card, cap.card, sizeof cap.card);
    copy_field(out->bus_info, sizeof out->bus_info, cap.bus_info, sizeof cap.bus_info);
    out->version = cap.version;
    out->caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    return 0;
}

/* ---- formats and sizes ----------------------------------------------------------------- */

int isc_v4l2_enum_fmt(int fd, uint32_t index, uint32_t *fourcc, uint32_t *flags,
                      char *description, size_t description_size) {
    struct v4l2_fmtdesc desc;
    memset(&desc, 0, sizeof desc);
    desc.index = index;
    desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    int r = xioctl(fd, VIDIOC_ENUM_FMT, &desc);
    if (r) return r;
    *fourcc = desc.pixelformat;
    *flags = desc.flags;
    if (description_size > 0) copy_field(description, description_size, desc.description, sizeof desc.description);
    return 0;
}

int isc_v4l2_enum_framesizes(int fd, uint32_t fourcc, uint32_t index, uint32_t *type,
                             uint32_t *min_width, uint32_t *max_width, uint32_t *step_width,
                             uint32_t *min_height, uint32_t *max_height, uint32_t *step_height) {
    struct v4l2_frmsizeenum size;
    memset(&size, 0, sizeof size);
    size.index = index;
    size.pixel_format = fourcc;
    int r = xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size);
    if (r) return r;
    *type = size.type;
    if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
        *min_width = *max_width = size.discrete.width;
        *min_height = *max_height = size.discrete.height;
        *step_width = *step_height = 0;
    } else {
        *min_width = size.stepwise.min_width;
        *max_width = size.stepwise.max_width;
        *step_width = size.stepwise.step_width;
        *min_height = size.stepwise.min_height;
        *max_height = size.stepwise.max_height;
        *step_height = size.stepwise.step_height;
    }
    return 0;
}

int isc_v4l2_s_fmt(int fd, isc_v4l2_format *fmt) {
    struct v4l2_format f;
    memset(&f, 0, sizeof f);
    f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    f.fmt.pix.width = fmt->width;
    f.fmt.pix.height = fmt->height;
    f.fmt.pix.pixelformat = fmt->fourcc;
    f.fmt.pix.field = V4L2_FIELD_NONE;
    int r = xioctl(fd, VIDIOC_S_FMT, &f);
    if (r) return r;
    fmt->width = f.fmt.pix.width;
    fmt->height = f.fmt.pix.height;
    fmt->fourcc = f.fmt.pix.pixelformat;
    fmt->bytes_per_line = f.fmt.pix.bytesperline;
    fmt->size_image = f.fmt.pix.sizeimage;
    return 0;
}

int isc_v4l2_s_fps(int fd, uint32_t fps, uint32_t *fps_num, uint32_t *fps_den) {
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe.numerator = 1;
    parm.parm.capture.timeperframe.denominator = fps;
    int r = xioctl(fd, VIDIOC_S_PARM, &parm);
    if (r) return r;
    if (!(parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)) return EINVAL;
    /* timeperframe is seconds per frame: frames per second is its inverse. */
    *fps_num = parm.parm.capture.timeperframe.denominator;
    *fps_den = parm.parm.capture.timeperframe.numerator;
    return 0;
}

/* ---- streaming I/O --------------------------------------------------------------------- */

int isc_v4l2_reqbufs(int fd, uint32_t *count) {
    struct v4l2_requestbuffers req;
    memset(&req, 0, sizeof req);
    req.count = *count;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    int r = xioctl(fd, VIDIOC_REQBUFS, &req);
    if (r) return r;
    *count = req.count;
    return 0;
}

int isc_v4l2_querybuf(int fd, uint32_t index, uint32_t *offset, uint32_t *length) {
    struct v4l2_buffer buf;
    memset(&buf, 0, sizeof buf);
    buf.index = index;
    buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buf.memory = V4L2_MEMORY_MMAP;
    int r = xioctl(fd, VIDIOC_QUERYBUF, &buf);
    if (r) return r;
    *offset = buf.m.offset;
    *length = buf.length;
    return 0;
}

int isc_v4l2_mmap(int fd, uint32_t offset, uint32_t length, void **address) {
    void *p = calls.mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    if (p == MAP_FAILED) return errno;
    *address = p;
    return 0;
}

int isc_v4l2_munmap(void *address, uint32_t length) {
    return calls.munmap(address, length) == -1 ? errno : 0;
}

int isc_v4l2_qbuf(int fd, uint32_t index) {
    struct v4l2_buffer buf;
    memset(&buf, 0, sizeof buf);
    buf.index = index;
    buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buf.memory = V4L2_MEMORY_MMAP;
    return xioctl(fd, VIDIOC_QBUF, &buf);
}

int isc_v4l2_dqbuf(int fd, uint32_t *index, uint32_t *bytes_used, uint32_t *sequence, uint32_t *flags) {
    struct v4l2_buffer buf;
    memset(&buf, 0, sizeof buf);
    buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buf.memory = V4L2_MEMORY_MMAP;
    int r = xioctl(fd, VIDIOC_DQBUF, &buf);
    if (r) return r;
    *index = buf.index;
    *bytes_used = buf.bytesused;
    *sequence = buf.sequence;
    *flags = buf.flags;
    return 0;
}

int isc_v4l2_streamon(int fd) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return xioctl(fd, VIDIOC_STREAMON, &type);
}

int isc_v4l2_streamoff(int fd) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return xioctl(fd, VIDIOC_STREAMOFF, &type);
}

/* ---- waiting and read() ---------------------------------------------------------------- */

int isc_v4l2_poll(int fd, int timeout_ms, short *revents) {
    struct pollfd p = {.fd = fd, .events = POLLIN, .revents = 0};
    int r = calls.poll(&p, 1, timeout_ms);   /* EINTR is returned: the caller checks for stop */
    *revents = r > 0 ? p.revents : 0;
    return r < 0 ? errno : 0;
}

int isc_v4l2_read(int fd, void *buffer, size_t size, size_t *count) {
    ssize_t n = calls.read(fd, buffer, size);
    if (n < 0) return errno;
    *count = (size_t)n;
    return 0;
}

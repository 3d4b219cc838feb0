// SPDX-License-Identifier: Apache-2.0
/*
 * CV4L2 — fixed-argument wrappers for the Video4Linux2 ioctls isbnscan uses.
 *
 * ioctl(2) is variadic and the VIDIOC_* request numbers and V4L2_PIX_FMT_* fourccs are C
 * macros, so Swift can call or see none of them. Every function here takes plain
 * arguments, fills plain out-parameters and returns 0 or an errno value (never -1 with errno
 * set), retrying on EINTR only where the V4L2 API says the call may simply be repeated.
 *
 * Every system call goes through one internal table: libc by default; tests point
 * it at a fake device loaded with dlopen (see Tests/FakeV4L2) without LD_PRELOAD.
 *
 * Reference: the Linux Media Infrastructure userspace API, part I "Video for Linux API"
 * (https://docs.kernel.org/userspace-api/media/v4l/v4l2.html), sections noted per function.
 */
#ifndef ISBNSCAN_CV4L2_H
#define ISBNSCAN_CV4L2_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- system call table ----------------------------------------------------------------- */

/** Routes every call below (open, close, ioctl, mmap, munmap, poll, read) through the
 *  functions of that name in the shared library at `library_path`, loaded with
 *  dlopen(RTLD_NOW | RTLD_LOCAL); NULL restores libc. Returns 0, or EINVAL with a message
 *  (dlerror's) in `message`.
 *  Not thread-safe: call it while no device is open. For tests (a fake device). */
int isc_v4l2_use_syscalls_from(const char *library_path, char *message, size_t message_size);

/* ---- constants Swift cannot see -------------------------------------------------------- */

extern const uint32_t ISC_V4L2_CAP_VIDEO_CAPTURE;        /* V4L2_CAP_VIDEO_CAPTURE */
extern const uint32_t ISC_V4L2_CAP_VIDEO_CAPTURE_MPLANE; /* V4L2_CAP_VIDEO_CAPTURE_MPLANE */
extern const uint32_t ISC_V4L2_CAP_READWRITE;            /* V4L2_CAP_READWRITE */
extern const uint32_t ISC_V4L2_CAP_STREAMING;            /* V4L2_CAP_STREAMING */
extern const uint32_t ISC_V4L2_CAP_DEVICE_CAPS;          /* V4L2_CAP_DEVICE_CAPS */

/** v4l2_fourcc(a, b, c, d): little-endian four-character code. */
uint32_t isc_v4l2_fourcc(char a, char b, char c, char d);

/* ---- open / close ---------------------------------------------------------------------- */

/** open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) into `*fd`. Returns 0 or errno. (§ "Opening
 *  and Closing Devices"). */
int isc_v4l2_open(const char *path, int *fd);
/** close(fd). Returns 0 or errno. */
int isc_v4l2_close(int fd);

/* ---- VIDIOC_QUERYCAP ------------------------------------------------------------------- */

typedef struct {
    char driver[16];
    char card[32];
    char bus_info[32];
    uint32_t version;
    /** device_caps when V4L2_CAP_DEVICE_CAPS is set (this node), else capabilities. */
    uint32_t caps;
} isc_v4l2_capability;

/** VIDIOC_QUERYCAP (§ ioctl VIDIOC_QUERYCAP). ENOTTY: not a V4L2 device. */
int isc_v4l2_querycap(int fd, isc_v4l2_capability *out);

/* ---- formats and sizes ----------------------------------------------------------------- */

/** VIDIOC_ENUM_FMT for V4L2_BUF_TYPE_VIDEO_CAPTURE, entry `index`. EINVAL past the last. */
int isc_v4l2_enum_fmt(int fd, uint32_t index, uint32_t *fourcc, uint32_t *flags,
                      char *description, size_t description_size);

/** VIDIOC_ENUM_FRAMESIZES, entry `index`. `type` is 1 discrete (only min_* set), 2
 *  continuous, 3 stepwise. EINVAL past the last. */
int isc_v4l2_enum_framesizes(int fd, uint32_t fourcc, uint32_t index, uint32_t *type,
                             uint32_t *min_width, uint32_t *max_width, uint32_t *step_width,
                             uint32_t *min_height, uint32_t *max_height, uint32_t *step_height);

typedef struct {
    uint32_t width;
    uint32_t height;
    uint32_t fourcc;
    uint32_t bytes_per_line;
    uint32_t size_image;
} isc_v4l2_format;

/** VIDIOC_S_FMT, single-planar capture, field NONE. The driver may change any field: `fmt`
 *  holds what it chose on return (§ ioctl VIDIOC_G_FMT, VIDIOC_S_FMT, VIDIOC_TRY_FMT). */
int isc_v4l2_s_fmt(int fd, isc_v4l2_format *fmt);

/** VIDIOC_S_PARM timeperframe = 1/fps; returns the driver's choice in `*fps_num / *fps_den`
 *  (frames per second as a fraction). ENOTTY/EINVAL when the driver has no frame rates. */
int isc_v4l2_s_fps(int fd, uint32_t fps, uint32_t *fps_num, uint32_t *fps_den);

/* ---- streaming I/O (memory mapping) ---------------------------------------------------- */

/** VIDIOC_REQBUFS with V4L2_MEMORY_MMAP; `*count` in: wanted, out: granted (0 frees). */
int isc_v4l2_reqbufs(int fd, uint32_t *count);
/** VIDIOC_QUERYBUF: the mmap offset and length of buffer `index`. */
int isc_v4l2_querybuf(int fd, uint32_t index, uint32_t *offset, uint32_t *length);
/** mmap(NULL, length, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset) into `*address`.
 *  Returns 0 or errno. */
int isc_v4l2_mmap(int fd, uint32_t offset, uint32_t length, void **address);
/** munmap. Returns 0 or errno. */
int isc_v4l2_munmap(void *address, uint32_t length);
/** VIDIOC_QBUF buffer `index` (V4L2_MEMORY_MMAP). */
int isc_v4l2_qbuf(int fd, uint32_t index);
/** VIDIOC_DQBUF: a filled buffer's index, bytes used, sequence number and flags. EAGAIN
 *  when none is ready (the fd is non-blocking). ENODEV: the device is gone. */
int isc_v4l2_dqbuf(int fd, uint32_t *index, uint32_t *bytes_used, uint32_t *sequence,
                   uint32_t *flags);
/** VIDIOC_STREAMON / VIDIOC_STREAMOFF for V4L2_BUF_TYPE_VIDEO_CAPTURE. STREAMOFF also
 *  dequeues every buffer. */
int isc_v4l2_streamon(int fd);
int isc_v4l2_streamoff(int fd);

/** V4L2_BUF_FLAG_ERROR: the frame is damaged (its data may still be usable). */
extern const uint32_t ISC_V4L2_BUF_FLAG_ERROR;

/* ---- waiting and read() I/O ------------------------------------------------------------ */

/** poll(2) for POLLIN on `fd`, `timeout_ms` (−1 forever). Returns 0 or errno (EINTR when a
 *  signal arrived). `*revents` gets the returned events, 0 when it timed out; POLLERR or
 *  POLLHUP without POLLIN usually means the device was unplugged. */
int isc_v4l2_poll(int fd, int timeout_ms, short *revents);
extern const short ISC_POLLIN, ISC_POLLERR, ISC_POLLHUP, ISC_POLLNVAL;

/** read(2) of one frame (V4L2_CAP_READWRITE devices); `*count` gets the byte count.
 *  Returns 0 or errno. */
int isc_v4l2_read(int fd, void *buffer, size_t size, size_t *count);

#ifdef __cplusplus
}
#endif
#endif

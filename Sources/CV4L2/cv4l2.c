/* Fixed-argument wrappers for the V4L2 ioctls (see cv4l2.h). */
#define _GNU_SOURCE
#include "cv4l2.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
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
        return -1;
    }
    static const char *names[] = {"open", "close", "ioctl", "mmap", "munmap", "poll", "read"};
    void *found[7];
    for (int i = 0; i < 7; i++) {
        found[i] = dlsym(handle, names[i]);
        if (found[i] == NULL) {
            snprintf(message, message_size, "%s has no symbol %s", library_path, names[i]);
            dlclose(handle);
            return -1;
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

int isc_v4l2_open(const char *path) {
    int fd;
    do { fd = calls.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC); } while (fd == -1 && errno == EINTR);
    return fd == -1 ? -errno : fd;
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

void *isc_v4l2_mmap(int fd, uint32_t offset, uint32_t length, int *error) {
    void *p = calls.mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    if (p == MAP_FAILED) {
        *error = errno;
        return NULL;
    }
    *error = 0;
    return p;
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
    *revents = p.revents;
    if (r < 0) return -errno;
    return r > 0 ? 1 : 0;
}

ssize_t isc_v4l2_read(int fd, void *buffer, size_t size) {
    ssize_t n = calls.read(fd, buffer, size);
    return n < 0 ? -errno : n;
}

/* ---- stop signals ---------------------------------------------------------------------- */

static volatile sig_atomic_t stop_signal;

/* A file to remove when a signal ends the process (isc_set_cleanup_path); has_cleanup says
 * whether cleanup_path holds one. */
static char cleanup_path[4097];
static volatile sig_atomic_t has_cleanup;

/* A signal that ends the process: remove the registered file, then die of the signal with its
 * default action (unlink, sigaction and raise are async-signal-safe, POSIX.1-2017 2.4.3). The
 * signal stays blocked until the handler returns, so raise() takes effect then. */
static void on_fatal(int sig) {
    int saved = errno;
    if (__atomic_load_n(&has_cleanup, __ATOMIC_SEQ_CST)) unlink(cleanup_path);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

/* The first SIGINT/SIGTERM asks for a clean stop; a second one ends the process at once
 * (on_fatal: after removing the registered file). */
static void on_stop(int sig) {
    stop_signal = sig;
    struct sigaction fatal;
    memset(&fatal, 0, sizeof fatal);
    fatal.sa_handler = on_fatal;
    sigemptyset(&fatal.sa_mask);
    sigaction(SIGINT, &fatal, NULL);
    sigaction(SIGTERM, &fatal, NULL);
}

int isc_set_cleanup_path(const char *path) {
    __atomic_store_n(&has_cleanup, 0, __ATOMIC_SEQ_CST);
    if (path == NULL) return 0;
    size_t length = strlen(path);
    if (length >= sizeof cleanup_path) return ENAMETOOLONG;
    memcpy(cleanup_path, path, length + 1);
    __atomic_store_n(&has_cleanup, 1, __ATOMIC_SEQ_CST);
    /* SIGHUP (the terminal closed) and SIGQUIT end the process too; leave them alone when
     * ignored (nohup) or already handled. */
    const int others[] = { SIGHUP, SIGQUIT };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        struct sigaction old;
        if (sigaction(others[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
            struct sigaction fatal;
            memset(&fatal, 0, sizeof fatal);
            fatal.sa_handler = on_fatal;
            sigemptyset(&fatal.sa_mask);
            sigaction(others[i], &fatal, NULL);
            /* As for SIGINT/SIGTERM: a signal blocked by the parent would never arrive. */
            sigset_t set;
            sigemptyset(&set);
            sigaddset(&set, others[i]);
            pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        }
    }
    return 0;
}

int isc_install_stop_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;   /* no SA_RESTART: poll() returns EINTR */
    if (sigaction(SIGINT, &sa, NULL) == -1) return errno;
    if (sigaction(SIGTERM, &sa, NULL) == -1) return errno;
    /* A parent may have started us with these signals blocked (posix_spawn inherits the
     * spawning thread's mask): then they would stay pending and never stop us. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int isc_stop_signal(void) { return stop_signal; }

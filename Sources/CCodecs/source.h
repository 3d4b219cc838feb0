// SPDX-License-Identifier: Apache-2.0
/* Internal: the bytes a decoder reads, either a buffer in memory or a regular file read with
 * pread(2) at the decoder's position, so that only the bytes the decoder asks for are ever read
 * (memory follows the image size, not the file size). One reader for both, so the fuzz targets
 * exercise the code the files go through. */
#ifndef ISBNSCAN_SOURCE_H
#define ISBNSCAN_SOURCE_H
#include "ccodecs.h"
#include "luma.h"
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    const uint8_t *data;  /* the bytes, when in memory; NULL for a file */
    int fd;               /* the file (data == NULL); not owned: the caller closes it */
    uint64_t size;        /* bytes in the source (the file's size when opened) */
    uint64_t pos;         /* next byte read */
    int error;            /* errno of a failed pread, else 0 */
    int short_read;       /* a read asked for bytes past the end */
} isc_source;

static inline isc_source isc_source_memory(const uint8_t *data, size_t size) {
    isc_source s = {.data = data, .fd = -1, .size = size};
    return s;
}

/* Opens `fd` as a source. ISC_OK; or, when `fd` cannot be examined, ISC_ERR_CORRUPT with
 * "fstat: <reason>" in `message`. `out` is cleared either way (the *_fd decoders' first step). */
static inline isc_status isc_source_file(isc_source *s, int fd, isc_luma_image *out, char *message,
                                         size_t message_size) {
    struct stat info;
    memset(s, 0, sizeof *s);
    memset(out, 0, sizeof *out);
    s->fd = fd;
    if (fstat(fd, &info) != 0) {
        isc_set_message(message, message_size, "fstat: %s", strerror(errno));
        return ISC_ERR_CORRUPT;
    }
    s->size = info.st_size > 0 ? (uint64_t)info.st_size : 0;
    return ISC_OK;
}

/* Reads up to `n` bytes at the position and moves it on; fewer only at the end or on an error. */
static inline size_t isc_source_read(isc_source *s, void *buffer, size_t n) {
    uint64_t left = s->pos < s->size ? s->size - s->pos : 0;
    if ((uint64_t)n > left) { s->short_read = 1; n = (size_t)left; }
    size_t done = 0;
    if (s->data != NULL) {
        if (n > 0) memcpy(buffer, s->data + s->pos, n);
        done = n;
    } else {
        while (done < n) {
            ssize_t got = pread(s->fd, (uint8_t *)buffer + done, n - done, (off_t)(s->pos + done));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) { s->error = errno; break; }
            if (got == 0) { s->short_read = 1; break; }  /* the file shrank */
            done += (size_t)got;
        }
    }
    s->pos += done;
    return done;
}
#endif

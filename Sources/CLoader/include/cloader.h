// SPDX-License-Identifier: Apache-2.0
/*
 * CLoader — shared libraries opened on first use (dlopen), for the features few runs need:
 * the preview window (SDL2, which brings X11, Wayland and the audio libraries) and the rarely
 * seen image formats (libheif with its HEVC and AV1 codecs). A scan of a PNG then maps only
 * what it uses, and a machine without those libraries still scans everything else.
 *
 * The headers of each library are still compiled in (its types and prototypes); only the
 * functions are looked up at run time, into a table typed from those prototypes.
 */
#ifndef ISBNSCAN_CLOADER_H
#define ISBNSCAN_CLOADER_H

#include <pthread.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One library opened on demand. Define it with ISC_LIBRARY(...) as a static object; the
 *  fields after `count` are the loader's. */
typedef struct isc_library {
    /** The file name given to dlopen(3): the run-time soname, e.g. "libheif.so.1". */
    const char *soname;
    /** The functions looked up (dlsym), `count` of them, and where their addresses go in the
     *  same order: a struct of function pointers made from the same list as the names (all
     *  pointers, so laid out as an array of them). */
    const char *const *names;
    void *table;
    size_t count;
    pthread_mutex_t lock;
    /** 0 not tried yet, 1 loaded, -1 failed (`error` says why); read with acquire order. */
    int state;
    char error[256];
} isc_library;

/** `names`: an array of the functions' names; `table`: the struct their addresses fill. */
#define ISC_LIBRARY(soname, names, table) \
    { (soname), (names), (void *)&(table), sizeof(names) / sizeof((names)[0]), PTHREAD_MUTEX_INITIALIZER, 0, "" }

/** Opens `library` (dlopen with RTLD_NOW | RTLD_LOCAL) and looks up its functions the first
 *  time, from any thread; later calls return the first answer without locking. Returns 1, or
 *  0 with dlerror(3)'s text (or the missing function) in `message`. A library that fails is
 *  not retried: the answer stays the same for the whole run. */
int isc_library_load(isc_library *library, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif

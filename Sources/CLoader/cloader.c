// SPDX-License-Identifier: Apache-2.0
/* dlopen on first use, once per library and process (see cloader.h). */
#include "cloader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* Every function of `library` into its table; 0 with "<name>: <dlerror>" in `error` when one is missing. */
static int resolve(isc_library *library, void *handle) {
    for (size_t i = 0; i < library->count; i++) {
        dlerror();
        void *symbol = dlsym(handle, library->names[i]);
        if (symbol == NULL) {
            const char *reason = dlerror();
            snprintf(library->error, sizeof library->error, "%s: %s", library->names[i], reason != NULL ? reason : "not found");
            return 0;
        }
        memcpy((char *)library->table + i * sizeof symbol, &symbol, sizeof symbol);
    }
    return 1;
}

int isc_library_load(isc_library *library, char *message, size_t message_size) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&library->lock);
        state = library->state;
        if (state == 0) {
            void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
            if (handle == NULL) {
                const char *reason = dlerror();
                snprintf(library->error, sizeof library->error, "%s", reason != NULL ? reason : library->soname);
                state = -1;
            } else {
                /* A library whose functions were half resolved stays open: nothing is unloaded under them. */
                state = resolve(library, handle) ? 1 : -1;
            }
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&library->lock);
    }
    if (state == 1) return 1;
    if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", library->error);
    return 0;
}

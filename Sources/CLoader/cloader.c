/* dlopen on first use, once per library and process (see cloader.h). */
#include "cloader.h"

#include <dlfcn.h>
#include <stdio.h>

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
            } else if (!library->resolve(handle, library->error, sizeof library->error)) {
                /* Kept open: a library whose symbols were half resolved is never unloaded under them. */
                state = -1;
            } else {
                state = 1;
            }
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&library->lock);
    }
    if (state == 1) return 1;
    if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", library->error);
    return 0;
}

void *isc_library_symbol(void *handle, const char *name, char *message, size_t message_size) {
    dlerror();
    void *symbol = dlsym(handle, name);
    if (symbol == NULL) {
        const char *reason = dlerror();
        snprintf(message, message_size, "%s: %s", name, reason != NULL ? reason : "not found");
    }
    return symbol;
}

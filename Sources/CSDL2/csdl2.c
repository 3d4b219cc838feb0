// SPDX-License-Identifier: Apache-2.0
/* SDL2 opened on first use (see csdl2.h). */
#include "csdl2.h"
#include "cloader.h"

static isc_sdl_api sdl;
#define ISC_SDL_NAME(name) "SDL_" #name,
static const char *const sdl_names[] = { ISC_SDL_FUNCTIONS(ISC_SDL_NAME) };
static isc_library libsdl = ISC_LIBRARY(ISC_SDL_SONAME, sdl_names, sdl);

const isc_sdl_api *isc_sdl_load(char *message, size_t message_size) {
    return isc_library_load(&libsdl, message, message_size) ? &sdl : NULL;
}

void isc_sdl_keep_signal_handlers(const isc_sdl_api *api) { api->SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1"); }

void isc_sdl_video_drivers(const isc_sdl_api *api, const char *drivers) { api->SetHint(SDL_HINT_VIDEODRIVER, drivers); }

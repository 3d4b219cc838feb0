// SPDX-License-Identifier: Apache-2.0
/*
 * CSDL2 — SDL2 for the camera preview window, opened on first use (see cloader.h): SDL brings
 * X11, Wayland, PulseAudio and ALSA, which a scan or a camera run without --preview should not
 * spend its start-up mapping, and a machine without libsdl2-2.0-0 still runs everything else.
 *
 * SDL's headers (Debian libsdl2-dev) give the types, constants and prototypes; the functions are
 * called through the table isc_sdl_load returns, never directly (the binary does not link SDL).
 * Swift cannot see function-like macros or string hint names: those are re-exported here.
 */
#ifndef ISBNSCAN_CSDL2_H
#define ISBNSCAN_CSDL2_H

#include <SDL2/SDL.h>
#include <stddef.h>

/* The SDL functions the preview calls, each as SDL_<name>. */
#define ISC_SDL_FUNCTIONS(X) \
    X(CreateRenderer) X(CreateTexture) X(CreateWindow) X(DestroyRenderer) X(DestroyTexture) \
    X(DestroyWindow) X(GetError) X(InitSubSystem) X(PollEvent) X(Quit) X(QuitSubSystem) \
    X(RenderClear) X(RenderCopy) X(RenderDrawLines) X(RenderDrawPoints) X(RenderFillRect) \
    X(RenderFillRects) X(RenderPresent) X(RenderReadPixels) X(RenderSetLogicalSize) \
    X(SetHint) X(SetRenderDrawColor) X(SetWindowSize) X(UpdateNVTexture) X(UpdateTexture) \
    X(UpdateYUVTexture)

/** SDL's functions, `CreateWindow` for SDL_CreateWindow and so on, with SDL's own signatures. */
typedef struct isc_sdl_api {
#define ISC_SDL_POINTER(name) __typeof__(SDL_##name) *_Nonnull name;
    ISC_SDL_FUNCTIONS(ISC_SDL_POINTER)
#undef ISC_SDL_POINTER
} isc_sdl_api;

/** The file opened (dlopen): SDL2's soname, from Debian's libsdl2-2.0-0. */
#define ISC_SDL_SONAME "libSDL2-2.0.so.0"

/** Opens SDL the first time (any thread) and returns its functions; NULL with dlerror(3)'s text
 *  (or the missing function) in `message` when it cannot. The answer stays for the whole run. */
const isc_sdl_api *_Nullable isc_sdl_load(char *_Nonnull message, size_t message_size);

/** SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1"): SDL must not replace the program's SIGINT
 *  and SIGTERM handlers (isbnscan's stop flag releases the camera first). */
void isc_sdl_keep_signal_handlers(const isc_sdl_api *_Nonnull sdl);

/** SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers), e.g. "x11,wayland": only these drivers are
 *  tried (the SDL_VIDEODRIVER environment variable still wins). */
void isc_sdl_video_drivers(const isc_sdl_api *_Nonnull sdl, const char *_Nonnull drivers);

/** SDL_WINDOWPOS_UNDEFINED: let the window manager place the window. */
static inline int isc_sdl_windowpos_undefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }

/** SDL_INIT_VIDEO. */
static inline Uint32 isc_sdl_init_video(void) { return SDL_INIT_VIDEO; }
#endif

#ifndef ISBNSCAN_CSDL2_SHIM_H
#define ISBNSCAN_CSDL2_SHIM_H
/* SDL2 (Debian libsdl2-dev, pkg-config sdl2) for the camera preview window. Swift cannot see
 * function-like macros or hint names defined as string macros: they are re-exported here. */
#include <SDL.h>

/** SDL_WINDOWPOS_UNDEFINED: let the window manager place the window. */
static inline int isc_sdl_windowpos_undefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }

/** SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1"): SDL must not replace the program's SIGINT
 *  and SIGTERM handlers (isbnscan's stop flag releases the camera first). */
static inline void isc_sdl_keep_signal_handlers(void) { SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1"); }

/** SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers), e.g. "x11,wayland": only these drivers are
 *  tried (the SDL_VIDEODRIVER environment variable still wins). */
static inline void isc_sdl_video_drivers(const char *drivers) { SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers); }

/** SDL_INIT_VIDEO. */
static inline Uint32 isc_sdl_init_video(void) { return SDL_INIT_VIDEO; }
#endif

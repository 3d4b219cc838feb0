// SPDX-License-Identifier: Apache-2.0
/*
 * xclose — asks an X11 window to close, as a window manager's close button does: a
 * WM_PROTOCOLS ClientMessage carrying WM_DELETE_WINDOW (ICCCM § 4.2.8.1). Tests use it to close
 * the preview window under Xvfb, which has no window manager (xdotool 3.2016 cannot send it).
 *
 * Build: cc -o xclose xclose.c -lX11      Use: DISPLAY=:n xclose <window id>
 */
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: xclose <window id>\n"); return 2; }
    Display *display = XOpenDisplay(NULL);
    if (display == NULL) { fprintf(stderr, "xclose: cannot open display\n"); return 1; }
    Window window = (Window)strtoul(argv[1], NULL, 0);
    XEvent event = {0};
    event.xclient.type = ClientMessage;
    event.xclient.window = window;
    event.xclient.message_type = XInternAtom(display, "WM_PROTOCOLS", False);
    event.xclient.format = 32;
    event.xclient.data.l[0] = (long)XInternAtom(display, "WM_DELETE_WINDOW", False);
    event.xclient.data.l[1] = CurrentTime;
    XSendEvent(display, window, False, NoEventMask, &event);
    XCloseDisplay(display);   /* flushes the request */
    return 0;
}

#!/usr/bin/python3
"""Asks an X window to close, as a window manager does when the user clicks its close button.

  close_window.py WINDOW_ID        (DISPLAY from the environment; the id as `xdotool search` prints it)

Sends the window a WM_PROTOCOLS client message carrying WM_DELETE_WINDOW (ICCCM 4.2.8.1). The
toolkit turns it into a close request (GTK 4: GtkWindow::close-request), so the app closes the
window itself and runs its usual shutdown. `xdotool windowclose` is not the same thing: it
destroys the X window under the app's feet.

Under Xvfb there is no window manager, so nobody else would send this message. Talks to libX11
through ctypes, so it needs nothing beyond Debian's python3 and libx11-6. Exits 0 once the
message is sent and flushed, 1 if the X server refused it, 2 on a usage error or no display.
"""
import ctypes
import ctypes.util
import sys

CLIENT_MESSAGE = 33  # X.h: ClientMessage
NO_EVENT_MASK = 0  # to the window's owner only, not to those selecting events on it
CURRENT_TIME = 0


class XClientMessageEvent(ctypes.Structure):
    """Xlib.h's XClientMessageEvent, with its data as 5 longs (format 32)."""
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class XEvent(ctypes.Union):
    """Xlib.h's XEvent union: XSendEvent reads a whole one (24 longs)."""
    _fields_ = [("xclient", XClientMessageEvent), ("pad", ctypes.c_long * 24)]


def load_xlib():
    """libX11 with the signatures of the few functions used here."""
    xlib = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XInternAtom.restype = ctypes.c_ulong
    xlib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    xlib.XSendEvent.restype = ctypes.c_int
    xlib.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
    xlib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return xlib


def close_window(window):
    """Sends WM_DELETE_WINDOW to `window`; returns whether the X server accepted the request."""
    xlib = load_xlib()
    display = xlib.XOpenDisplay(None)
    if not display:
        print("close_window.py: cannot open the display (is DISPLAY set?)", file=sys.stderr)
        sys.exit(2)
    try:
        event = XEvent()
        event.xclient.type = CLIENT_MESSAGE
        event.xclient.send_event = 1
        event.xclient.display = display
        event.xclient.window = window
        event.xclient.message_type = xlib.XInternAtom(display, b"WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data[0] = xlib.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
        event.xclient.data[1] = CURRENT_TIME
        sent = xlib.XSendEvent(display, window, 0, NO_EVENT_MASK, ctypes.byref(event)) != 0
        xlib.XSync(display, 0)  # the request reaches the server before we hang up
        return sent
    finally:
        xlib.XCloseDisplay(display)


def main():
    if len(sys.argv) != 2:
        print("usage: close_window.py WINDOW_ID", file=sys.stderr)
        sys.exit(2)
    try:
        window = int(sys.argv[1], 0)
    except ValueError:
        print("close_window.py: not a window id: %s" % sys.argv[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if close_window(window) else 1)


if __name__ == "__main__":
    main()

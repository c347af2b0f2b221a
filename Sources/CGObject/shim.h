// GLib and GObject, linked as usual. GIO's headers come with them; GIO itself is loaded on
// first use (see CDesktopLibraries).
#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>

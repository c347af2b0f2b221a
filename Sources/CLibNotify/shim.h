#include <libnotify/notify.h>
#include <glib-unix.h>
#include <gio/gio.h>

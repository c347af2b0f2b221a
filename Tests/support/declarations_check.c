// Compiles the prototypes of libsoup and libnotify that Herald declares by hand
// (Sources/CDesktopLibraries/include/CDesktopLibraries.h) after the libraries' own headers:
// a prototype that differs from theirs is a compile error ("conflicting types"), and so is a
// constant of another value (a failed static assertion). Only compiled,
// never run: DeclarationsCheckTests builds it with `cc -fsyntax-only` and
// `pkg-config --cflags libsoup-3.0 libnotify`.

#include <libnotify/notify.h>
#include <libsoup/soup.h>

#define HERALD_CHECKING_DECLARATIONS
#include "CDesktopLibraries.h"

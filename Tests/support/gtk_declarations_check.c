// Compiles the types, constants and prototypes of GTK 4 that herald-gtk-demo declares by hand
// (Sources/CGtk/include/CGtk.h) after GTK's own header: a prototype that differs from GTK's is a
// compile error ("conflicting types"), and so is a constant of another value or an instance
// structure of another size (a failed static assertion). Only compiled, never run:
// DeclarationsCheckTests builds it with `cc -fsyntax-only` and `pkg-config --cflags gtk4`.

#include <gtk/gtk.h>

#define HERALD_CHECKING_DECLARATIONS
#include "CGtk.h"

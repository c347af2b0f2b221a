// Compiles the prototypes of libadwaita that herald-inbox declares by hand
// (Sources/CAdwaita/include/CAdwaita.h, after CGtk.h) against libadwaita's own header: a
// prototype that differs is a compile error ("conflicting types"). Only compiled, never run:
// DeclarationsCheckTests builds it with `cc -fsyntax-only` and `pkg-config --cflags libadwaita-1`.

#include <adwaita.h>

#define HERALD_CHECKING_DECLARATIONS
#include "CAdwaita.h"

// SwiftPM builds a C target from its source files, and CAdwaita has no code of its own: its
// header (include/CAdwaita.h) declares libadwaita's functions, which libadwaita-1 defines.

#include "CAdwaita.h"

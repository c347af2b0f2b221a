// SwiftPM builds a C target from its source files, and CGtk has no code of its own: its header
// (include/CGtk.h) declares GTK's functions, which libgtk-4 defines. Compiled, the header also
// shows that it stands alone.

#include "CGtk.h"

#ifndef HERALD_DECLARATIONS_H
#define HERALD_DECLARATIONS_H

// How Herald declares a C library's enum by hand (CDesktopLibraries.h, and CGtk.h for the demo):
// as the enum and its constants; where the declarations are checked against the library's own
// headers (HERALD_CHECKING_DECLARATIONS), each constant is compared with the library's instead.
#ifdef HERALD_CHECKING_DECLARATIONS
#define HERALD_ENUM(type, constants) constants
#define HERALD_CONSTANT(name, value) _Static_assert(name == (value), #name " is not " #value " in the library's header");
#else
#define HERALD_ENUM(type, constants) typedef enum { constants } type;
#define HERALD_CONSTANT(name, value) name = (value),
#endif

#endif

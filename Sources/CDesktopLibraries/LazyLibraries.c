// GIO, libsoup and libnotify, loaded on first use.
//
// Each function of theirs that Herald calls (ForwardedFunctions.h) is defined here under its own
// name, hidden from other objects, and forwards to the library's definition, found once and
// kept. `herald_library_load` loads a library and finds all its functions before Herald's first
// call into it, and says why when it cannot: the app gets an error, and the process goes on. A
// program that has linked the library already (a GTK app has GIO) finds it loaded, and the
// look-up costs a dlsym per function. A run that never needs one (a check that is not due)
// never maps the library or its dependencies.

#include "CDesktopLibraries.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const library_names[] = {
    [HERALD_GIO] = "libgio-2.0.so.0",
    [HERALD_LIBSOUP] = "libsoup-3.0.so.0",
    [HERALD_LIBNOTIFY] = "libnotify.so.4",
};

static void *library_handles[sizeof library_names / sizeof *library_names];

// Where each function's address is kept once found.
#define FORWARD(library, result, name, parameters, arguments) static __typeof__(&name) forward_##name;
#define FORWARD_VOID(library, name, parameters, arguments) static __typeof__(&name) forward_##name;
#include "ForwardedFunctions.h"
#undef FORWARD
#undef FORWARD_VOID

/// A function Herald calls, and where its address is kept.
struct Function {
    enum HeraldLibrary library;
    const char *name;
    void **address;
};

#define FORWARD(library, result, name, parameters, arguments) {library, #name, (void **)&forward_##name},
#define FORWARD_VOID(library, name, parameters, arguments) {library, #name, (void **)&forward_##name},
static const struct Function functions[] = {
#include "ForwardedFunctions.h"
};
#undef FORWARD
#undef FORWARD_VOID

/// "cannot load WHAT: the loader's reason", into `reason`.
static void say_unavailable(const char *what, char *reason, size_t size) {
    const char *cause = dlerror();
    if (reason != NULL && size > 0) snprintf(reason, size, "cannot load %s: %s", what, cause ? cause : "unknown reason");
}

int herald_library_load(enum HeraldLibrary library, char *reason, size_t size) {
    void *handle = __atomic_load_n(&library_handles[library], __ATOMIC_ACQUIRE);
    if (handle != NULL) return 1;
    // dlopen is thread-safe and counts references; two threads loading at once both get the
    // same handle, and one reference more is harmless. Lazily bound: the functions of a
    // dependency built without BIND_NOW (Kerberos, nghttp2, brotli, zlib) are looked up when
    // first called, not all of them at load; one that an install broken by a partial upgrade
    // lacks ends the process in the loader then (exit status 127, "symbol lookup error"), which
    // `LD_BIND_NOW=1` finds at load instead.
    handle = dlopen(library_names[library], RTLD_LAZY | RTLD_GLOBAL);
    if (handle == NULL) {
        say_unavailable(library_names[library], reason, size);
        return 0;
    }
    for (size_t index = 0; index < sizeof functions / sizeof *functions; index++) {
        const struct Function *function = &functions[index];
        if (function->library != library) continue;
        void *address = dlsym(handle, function->name);
        if (address == NULL) {
            say_unavailable(function->name, reason, size);
            return 0;
        }
        __atomic_store_n(function->address, address, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&library_handles[library], handle, __ATOMIC_RELEASE);
    return 1;
}

/// A function's address, loading its library if no caller has. Every path of Herald's into a
/// library loads it first and reports a failure as an error; a call without that is a fault of
/// Herald's own, and stops here with the reason rather than calling through a null pointer.
static void *resolve(enum HeraldLibrary library, void **address) {
    char reason[512];
    if (!herald_library_load(library, reason, sizeof reason)) {
        fprintf(stderr, "herald: %s, called before its library was loaded\n", reason);
        abort();
    }
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

// The body's start for `name`: `function` is the library's `name`.
#define FIND(library, name)                                                                     \
    __typeof__(&name) function = __atomic_load_n(&forward_##name, __ATOMIC_ACQUIRE);            \
    if (function == NULL) function = (__typeof__(&name))resolve(library, (void **)&forward_##name);

// Defines `name` to forward to the library's own.
#define FORWARD(library, result, name, parameters, arguments)                                   \
    __attribute__((visibility("hidden"))) result name parameters {                              \
        FIND(library, name)                                                                     \
        return function arguments;                                                              \
    }

// The same for a function that returns nothing.
#define FORWARD_VOID(library, name, parameters, arguments)                                      \
    __attribute__((visibility("hidden"))) void name parameters {                                \
        FIND(library, name)                                                                     \
        function arguments;                                                                     \
    }

#include "ForwardedFunctions.h"

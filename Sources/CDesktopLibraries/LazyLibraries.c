// GIO, libsoup and libnotify, loaded on first use.
//
// Each function of theirs that Herald calls is defined here under its own name, hidden from
// other objects, and forwards to the library's definition, which is found once, on the first
// call (dlopen, then dlsym) and kept. A program that has linked the library already (a GTK app
// has GIO) finds it loaded, and the look-up costs a dlsym per function. A run that never calls
// one (a check that is not due) never maps the library or its dependencies.

#include "CDesktopLibraries.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

enum Library { GIO, LIBSOUP, LIBNOTIFY, LIBRARY_COUNT };

static const char *const library_names[LIBRARY_COUNT] = {
    [GIO] = "libgio-2.0.so.0",
    [LIBSOUP] = "libsoup-3.0.so.0",
    [LIBNOTIFY] = "libnotify.so.4",
};

static void *library_handles[LIBRARY_COUNT];

/// Exits with EX_UNAVAILABLE when a library or one of its functions cannot be had: the
/// program cannot go on, and the reason is the loader's. A function that one of the libraries'
/// own lazily bound dependencies lacks (an install broken by a partial upgrade) is found only
/// when first called, and the loader then ends the process itself (exit status 127, "symbol
/// lookup error"); `LD_BIND_NOW=1` finds it at load instead.
static void unavailable(const char *what) {
    const char *reason = dlerror();
    fprintf(stderr, "herald: cannot load %s: %s\n", what, reason ? reason : "unknown reason");
    exit(69);
}

/// The address of the function `name` in `library`, loading the library on first use.
static void *herald_resolve(enum Library library, const char *name) {
    void *handle = __atomic_load_n(&library_handles[library], __ATOMIC_ACQUIRE);
    if (handle == NULL) {
        // dlopen is thread-safe and counts references; two threads loading at once both get
        // the same handle, and one reference more is harmless. Lazily bound: the functions of
        // a dependency built without BIND_NOW (Kerberos, nghttp2, brotli, zlib) are looked up
        // when first called, not all of them at load.
        handle = dlopen(library_names[library], RTLD_LAZY | RTLD_GLOBAL);
        if (handle == NULL) unavailable(library_names[library]);
        __atomic_store_n(&library_handles[library], handle, __ATOMIC_RELEASE);
    }
    void *function = dlsym(handle, name);
    if (function == NULL) unavailable(name);
    return function;
}

// The body's start for `name`: `function` is the library's `name`, found on the first call.
#define FIND(library, name)                                                                     \
    static __typeof__(&name) forward;                                                           \
    __typeof__(&name) function = __atomic_load_n(&forward, __ATOMIC_ACQUIRE);                  \
    if (function == NULL) {                                                                     \
        function = (__typeof__(&name))herald_resolve(library, #name);                          \
        __atomic_store_n(&forward, function, __ATOMIC_RELEASE);                                \
    }

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

// GIO

FORWARD(GIO, GAppInfo *, g_app_info_get_default_for_uri_scheme, (const char *uri_scheme), (uri_scheme))
FORWARD(GIO, gboolean, g_app_info_launch_default_for_uri, (const char *uri, GAppLaunchContext *context, GError **error),
        (uri, context, error))
FORWARD(GIO, GDBusConnection *, g_bus_get_sync, (GBusType bus_type, GCancellable *cancellable, GError **error),
        (bus_type, cancellable, error))
FORWARD(GIO, GVariant *, g_dbus_connection_call_sync,
        (GDBusConnection *connection, const gchar *bus_name, const gchar *object_path, const gchar *interface_name,
         const gchar *method_name, GVariant *parameters, const GVariantType *reply_type, GDBusCallFlags flags,
         gint timeout_msec, GCancellable *cancellable, GError **error),
        (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags, timeout_msec,
         cancellable, error))
FORWARD_VOID(GIO, g_dbus_connection_set_exit_on_close, (GDBusConnection *connection, gboolean exit_on_close),
             (connection, exit_on_close))
FORWARD(GIO, GCancellable *, g_cancellable_new, (void), ())
FORWARD_VOID(GIO, g_cancellable_cancel, (GCancellable *cancellable), (cancellable))
FORWARD(GIO, GFile *, g_file_new_for_uri, (const char *uri), (uri))
FORWARD_VOID(GIO, g_file_read_async,
             (GFile *file, int io_priority, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data),
             (file, io_priority, cancellable, callback, user_data))
FORWARD(GIO, GFileInputStream *, g_file_read_finish, (GFile *file, GAsyncResult *res, GError **error),
        (file, res, error))
FORWARD_VOID(GIO, g_input_stream_read_bytes_async,
             (GInputStream *stream, gsize count, int io_priority, GCancellable *cancellable,
              GAsyncReadyCallback callback, gpointer user_data),
             (stream, count, io_priority, cancellable, callback, user_data))
FORWARD(GIO, GBytes *, g_input_stream_read_bytes_finish, (GInputStream *stream, GAsyncResult *result, GError **error),
        (stream, result, error))
FORWARD_VOID(GIO, g_input_stream_close_async,
             (GInputStream *stream, int io_priority, GCancellable *cancellable, GAsyncReadyCallback callback,
              gpointer user_data),
             (stream, io_priority, cancellable, callback, user_data))
FORWARD(GIO, GQuark, g_io_error_quark, (void), ())
FORWARD(GIO, GQuark, g_tls_error_quark, (void), ())
FORWARD(GIO, GTlsDatabase *, g_tls_file_database_new, (const gchar *anchors, GError **error), (anchors, error))
FORWARD(GIO, GSettingsSchemaSource *, g_settings_schema_source_get_default, (void), ())
FORWARD(GIO, GSettingsSchema *, g_settings_schema_source_lookup,
        (GSettingsSchemaSource *source, const gchar *schema_id, gboolean recursive), (source, schema_id, recursive))
FORWARD(GIO, gboolean, g_settings_schema_has_key, (GSettingsSchema *schema, const gchar *name), (schema, name))
FORWARD_VOID(GIO, g_settings_schema_unref, (GSettingsSchema *schema), (schema))
FORWARD(GIO, GSettings *, g_settings_new_full, (GSettingsSchema *schema, GSettingsBackend *backend, const gchar *path),
        (schema, backend, path))
FORWARD(GIO, gboolean, g_settings_get_boolean, (GSettings *settings, const gchar *key), (settings, key))

// libsoup 3

FORWARD(LIBSOUP, SoupSession *, soup_session_new, (void), ())
FORWARD_VOID(LIBSOUP, soup_session_set_user_agent, (SoupSession *session, const char *user_agent), (session, user_agent))
FORWARD_VOID(LIBSOUP, soup_session_set_timeout, (SoupSession *session, guint timeout), (session, timeout))
FORWARD_VOID(LIBSOUP, soup_session_set_tls_database, (SoupSession *session, GTlsDatabase *tls_database),
             (session, tls_database))
FORWARD_VOID(LIBSOUP, soup_session_send_async,
             (SoupSession *session, SoupMessage *msg, int io_priority, GCancellable *cancellable,
              GAsyncReadyCallback callback, gpointer user_data),
             (session, msg, io_priority, cancellable, callback, user_data))
FORWARD(LIBSOUP, GInputStream *, soup_session_send_finish, (SoupSession *session, GAsyncResult *result, GError **error),
        (session, result, error))
FORWARD(LIBSOUP, SoupMessage *, soup_message_new, (const char *method, const char *uri_string), (method, uri_string))
FORWARD_VOID(LIBSOUP, soup_message_add_flags, (SoupMessage *msg, SoupMessageFlags flags), (msg, flags))
FORWARD(LIBSOUP, SoupMessageHeaders *, soup_message_get_request_headers, (SoupMessage *msg), (msg))
FORWARD(LIBSOUP, SoupMessageHeaders *, soup_message_get_response_headers, (SoupMessage *msg), (msg))
FORWARD(LIBSOUP, SoupStatus, soup_message_get_status, (SoupMessage *msg), (msg))
FORWARD(LIBSOUP, GTlsCertificateFlags, soup_message_get_tls_peer_certificate_errors, (SoupMessage *msg), (msg))
FORWARD(LIBSOUP, const char *, soup_message_headers_get_one, (SoupMessageHeaders *hdrs, const char *name),
        (hdrs, name))
FORWARD_VOID(LIBSOUP, soup_message_headers_replace, (SoupMessageHeaders *hdrs, const char *name, const char *value),
             (hdrs, name, value))

// libnotify

FORWARD(LIBNOTIFY, gboolean, notify_init, (const char *app_name), (app_name))
FORWARD(LIBNOTIFY, gboolean, notify_is_initted, (void), ())
FORWARD(LIBNOTIFY, GList *, notify_get_server_caps, (void), ())
FORWARD(LIBNOTIFY, gboolean, notify_get_server_info,
        (char **ret_name, char **ret_vendor, char **ret_version, char **ret_spec_version),
        (ret_name, ret_vendor, ret_version, ret_spec_version))
FORWARD(LIBNOTIFY, GType, notify_notification_get_type, (void), ())
FORWARD(LIBNOTIFY, NotifyNotification *, notify_notification_new, (const char *summary, const char *body, const char *icon),
        (summary, body, icon))
FORWARD_VOID(LIBNOTIFY, notify_notification_set_app_name, (NotifyNotification *notification, const char *app_name),
             (notification, app_name))
FORWARD_VOID(LIBNOTIFY, notify_notification_set_hint, (NotifyNotification *notification, const char *key, GVariant *value),
             (notification, key, value))
FORWARD_VOID(LIBNOTIFY, notify_notification_set_timeout, (NotifyNotification *notification, gint timeout),
             (notification, timeout))
FORWARD_VOID(LIBNOTIFY, notify_notification_set_urgency, (NotifyNotification *notification, NotifyUrgency urgency),
             (notification, urgency))
FORWARD_VOID(LIBNOTIFY, notify_notification_add_action,
             (NotifyNotification *notification, const char *action, const char *label, NotifyActionCallback callback,
              gpointer user_data, GFreeFunc free_func),
             (notification, action, label, callback, user_data, free_func))
FORWARD(LIBNOTIFY, gboolean, notify_notification_show, (NotifyNotification *notification, GError **error),
        (notification, error))
FORWARD(LIBNOTIFY, gboolean, notify_notification_close, (NotifyNotification *notification, GError **error),
        (notification, error))
FORWARD(LIBNOTIFY, gint, notify_notification_get_closed_reason, (const NotifyNotification *notification), (notification))

#ifndef HERALD_DESKTOP_LIBRARIES_H
#define HERALD_DESKTOP_LIBRARIES_H

// The C interface Herald uses: GLib and GObject, linked as usual; GIO, libsoup 3 and libnotify,
// loaded when Herald first calls one of their functions (LazyLibraries.c). A run that shows
// nothing and fetches nothing (a check that is not due, most commands) never maps them.
//
// GIO's declarations are its own headers'. Of libsoup and libnotify, only the part Herald calls
// is declared here, as their headers declare it (libsoup 3.0, libnotify 0.8), so that building
// Herald needs no header search path beyond GLib's. Tests/support/declarations_check.c compiles
// these prototypes against the real headers, with HERALD_CHECKING_DECLARATIONS defined so that
// the types come from those headers alone: a prototype that differs is a compile error.

#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>

G_BEGIN_DECLS

/// The libraries loaded on first use.
enum HeraldLibrary {
    HERALD_GIO,
    HERALD_LIBSOUP,
    HERALD_LIBNOTIFY,
};

/// Loads `library` and finds every function of it that Herald calls, once; returns 1, or 0 with
/// "cannot load NAME: the loader's reason" in `reason` (cut to `size` bytes).
int herald_library_load(enum HeraldLibrary library, char *reason, size_t size);

/// `G_TYPE_INT`, a macro Swift cannot call.
static inline GType herald_type_int(void) { return G_TYPE_INT; }

// An enum of the libraries' and its constants (HERALD_ENUM, HERALD_CONSTANT).
#include "HeraldDeclarations.h"

// libsoup 3.0 (libsoup/soup-session.h, soup-message.h, soup-message-headers.h, soup-status.h)

#ifndef HERALD_CHECKING_DECLARATIONS
typedef struct _SoupSession {
    GObject parent_instance;
} SoupSession;
typedef struct _SoupMessage SoupMessage;
typedef struct _SoupMessageHeaders SoupMessageHeaders;
#endif

HERALD_ENUM(SoupMessageFlags, HERALD_CONSTANT(SOUP_MESSAGE_NO_REDIRECT, 1 << 1))
HERALD_ENUM(SoupStatus,
            HERALD_CONSTANT(SOUP_STATUS_NONE, 0)
            HERALD_CONSTANT(SOUP_STATUS_OK, 200)
            HERALD_CONSTANT(SOUP_STATUS_NOT_MODIFIED, 304))

SoupSession *soup_session_new(void);
void soup_session_set_user_agent(SoupSession *session, const char *user_agent);
void soup_session_set_timeout(SoupSession *session, guint timeout);
void soup_session_set_tls_database(SoupSession *session, GTlsDatabase *tls_database);
void soup_session_send_async(SoupSession *session, SoupMessage *msg, int io_priority, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data);
GInputStream *soup_session_send_finish(SoupSession *session, GAsyncResult *result, GError **error);
SoupMessage *soup_message_new(const char *method, const char *uri_string);
void soup_message_add_flags(SoupMessage *msg, SoupMessageFlags flags);
SoupMessageHeaders *soup_message_get_request_headers(SoupMessage *msg);
SoupMessageHeaders *soup_message_get_response_headers(SoupMessage *msg);
SoupStatus soup_message_get_status(SoupMessage *msg);
GTlsCertificateFlags soup_message_get_tls_peer_certificate_errors(SoupMessage *msg);
const char *soup_message_headers_get_one(SoupMessageHeaders *hdrs, const char *name);
void soup_message_headers_replace(SoupMessageHeaders *hdrs, const char *name, const char *value);

// libnotify 0.8 (libnotify/notify.h, notification.h)

#ifndef HERALD_CHECKING_DECLARATIONS
typedef struct _NotifyNotificationPrivate NotifyNotificationPrivate;
typedef struct _NotifyNotification {
    GObject parent_object;
    NotifyNotificationPrivate *priv;
} NotifyNotification;

typedef void (*NotifyActionCallback)(NotifyNotification *notification, char *action, gpointer user_data);
#endif

HERALD_ENUM(NotifyUrgency,
            HERALD_CONSTANT(NOTIFY_URGENCY_LOW, 0)
            HERALD_CONSTANT(NOTIFY_URGENCY_NORMAL, 1)
            HERALD_CONSTANT(NOTIFY_URGENCY_CRITICAL, 2))

gboolean notify_init(const char *app_name);
gboolean notify_is_initted(void);
GList *notify_get_server_caps(void);
gboolean notify_get_server_info(char **ret_name, char **ret_vendor, char **ret_version, char **ret_spec_version);
GType notify_notification_get_type(void);
NotifyNotification *notify_notification_new(const char *summary, const char *body, const char *icon);
void notify_notification_set_app_name(NotifyNotification *notification, const char *app_name);
void notify_notification_set_hint(NotifyNotification *notification, const char *key, GVariant *value);
void notify_notification_set_timeout(NotifyNotification *notification, gint timeout);
void notify_notification_set_urgency(NotifyNotification *notification, NotifyUrgency urgency);
void notify_notification_add_action(NotifyNotification *notification, const char *action, const char *label,
                                    NotifyActionCallback callback, gpointer user_data, GFreeFunc free_func);
gboolean notify_notification_show(NotifyNotification *notification, GError **error);
gboolean notify_notification_close(NotifyNotification *notification, GError **error);
gint notify_notification_get_closed_reason(const NotifyNotification *notification);

G_END_DECLS

#endif

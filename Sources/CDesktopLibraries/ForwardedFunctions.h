// The functions of GIO, libsoup 3 and libnotify that Herald calls, one `FORWARD` (or
// `FORWARD_VOID`, for one that returns nothing) each: the library, the result, the name, the
// parameters and the arguments as the call passes them on. No include guard: LazyLibraries.c
// includes it once per use, with `FORWARD` and `FORWARD_VOID` defined for that use.

// GIO

FORWARD(HERALD_GIO, GAppInfo *, g_app_info_get_default_for_uri_scheme, (const char *uri_scheme), (uri_scheme))
FORWARD(HERALD_GIO, gboolean, g_app_info_launch_default_for_uri, (const char *uri, GAppLaunchContext *context, GError **error),
        (uri, context, error))
FORWARD(HERALD_GIO, GDBusConnection *, g_bus_get_sync, (GBusType bus_type, GCancellable *cancellable, GError **error),
        (bus_type, cancellable, error))
FORWARD(HERALD_GIO, GVariant *, g_dbus_connection_call_sync,
        (GDBusConnection *connection, const gchar *bus_name, const gchar *object_path, const gchar *interface_name,
         const gchar *method_name, GVariant *parameters, const GVariantType *reply_type, GDBusCallFlags flags,
         gint timeout_msec, GCancellable *cancellable, GError **error),
        (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags, timeout_msec,
         cancellable, error))
FORWARD_VOID(HERALD_GIO, g_dbus_connection_call,
             (GDBusConnection *connection, const gchar *bus_name, const gchar *object_path, const gchar *interface_name,
              const gchar *method_name, GVariant *parameters, const GVariantType *reply_type, GDBusCallFlags flags,
              gint timeout_msec, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data),
             (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags, timeout_msec,
              cancellable, callback, user_data))
FORWARD(HERALD_GIO, GVariant *, g_dbus_connection_call_finish, (GDBusConnection *connection, GAsyncResult *res, GError **error),
        (connection, res, error))
FORWARD_VOID(HERALD_GIO, g_dbus_connection_set_exit_on_close, (GDBusConnection *connection, gboolean exit_on_close),
             (connection, exit_on_close))
FORWARD(HERALD_GIO, GCancellable *, g_cancellable_new, (void), ())
FORWARD_VOID(HERALD_GIO, g_cancellable_cancel, (GCancellable *cancellable), (cancellable))
FORWARD(HERALD_GIO, GFile *, g_file_new_for_uri, (const char *uri), (uri))
FORWARD_VOID(HERALD_GIO, g_file_read_async,
             (GFile *file, int io_priority, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data),
             (file, io_priority, cancellable, callback, user_data))
FORWARD(HERALD_GIO, GFileInputStream *, g_file_read_finish, (GFile *file, GAsyncResult *res, GError **error),
        (file, res, error))
FORWARD_VOID(HERALD_GIO, g_input_stream_read_bytes_async,
             (GInputStream *stream, gsize count, int io_priority, GCancellable *cancellable,
              GAsyncReadyCallback callback, gpointer user_data),
             (stream, count, io_priority, cancellable, callback, user_data))
FORWARD(HERALD_GIO, GBytes *, g_input_stream_read_bytes_finish, (GInputStream *stream, GAsyncResult *result, GError **error),
        (stream, result, error))
FORWARD_VOID(HERALD_GIO, g_input_stream_close_async,
             (GInputStream *stream, int io_priority, GCancellable *cancellable, GAsyncReadyCallback callback,
              gpointer user_data),
             (stream, io_priority, cancellable, callback, user_data))
FORWARD(HERALD_GIO, GQuark, g_io_error_quark, (void), ())
FORWARD(HERALD_GIO, GQuark, g_tls_error_quark, (void), ())
FORWARD(HERALD_GIO, GTlsDatabase *, g_tls_file_database_new, (const gchar *anchors, GError **error), (anchors, error))
FORWARD(HERALD_GIO, GSettingsSchemaSource *, g_settings_schema_source_get_default, (void), ())
FORWARD(HERALD_GIO, GSettingsSchema *, g_settings_schema_source_lookup,
        (GSettingsSchemaSource *source, const gchar *schema_id, gboolean recursive), (source, schema_id, recursive))
FORWARD(HERALD_GIO, gboolean, g_settings_schema_has_key, (GSettingsSchema *schema, const gchar *name), (schema, name))
FORWARD_VOID(HERALD_GIO, g_settings_schema_unref, (GSettingsSchema *schema), (schema))
FORWARD(HERALD_GIO, GSettings *, g_settings_new_full, (GSettingsSchema *schema, GSettingsBackend *backend, const gchar *path),
        (schema, backend, path))
FORWARD(HERALD_GIO, gboolean, g_settings_get_boolean, (GSettings *settings, const gchar *key), (settings, key))

// libsoup 3

FORWARD(HERALD_LIBSOUP, SoupSession *, soup_session_new, (void), ())
FORWARD_VOID(HERALD_LIBSOUP, soup_session_set_user_agent, (SoupSession *session, const char *user_agent), (session, user_agent))
FORWARD_VOID(HERALD_LIBSOUP, soup_session_set_timeout, (SoupSession *session, guint timeout), (session, timeout))
FORWARD_VOID(HERALD_LIBSOUP, soup_session_set_tls_database, (SoupSession *session, GTlsDatabase *tls_database),
             (session, tls_database))
FORWARD_VOID(HERALD_LIBSOUP, soup_session_send_async,
             (SoupSession *session, SoupMessage *msg, int io_priority, GCancellable *cancellable,
              GAsyncReadyCallback callback, gpointer user_data),
             (session, msg, io_priority, cancellable, callback, user_data))
FORWARD(HERALD_LIBSOUP, GInputStream *, soup_session_send_finish, (SoupSession *session, GAsyncResult *result, GError **error),
        (session, result, error))
FORWARD(HERALD_LIBSOUP, SoupMessage *, soup_message_new, (const char *method, const char *uri_string), (method, uri_string))
FORWARD_VOID(HERALD_LIBSOUP, soup_message_add_flags, (SoupMessage *msg, SoupMessageFlags flags), (msg, flags))
FORWARD(HERALD_LIBSOUP, SoupMessageHeaders *, soup_message_get_request_headers, (SoupMessage *msg), (msg))
FORWARD(HERALD_LIBSOUP, SoupMessageHeaders *, soup_message_get_response_headers, (SoupMessage *msg), (msg))
FORWARD(HERALD_LIBSOUP, SoupStatus, soup_message_get_status, (SoupMessage *msg), (msg))
FORWARD(HERALD_LIBSOUP, GTlsCertificateFlags, soup_message_get_tls_peer_certificate_errors, (SoupMessage *msg), (msg))
FORWARD(HERALD_LIBSOUP, const char *, soup_message_headers_get_one, (SoupMessageHeaders *hdrs, const char *name),
        (hdrs, name))
FORWARD_VOID(HERALD_LIBSOUP, soup_message_headers_replace, (SoupMessageHeaders *hdrs, const char *name, const char *value),
             (hdrs, name, value))

// libnotify

FORWARD(HERALD_LIBNOTIFY, gboolean, notify_init, (const char *app_name), (app_name))
FORWARD(HERALD_LIBNOTIFY, gboolean, notify_is_initted, (void), ())
FORWARD(HERALD_LIBNOTIFY, GList *, notify_get_server_caps, (void), ())
FORWARD(HERALD_LIBNOTIFY, gboolean, notify_get_server_info,
        (char **ret_name, char **ret_vendor, char **ret_version, char **ret_spec_version),
        (ret_name, ret_vendor, ret_version, ret_spec_version))
FORWARD(HERALD_LIBNOTIFY, GType, notify_notification_get_type, (void), ())
FORWARD(HERALD_LIBNOTIFY, NotifyNotification *, notify_notification_new, (const char *summary, const char *body, const char *icon),
        (summary, body, icon))
FORWARD_VOID(HERALD_LIBNOTIFY, notify_notification_set_app_name, (NotifyNotification *notification, const char *app_name),
             (notification, app_name))
FORWARD_VOID(HERALD_LIBNOTIFY, notify_notification_set_hint, (NotifyNotification *notification, const char *key, GVariant *value),
             (notification, key, value))
FORWARD_VOID(HERALD_LIBNOTIFY, notify_notification_set_timeout, (NotifyNotification *notification, gint timeout),
             (notification, timeout))
FORWARD_VOID(HERALD_LIBNOTIFY, notify_notification_set_urgency, (NotifyNotification *notification, NotifyUrgency urgency),
             (notification, urgency))
FORWARD_VOID(HERALD_LIBNOTIFY, notify_notification_add_action,
             (NotifyNotification *notification, const char *action, const char *label, NotifyActionCallback callback,
              gpointer user_data, GFreeFunc free_func),
             (notification, action, label, callback, user_data, free_func))
FORWARD(HERALD_LIBNOTIFY, gboolean, notify_notification_show, (NotifyNotification *notification, GError **error),
        (notification, error))
FORWARD(HERALD_LIBNOTIFY, gboolean, notify_notification_close, (NotifyNotification *notification, GError **error),
        (notification, error))
FORWARD(HERALD_LIBNOTIFY, gint, notify_notification_get_closed_reason, (const NotifyNotification *notification), (notification))

// GIO: the agent's D-Bus service

FORWARD(HERALD_GIO, guint, g_bus_own_name_on_connection,
        (GDBusConnection *connection, const gchar *name, GBusNameOwnerFlags flags,
         GBusNameAcquiredCallback name_acquired_handler, GBusNameLostCallback name_lost_handler, gpointer user_data,
         GDestroyNotify user_data_free_func),
        (connection, name, flags, name_acquired_handler, name_lost_handler, user_data, user_data_free_func))
FORWARD_VOID(HERALD_GIO, g_bus_unown_name, (guint owner_id), (owner_id))
FORWARD(HERALD_GIO, GDBusNodeInfo *, g_dbus_node_info_new_for_xml, (const gchar *xml_data, GError **error), (xml_data, error))
FORWARD(HERALD_GIO, GDBusInterfaceInfo *, g_dbus_node_info_lookup_interface, (GDBusNodeInfo *info, const gchar *name),
        (info, name))
FORWARD_VOID(HERALD_GIO, g_dbus_node_info_unref, (GDBusNodeInfo *info), (info))
FORWARD(HERALD_GIO, guint, g_dbus_connection_register_object,
        (GDBusConnection *connection, const gchar *object_path, GDBusInterfaceInfo *interface_info,
         const GDBusInterfaceVTable *vtable, gpointer user_data, GDestroyNotify user_data_free_func, GError **error),
        (connection, object_path, interface_info, vtable, user_data, user_data_free_func, error))
FORWARD(HERALD_GIO, gboolean, g_dbus_connection_unregister_object, (GDBusConnection *connection, guint registration_id),
        (connection, registration_id))
FORWARD(HERALD_GIO, gboolean, g_dbus_connection_flush_sync, (GDBusConnection *connection, GCancellable *cancellable, GError **error),
        (connection, cancellable, error))
FORWARD_VOID(HERALD_GIO, g_dbus_method_invocation_return_value, (GDBusMethodInvocation *invocation, GVariant *parameters),
             (invocation, parameters))
FORWARD_VOID(HERALD_GIO, g_dbus_method_invocation_return_dbus_error,
             (GDBusMethodInvocation *invocation, const gchar *error_name, const gchar *error_message),
             (invocation, error_name, error_message))
FORWARD(HERALD_GIO, GAppLaunchContext *, g_app_launch_context_new, (void), ())
FORWARD_VOID(HERALD_GIO, g_app_launch_context_setenv, (GAppLaunchContext *context, const char *variable, const char *value),
             (context, variable, value))

// GIO: an app's own actions, which the notification portal activates (`app.*`)

FORWARD(HERALD_GIO, GApplication *, g_application_get_default, (void), ())
FORWARD(HERALD_GIO, const gchar *, g_application_get_application_id, (GApplication *application), (application))
FORWARD(HERALD_GIO, GSimpleAction *, g_simple_action_new, (const gchar *name, const GVariantType *parameter_type),
        (name, parameter_type))
FORWARD_VOID(HERALD_GIO, g_action_map_add_action, (GActionMap *action_map, GAction *action), (action_map, action))
FORWARD_VOID(HERALD_GIO, g_action_map_remove_action, (GActionMap *action_map, const gchar *action_name),
             (action_map, action_name))
FORWARD(HERALD_GIO, GApplication *, g_application_new, (const gchar *application_id, GApplicationFlags flags),
        (application_id, flags))
FORWARD(HERALD_GIO, gboolean, g_application_register, (GApplication *application, GCancellable *cancellable, GError **error),
        (application, cancellable, error))
FORWARD(HERALD_GIO, GAction *, g_action_map_lookup_action, (GActionMap *action_map, const gchar *action_name),
        (action_map, action_name))
FORWARD(HERALD_GIO, int, g_application_run, (GApplication *application, int argc, char **argv), (application, argc, argv))
FORWARD_VOID(HERALD_GIO, g_application_hold, (GApplication *application), (application))
FORWARD_VOID(HERALD_GIO, g_application_release, (GApplication *application), (application))
FORWARD_VOID(HERALD_GIO, g_application_quit, (GApplication *application), (application))
FORWARD_VOID(HERALD_GIO, g_application_set_inactivity_timeout, (GApplication *application, guint inactivity_timeout),
             (application, inactivity_timeout))

/* The error domain and the enumerations of libherald.
 * Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
 */
#include "herald.h"

G_DEFINE_QUARK (herald-error-quark, herald_error)

/* The GType of the enumeration `name`, registered at the first call. */
static GType
enum_type_once (gsize *type, const char *name, const GEnumValue *values)
{
  if (g_once_init_enter (type))
    g_once_init_leave (type, g_enum_register_static (g_intern_static_string (name), values));
  return *type;
}

GType
herald_error_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    { HERALD_ERROR_CONFIGURATION, "HERALD_ERROR_CONFIGURATION", "configuration" },
    { HERALD_ERROR_KEY_FILE, "HERALD_ERROR_KEY_FILE", "key-file" },
    { HERALD_ERROR_FETCH, "HERALD_ERROR_FETCH", "fetch" },
    { HERALD_ERROR_FEED, "HERALD_ERROR_FEED", "feed" },
    { HERALD_ERROR_NO_NOTIFICATION_SERVER, "HERALD_ERROR_NO_NOTIFICATION_SERVER", "no-notification-server" },
    { HERALD_ERROR_PRESENTATION, "HERALD_ERROR_PRESENTATION", "presentation" },
    { HERALD_ERROR_LIBRARY_UNAVAILABLE, "HERALD_ERROR_LIBRARY_UNAVAILABLE", "library-unavailable" },
    { HERALD_ERROR_STATE_LOCKED, "HERALD_ERROR_STATE_LOCKED", "state-locked" },
    { HERALD_ERROR_STATE, "HERALD_ERROR_STATE", "state" },
    { HERALD_ERROR_FEED_REPLAYED, "HERALD_ERROR_FEED_REPLAYED", "feed-replayed" },
    { HERALD_ERROR_FEED_EXPIRED, "HERALD_ERROR_FEED_EXPIRED", "feed-expired" },
    { HERALD_ERROR_FEED_FOR_ANOTHER_APP, "HERALD_ERROR_FEED_FOR_ANOTHER_APP", "feed-for-another-app" },
    { HERALD_ERROR_SIGNATURE, "HERALD_ERROR_SIGNATURE", "signature" },
    { 0, NULL, NULL },
  };
  return enum_type_once (&type, "HeraldError", values);
}

GType
herald_event_kind_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    { HERALD_EVENT_CHECK_SKIPPED, "HERALD_EVENT_CHECK_SKIPPED", "check-skipped" },
    { HERALD_EVENT_CHECK_DEFERRED, "HERALD_EVENT_CHECK_DEFERRED", "check-deferred" },
    { HERALD_EVENT_FETCHING_MIRROR, "HERALD_EVENT_FETCHING_MIRROR", "fetching-mirror" },
    { HERALD_EVENT_FEED_FETCHED, "HERALD_EVENT_FEED_FETCHED", "feed-fetched" },
    { HERALD_EVENT_BUDGET_NOT_KEPT, "HERALD_EVENT_BUDGET_NOT_KEPT", "budget-not-kept" },
    { HERALD_EVENT_PENDING, "HERALD_EVENT_PENDING", "pending" },
    { HERALD_EVENT_MESSAGE_SKIPPED, "HERALD_EVENT_MESSAGE_SKIPPED", "message-skipped" },
    { HERALD_EVENT_PROMPT_DECIDED, "HERALD_EVENT_PROMPT_DECIDED", "prompt-decided" },
    { HERALD_EVENT_LINK_NOT_OPENED, "HERALD_EVENT_LINK_NOT_OPENED", "link-not-opened" },
    { HERALD_EVENT_ANSWER_NOT_RECORDED, "HERALD_EVENT_ANSWER_NOT_RECORDED", "answer-not-recorded" },
    { 0, NULL, NULL },
  };
  return enum_type_once (&type, "HeraldEventKind", values);
}

GType
herald_inbox_state_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    { HERALD_INBOX_STATE_DUE, "HERALD_INBOX_STATE_DUE", "due" },
    { HERALD_INBOX_STATE_SHOWN, "HERALD_INBOX_STATE_SHOWN", "shown" },
    { HERALD_INBOX_STATE_VIEWED, "HERALD_INBOX_STATE_VIEWED", "viewed" },
    { HERALD_INBOX_STATE_IGNORED, "HERALD_INBOX_STATE_IGNORED", "ignored" },
    { HERALD_INBOX_STATE_REMIND_LATER, "HERALD_INBOX_STATE_REMIND_LATER", "remind-later" },
    { HERALD_INBOX_STATE_WAITING_FOR_ROOM, "HERALD_INBOX_STATE_WAITING_FOR_ROOM", "waiting-for-room" },
    { HERALD_INBOX_STATE_DEFERRED_FOR_QUIET, "HERALD_INBOX_STATE_DEFERRED_FOR_QUIET", "deferred-for-quiet" },
    { HERALD_INBOX_STATE_CATEGORY_MUTED, "HERALD_INBOX_STATE_CATEGORY_MUTED", "category-muted" },
    { HERALD_INBOX_STATE_WITHDRAWN, "HERALD_INBOX_STATE_WITHDRAWN", "withdrawn" },
    { HERALD_INBOX_STATE_APP_MUTED, "HERALD_INBOX_STATE_APP_MUTED", "app-muted" },
    { 0, NULL, NULL },
  };
  return enum_type_once (&type, "HeraldInboxState", values);
}

/* HeraldInboxMessage: a message of the app's inbox, with where it stands.
 * Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
 */
#include "herald.h"
#include "herald-inbox-message-private.h"

struct _HeraldInboxMessage {
  GObject parent_instance;
  char *id;
  char *title;
  char *body;
  char *link;
  char *button_label;
  char *category;
  GDateTime *reached;
  GDateTime *last_shown;
  HeraldInboxState state;
  char *state_text;
  GDateTime *until;
  GDateTime *withdrawn_since;
  gboolean muted_by_administrator;
};

G_DEFINE_FINAL_TYPE (HeraldInboxMessage, herald_inbox_message, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_BODY,
  PROP_LINK,
  PROP_BUTTON_LABEL,
  PROP_CATEGORY,
  PROP_REACHED,
  PROP_LAST_SHOWN,
  PROP_STATE,
  PROP_STATE_TEXT,
  PROP_UNTIL,
  PROP_WITHDRAWN_SINCE,
  PROP_MUTED_BY_ADMINISTRATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
herald_inbox_message_init (G_GNUC_UNUSED HeraldInboxMessage *message)
{
}

static void
herald_inbox_message_finalize (GObject *object)
{
  HeraldInboxMessage *message = HERALD_INBOX_MESSAGE (object);
  g_free (message->id);
  g_free (message->title);
  g_free (message->body);
  g_free (message->link);
  g_free (message->button_label);
  g_free (message->category);
  g_free (message->state_text);
  g_clear_pointer (&message->reached, g_date_time_unref);
  g_clear_pointer (&message->last_shown, g_date_time_unref);
  g_clear_pointer (&message->until, g_date_time_unref);
  g_clear_pointer (&message->withdrawn_since, g_date_time_unref);
  G_OBJECT_CLASS (herald_inbox_message_parent_class)->finalize (object);
}

static void
herald_inbox_message_get_property (GObject *object, guint id, GValue *value, GParamSpec *spec)
{
  HeraldInboxMessage *message = HERALD_INBOX_MESSAGE (object);
  switch (id)
    {
    case PROP_ID: g_value_set_string (value, message->id); break;
    case PROP_TITLE: g_value_set_string (value, message->title); break;
    case PROP_BODY: g_value_set_string (value, message->body); break;
    case PROP_LINK: g_value_set_string (value, message->link); break;
    case PROP_BUTTON_LABEL: g_value_set_string (value, message->button_label); break;
    case PROP_CATEGORY: g_value_set_string (value, message->category); break;
    case PROP_REACHED: g_value_set_boxed (value, message->reached); break;
    case PROP_LAST_SHOWN: g_value_set_boxed (value, message->last_shown); break;
    case PROP_STATE: g_value_set_enum (value, message->state); break;
    case PROP_STATE_TEXT: g_value_set_string (value, message->state_text); break;
    case PROP_UNTIL: g_value_set_boxed (value, message->until); break;
    case PROP_WITHDRAWN_SINCE: g_value_set_boxed (value, message->withdrawn_since); break;
    case PROP_MUTED_BY_ADMINISTRATOR: g_value_set_boolean (value, message->muted_by_administrator); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, spec);
    }
}

static void
herald_inbox_message_set_property (GObject *object, guint id, const GValue *value, GParamSpec *spec)
{
  HeraldInboxMessage *message = HERALD_INBOX_MESSAGE (object);
  switch (id)
    {
    case PROP_ID: message->id = g_value_dup_string (value); break;
    case PROP_TITLE: message->title = g_value_dup_string (value); break;
    case PROP_BODY: message->body = g_value_dup_string (value); break;
    case PROP_LINK: message->link = g_value_dup_string (value); break;
    case PROP_BUTTON_LABEL: message->button_label = g_value_dup_string (value); break;
    case PROP_CATEGORY: message->category = g_value_dup_string (value); break;
    case PROP_REACHED: message->reached = g_value_dup_boxed (value); break;
    case PROP_LAST_SHOWN: message->last_shown = g_value_dup_boxed (value); break;
    case PROP_STATE: message->state = g_value_get_enum (value); break;
    case PROP_STATE_TEXT: message->state_text = g_value_dup_string (value); break;
    case PROP_UNTIL: message->until = g_value_dup_boxed (value); break;
    case PROP_WITHDRAWN_SINCE: message->withdrawn_since = g_value_dup_boxed (value); break;
    case PROP_MUTED_BY_ADMINISTRATOR: message->muted_by_administrator = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, spec);
    }
}

#define CONSTRUCT_ONLY (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS)

static void
herald_inbox_message_class_init (HeraldInboxMessageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = herald_inbox_message_finalize;
  object_class->get_property = herald_inbox_message_get_property;
  object_class->set_property = herald_inbox_message_set_property;

  /**
   * HeraldInboxMessage:id:
   *
   * The message's id in the feed.
   */
  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:title:
   *
   * The title as the notification showed it, in the person's language.
   */
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:body:
   *
   * The text as the notification showed it, line breaks kept.
   */
  properties[PROP_BODY] = g_param_spec_string ("body", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:link:
   *
   * The link its view button opens, or %NULL when it has none.
   */
  properties[PROP_LINK] = g_param_spec_string ("link", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:button-label:
   *
   * The feed's label for the view button, or %NULL for Herald's own.
   */
  properties[PROP_BUTTON_LABEL] = g_param_spec_string ("button-label", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:category:
   *
   * Its category: announcement, tip, promotion, security or survey.
   */
  properties[PROP_CATEGORY] = g_param_spec_string ("category", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:reached:
   *
   * When it first reached the person, in UTC.
   */
  properties[PROP_REACHED] = g_param_spec_boxed ("reached", NULL, NULL, G_TYPE_DATE_TIME, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:last-shown:
   *
   * When it was last shown, in UTC, or %NULL when it never was.
   */
  properties[PROP_LAST_SHOWN] = g_param_spec_boxed ("last-shown", NULL, NULL, G_TYPE_DATE_TIME, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:state:
   *
   * Where it stands now: its answer, or why it waits.
   */
  properties[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL, HERALD_TYPE_INBOX_STATE, HERALD_INBOX_STATE_DUE, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:state-text:
   *
   * Where it stands, as one phrase for people, as `herald inbox` writes it.
   */
  properties[PROP_STATE_TEXT] = g_param_spec_string ("state-text", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:until:
   *
   * Until when it waits, in UTC: when a message put off with "remind me later" is shown
   * again, or when the attention budget has room again for a message waiting for room; %NULL
   * otherwise.
   */
  properties[PROP_UNTIL] = g_param_spec_boxed ("until", NULL, NULL, G_TYPE_DATE_TIME, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:withdrawn-since:
   *
   * When its publisher's feed was first found without a withdrawn message, in UTC; %NULL
   * otherwise.
   */
  properties[PROP_WITHDRAWN_SINCE] = g_param_spec_boxed ("withdrawn-since", NULL, NULL, G_TYPE_DATE_TIME, CONSTRUCT_ONLY);
  /**
   * HeraldInboxMessage:muted-by-administrator:
   *
   * Whether the administrator, rather than the person, muted the category or the app of a
   * message whose category or app is muted.
   */
  properties[PROP_MUTED_BY_ADMINISTRATOR] = g_param_spec_boolean ("muted-by-administrator", NULL, NULL, FALSE, CONSTRUCT_ONLY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

/* The UTC time of `seconds` since 1970 when `given`; NULL otherwise. */
static GDateTime *
moment (gboolean given, gint64 seconds)
{
  return given ? g_date_time_new_from_unix_utc (seconds) : NULL;
}

void
libherald_inbox_append (void *list, const LibheraldInboxEntry *entry)
{
  GDateTime *reached = moment (TRUE, entry->reached);
  GDateTime *last_shown = moment (entry->has_last_shown, entry->last_shown);
  GDateTime *until = moment (entry->has_until, entry->until);
  GDateTime *withdrawn_since = moment (entry->has_withdrawn_since, entry->withdrawn_since);
  g_queue_push_tail (list, g_object_new (HERALD_TYPE_INBOX_MESSAGE, "id", entry->id, "title", entry->title, "body", entry->body,
                                       "link", entry->link, "button-label", entry->button_label, "category", entry->category,
                                       "reached", reached, "last-shown", last_shown, "state", (HeraldInboxState) entry->state,
                                       "state-text", entry->state_text, "until", until, "withdrawn-since", withdrawn_since,
                                       "muted-by-administrator", entry->muted_by_administrator, NULL));
  g_date_time_unref (reached);
  g_clear_pointer (&last_shown, g_date_time_unref);
  g_clear_pointer (&until, g_date_time_unref);
  g_clear_pointer (&withdrawn_since, g_date_time_unref);
}

const char *
herald_inbox_message_get_id (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->id;
}

const char *
herald_inbox_message_get_title (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->title;
}

const char *
herald_inbox_message_get_body (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->body;
}

const char *
herald_inbox_message_get_link (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->link;
}

const char *
herald_inbox_message_get_button_label (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->button_label;
}

const char *
herald_inbox_message_get_category (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->category;
}

GDateTime *
herald_inbox_message_get_reached (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->reached;
}

GDateTime *
herald_inbox_message_get_last_shown (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->last_shown;
}

HeraldInboxState
herald_inbox_message_get_state (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), HERALD_INBOX_STATE_DUE);
  return message->state;
}

const char *
herald_inbox_message_get_state_text (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->state_text;
}

GDateTime *
herald_inbox_message_get_until (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->until;
}

GDateTime *
herald_inbox_message_get_withdrawn_since (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), NULL);
  return message->withdrawn_since;
}

gboolean
herald_inbox_message_get_muted_by_administrator (HeraldInboxMessage *message)
{
  g_return_val_if_fail (HERALD_IS_INBOX_MESSAGE (message), FALSE);
  return message->muted_by_administrator;
}

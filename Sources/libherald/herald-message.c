/* HeraldMessage: a message or prompt as an app may draw it itself.
 * Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
 */
#include "herald.h"

struct _HeraldMessage {
  GObject parent_instance;
  char *id;
  char *title;
  char *body;
  char *action_url;
  char *button_label;
  GVariant *details;
  gboolean is_prompt;
};

G_DEFINE_FINAL_TYPE (HeraldMessage, herald_message, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_BODY,
  PROP_ACTION_URL,
  PROP_BUTTON_LABEL,
  PROP_DETAILS,
  PROP_IS_PROMPT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
herald_message_init (HeraldMessage *message)
{
}

static void
herald_message_finalize (GObject *object)
{
  HeraldMessage *message = HERALD_MESSAGE (object);
  g_free (message->id);
  g_free (message->title);
  g_free (message->body);
  g_free (message->action_url);
  g_free (message->button_label);
  g_clear_pointer (&message->details, g_variant_unref);
  G_OBJECT_CLASS (herald_message_parent_class)->finalize (object);
}

static void
herald_message_get_property (GObject *object, guint id, GValue *value, GParamSpec *spec)
{
  HeraldMessage *message = HERALD_MESSAGE (object);
  switch (id)
    {
    case PROP_ID: g_value_set_string (value, message->id); break;
    case PROP_TITLE: g_value_set_string (value, message->title); break;
    case PROP_BODY: g_value_set_string (value, message->body); break;
    case PROP_ACTION_URL: g_value_set_string (value, message->action_url); break;
    case PROP_BUTTON_LABEL: g_value_set_string (value, message->button_label); break;
    case PROP_DETAILS: g_value_set_variant (value, message->details); break;
    case PROP_IS_PROMPT: g_value_set_boolean (value, message->is_prompt); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, spec);
    }
}

static void
herald_message_set_property (GObject *object, guint id, const GValue *value, GParamSpec *spec)
{
  HeraldMessage *message = HERALD_MESSAGE (object);
  switch (id)
    {
    case PROP_ID: message->id = g_value_dup_string (value); break;
    case PROP_TITLE: message->title = g_value_dup_string (value); break;
    case PROP_BODY: message->body = g_value_dup_string (value); break;
    case PROP_ACTION_URL: message->action_url = g_value_dup_string (value); break;
    case PROP_BUTTON_LABEL: message->button_label = g_value_dup_string (value); break;
    case PROP_DETAILS:
      message->details = g_value_dup_variant (value);
      if (message->details == NULL)
        message->details = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0));
      break;
    case PROP_IS_PROMPT: message->is_prompt = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, spec);
    }
}

#define CONSTRUCT_ONLY (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS)

static void
herald_message_class_init (HeraldMessageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = herald_message_finalize;
  object_class->get_property = herald_message_get_property;
  object_class->set_property = herald_message_set_property;

  /**
   * HeraldMessage:id:
   *
   * The message's id in the feed, or the prompt's name.
   */
  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldMessage:title:
   *
   * The title, or %NULL when the message has none.
   */
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldMessage:body:
   *
   * The message's text, or %NULL.
   */
  properties[PROP_BODY] = g_param_spec_string ("body", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldMessage:action-url:
   *
   * The link the view button opens, or %NULL for a message that is only acknowledged.
   */
  properties[PROP_ACTION_URL] = g_param_spec_string ("action-url", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldMessage:button-label:
   *
   * The feed's label for the view button, or %NULL for Herald's own.
   */
  properties[PROP_BUTTON_LABEL] = g_param_spec_string ("button-label", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldMessage:details:
   *
   * Every key of the message as the feed wrote it, those Herald does not know included, as an
   * a{sv} dictionary: strings s, whole numbers x, other numbers d, booleans b, dates x (seconds
   * since 1970), data ay, arrays av, dictionaries a{sv}, and JSON null an empty mv.
   */
  properties[PROP_DETAILS] = g_param_spec_variant ("details", NULL, NULL, G_VARIANT_TYPE ("a{sv}"), NULL, CONSTRUCT_ONLY);
  /**
   * HeraldMessage:is-prompt:
   *
   * Whether it is a local prompt rather than a message of the feed.
   */
  properties[PROP_IS_PROMPT] = g_param_spec_boolean ("is-prompt", NULL, NULL, FALSE, CONSTRUCT_ONLY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

const char *
herald_message_get_id (HeraldMessage *message)
{
  g_return_val_if_fail (HERALD_IS_MESSAGE (message), NULL);
  return message->id;
}

const char *
herald_message_get_title (HeraldMessage *message)
{
  g_return_val_if_fail (HERALD_IS_MESSAGE (message), NULL);
  return message->title;
}

const char *
herald_message_get_body (HeraldMessage *message)
{
  g_return_val_if_fail (HERALD_IS_MESSAGE (message), NULL);
  return message->body;
}

const char *
herald_message_get_action_url (HeraldMessage *message)
{
  g_return_val_if_fail (HERALD_IS_MESSAGE (message), NULL);
  return message->action_url;
}

const char *
herald_message_get_button_label (HeraldMessage *message)
{
  g_return_val_if_fail (HERALD_IS_MESSAGE (message), NULL);
  return message->button_label;
}

GVariant *
herald_message_get_details (HeraldMessage *message)
{
  g_return_val_if_fail (HERALD_IS_MESSAGE (message), NULL);
  return message->details;
}

gboolean
herald_message_get_is_prompt (HeraldMessage *message)
{
  g_return_val_if_fail (HERALD_IS_MESSAGE (message), FALSE);
  return message->is_prompt;
}

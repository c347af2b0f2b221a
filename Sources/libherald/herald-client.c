/* HeraldClient: Herald for one app, as a GObject.
 * Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
 */
#include "herald.h"
#include "herald-swift.h"
#include "herald-inbox-message-private.h"

struct _HeraldClient {
  GObject parent_instance;

  /* The construct properties; its strings and string arrays are the client's own. */
  LibheraldConfiguration configuration;

  /* The thread-default main context at creation, where every signal is emitted: the default one
   * for a client that works. */
  GMainContext *context;
  /* Herald itself; NULL when the configuration cannot work, and then `configuration_error` says why. */
  void *bridge;
  GError *configuration_error;
};

G_DEFINE_FINAL_TYPE (HeraldClient, herald_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FEED_URL,
  PROP_APP_ID,
  PROP_APP_VERSION,
  PROP_APP_NAME,
  PROP_ICON,
  PROP_CA_FILE,
  PROP_ALLOWED_SCHEMES,
  PROP_PUBLIC_KEYS,
  PROP_CHECK_PERIOD,
  PROP_REMIND_PERIOD,
  PROP_TIMEOUT,
  PROP_WAIT_LIMIT,
  PROP_MAX_PER_CHECK,
  PROP_SHOW_ON_FIRST_LAUNCH,
  PROP_SHOW_OLDEST_FIRST,
  PROP_CHECK_AT_LAUNCH,
  PROP_DEBUG,
  PROP_ALLOW_CRITICAL_URGENCY,
  PROP_ALLOW_PLAIN_HTTP_FEED,
  PROP_WHATS_NEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_SHOWN,
  SIGNAL_ANSWERED,
  SIGNAL_CLOSED,
  SIGNAL_PROMPT_SHOWN,
  SIGNAL_PROMPT_ANSWERED,
  SIGNAL_PROMPT_CLOSED,
  SIGNAL_CHECK_FINISHED,
  SIGNAL_FAILED,
  SIGNAL_SHOULD_SHOW,
  SIGNAL_EVENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- Signals, emitted in the client's context ---- */

/* One signal to emit, with its arguments (owned). */
typedef struct {
  HeraldClient *client;
  guint signal;
  char *first;
  char *second;
  char *third;
  int kind;
  gboolean flag;
  GError *error;
} Emission;

static gboolean
emission_run (gpointer data)
{
  Emission *emission = data;
  HeraldClient *client = emission->client;
  switch (emission->signal)
    {
    case SIGNAL_SHOWN:
    case SIGNAL_PROMPT_SHOWN:
      g_signal_emit (client, signals[emission->signal], 0, emission->first);
      break;
    case SIGNAL_ANSWERED:
      g_signal_emit (client, signals[SIGNAL_ANSWERED], 0, emission->first, emission->second, emission->flag);
      break;
    case SIGNAL_CLOSED:
    case SIGNAL_PROMPT_ANSWERED:
    case SIGNAL_PROMPT_CLOSED:
      g_signal_emit (client, signals[emission->signal], 0, emission->first, emission->second);
      break;
    case SIGNAL_CHECK_FINISHED:
      g_signal_emit (client, signals[SIGNAL_CHECK_FINISHED], 0);
      break;
    case SIGNAL_FAILED:
      g_signal_emit (client, signals[SIGNAL_FAILED], 0, emission->error);
      break;
    case SIGNAL_EVENT:
      g_signal_emit (client, signals[SIGNAL_EVENT], 0, (HeraldEventKind) emission->kind, emission->first, emission->second,
                     emission->third);
      break;
    default:
      g_assert_not_reached ();
    }
  return G_SOURCE_REMOVE;
}

static void
emission_free (gpointer data)
{
  Emission *emission = data;
  g_object_unref (emission->client);
  g_free (emission->first);
  g_free (emission->second);
  g_free (emission->third);
  g_clear_error (&emission->error);
  g_free (emission);
}

/* An emission of `signal`, which takes `error`. */
static Emission *
emission_new (HeraldClient *client, guint signal, const char *first, const char *second, const char *third, int kind,
              gboolean flag, GError *error)
{
  Emission *emission = g_new0 (Emission, 1);
  emission->client = g_object_ref (client);
  emission->signal = signal;
  emission->first = g_strdup (first);
  emission->second = g_strdup (second);
  emission->third = g_strdup (third);
  emission->kind = kind;
  emission->flag = flag;
  emission->error = error;
  return emission;
}

/* Emits at once when this thread runs the client's context (as when Herald reports from the
 * default context the app created the client in); otherwise from that context's loop. */
static void
emit (HeraldClient *client, guint signal, const char *first, const char *second, const char *third, int kind,
      gboolean flag, GError *error)
{
  Emission *emission = emission_new (client, signal, first, second, third, kind, flag, error);
  g_main_context_invoke_full (client->context, G_PRIORITY_DEFAULT, emission_run, emission, emission_free);
}

static void
report_shown (void *client, const char *id, gboolean is_prompt)
{
  emit (client, is_prompt ? SIGNAL_PROMPT_SHOWN : SIGNAL_SHOWN, id, NULL, NULL, 0, FALSE, NULL);
}

static void
report_answered (void *client, const char *id, const char *answer, gboolean is_prompt, gboolean while_away)
{
  emit (client, is_prompt ? SIGNAL_PROMPT_ANSWERED : SIGNAL_ANSWERED, id, answer, NULL, 0, while_away, NULL);
}

static void
report_closed (void *client, const char *id, const char *reason, gboolean is_prompt)
{
  emit (client, is_prompt ? SIGNAL_PROMPT_CLOSED : SIGNAL_CLOSED, id, reason, NULL, 0, FALSE, NULL);
}

static void
report_event (void *client, int kind, const char *subject, const char *reason, const char *detail)
{
  emit (client, SIGNAL_EVENT, subject, reason, detail, kind, FALSE, NULL);
}

static void
report_failed (void *client, int code, const char *message)
{
  emit (client, SIGNAL_FAILED, NULL, NULL, NULL, 0, FALSE, g_error_new_literal (HERALD_ERROR, code, message));
}

static void
report_check_finished (void *client)
{
  emit (client, SIGNAL_CHECK_FINISHED, NULL, NULL, NULL, 0, FALSE, NULL);
}

/* Asked synchronously, since Herald waits for the answer, on the thread that runs the client's
 * context: the default one, where Herald runs (a client made in another is refused). */
static gboolean
ask_should_show (void *client_pointer, const char *id, const char *title, const char *body, const char *action_url,
                 const char *button_label, GVariant *details, gboolean is_prompt)
{
  HeraldClient *client = client_pointer;
  gboolean show = TRUE;
  g_variant_ref_sink (details);
  /* Herald reports from its context: acquiring it here only succeeds on the thread that runs it. */
  gboolean owner = g_main_context_is_owner (client->context);
  gboolean acquired = !owner && g_main_context_acquire (client->context);
  if (owner || acquired)
    {
      HeraldMessage *message = g_object_new (HERALD_TYPE_MESSAGE, "id", id, "title", title, "body", body, "action-url",
                                             action_url, "button-label", button_label, "details", details, "is-prompt",
                                             is_prompt, NULL);
      g_object_ref (client);
      g_signal_emit (client, signals[SIGNAL_SHOULD_SHOW], 0, message, &show);
      g_object_unref (client);
      g_object_unref (message);
    }
  else
    g_critical ("HeraldClient::should-show: asked while another thread held the GLib default main context, where "
                "Herald runs; the message is shown without asking the app");
  if (acquired)
    g_main_context_release (client->context);
  g_variant_unref (details);
  return show;
}

static const LibheraldCallbacks callbacks = {
  .shown = report_shown,
  .answered = report_answered,
  .closed = report_closed,
  .should_show = ask_should_show,
  .event = report_event,
  .failed = report_failed,
  .check_finished = report_check_finished,
};

/* ---- Herald's context ---- */

/* Herald runs on the GLib default main context: a call into it takes that context for its time,
 * which works on the thread that runs its loop, or on any thread while no loop runs it. From
 * another thread the call is refused with a critical warning, rather than racing Herald. */
static gboolean
enter_herald_context (const char *call)
{
  if (g_main_context_acquire (g_main_context_default ()))
    return TRUE;
  g_critical ("%s: called from a thread other than the one that runs the GLib default main context, where Herald runs", call);
  return FALSE;
}

static void
leave_herald_context (void)
{
  g_main_context_release (g_main_context_default ());
}

/* ---- The object ---- */

/* Sets a string property's copy. */
static void
replace_string (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

/* The numbers and switches are set at construction, to their properties' defaults when not given. */
static void
herald_client_init (G_GNUC_UNUSED HeraldClient *client)
{
}

static void
herald_client_constructed (GObject *object)
{
  HeraldClient *client = HERALD_CLIENT (object);
  G_OBJECT_CLASS (herald_client_parent_class)->constructed (object);
  client->context = g_main_context_ref_thread_default ();
  /* Herald's I/O and timers run on the default context: a thread that runs a context of its own
   * would never see them, so such a client is refused (herald.h says so). */
  if (client->context != g_main_context_default ())
    {
      g_critical ("herald_client_new: called while another GMainContext than the default one is thread-default "
                  "(g_main_context_push_thread_default); Herald runs on the GLib default main context: create and "
                  "call the client where no other context is pushed");
      client->configuration_error = g_error_new_literal (HERALD_ERROR, HERALD_ERROR_CONFIGURATION,
                                                         "the client was made while another GMainContext than the "
                                                         "GLib default main context was thread-default");
      return;
    }
  if (!enter_herald_context ("herald_client_new"))
    {
      client->configuration_error = g_error_new_literal (HERALD_ERROR, HERALD_ERROR_CONFIGURATION,
                                                         "the client was made off the thread that runs the GLib default main context");
      return;
    }
  int code = 0;
  char *message = NULL;
  client->bridge = libherald_bridge_new (&client->configuration, &callbacks, client, &code, &message);
  leave_herald_context ();
  if (client->bridge == NULL)
    client->configuration_error = g_error_new_literal (HERALD_ERROR, code, message != NULL ? message : "");
  g_free (message);
}

/* Frees a client's bridge in the GLib default main context, where Herald runs: the last
 * reference of a client dropped on another thread, which the source's destroy notify then
 * lets go. */
static gboolean
free_bridge_where_herald_runs (gpointer data)
{
  HeraldClient *client = data;
  if (client->bridge != NULL)
    {
      libherald_bridge_free (client->bridge);
      client->bridge = NULL;
    }
  return G_SOURCE_REMOVE;
}

static void
herald_client_dispose (GObject *object)
{
  HeraldClient *client = HERALD_CLIENT (object);
  if (client->bridge != NULL)
    {
      if (g_main_context_acquire (g_main_context_default ()))
        {
          libherald_bridge_free (client->bridge);
          client->bridge = NULL;
          leave_herald_context ();
        }
      else
        {
          /* Dropped on another thread (a garbage collector's, say) while the loop runs: the
           * bridge, which reports to this client, is freed where Herald runs, and the client
           * lives until then. Its handlers go now, so nothing more reaches the app. */
          g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, free_bridge_where_herald_runs, g_object_ref (client),
                                      g_object_unref);
        }
    }
  G_OBJECT_CLASS (herald_client_parent_class)->dispose (object);
}

static void
herald_client_finalize (GObject *object)
{
  HeraldClient *client = HERALD_CLIENT (object);
  g_free ((char *) client->configuration.feed_url);
  g_free ((char *) client->configuration.app_id);
  g_free ((char *) client->configuration.app_version);
  g_free ((char *) client->configuration.app_name);
  g_free ((char *) client->configuration.icon);
  g_free ((char *) client->configuration.ca_file);
  g_strfreev ((GStrv) client->configuration.allowed_schemes);
  g_strfreev ((GStrv) client->configuration.public_keys);
  g_clear_pointer (&client->context, g_main_context_unref);
  g_clear_error (&client->configuration_error);
  G_OBJECT_CLASS (herald_client_parent_class)->finalize (object);
}

static void
herald_client_get_property (GObject *object, guint id, GValue *value, GParamSpec *spec)
{
  HeraldClient *client = HERALD_CLIENT (object);
  switch (id)
    {
    case PROP_FEED_URL: g_value_set_string (value, client->configuration.feed_url); break;
    case PROP_APP_ID: g_value_set_string (value, client->configuration.app_id); break;
    case PROP_APP_VERSION: g_value_set_string (value, client->configuration.app_version); break;
    case PROP_APP_NAME: g_value_set_string (value, client->configuration.app_name); break;
    case PROP_ICON: g_value_set_string (value, client->configuration.icon); break;
    case PROP_CA_FILE: g_value_set_string (value, client->configuration.ca_file); break;
    case PROP_ALLOWED_SCHEMES: g_value_set_boxed (value, client->configuration.allowed_schemes); break;
    case PROP_PUBLIC_KEYS: g_value_set_boxed (value, client->configuration.public_keys); break;
    case PROP_CHECK_PERIOD: g_value_set_double (value, client->configuration.check_period); break;
    case PROP_REMIND_PERIOD: g_value_set_double (value, client->configuration.remind_period); break;
    case PROP_TIMEOUT: g_value_set_double (value, client->configuration.timeout); break;
    case PROP_WAIT_LIMIT: g_value_set_double (value, client->configuration.wait_limit); break;
    case PROP_MAX_PER_CHECK: g_value_set_int (value, client->configuration.max_per_check); break;
    case PROP_SHOW_ON_FIRST_LAUNCH: g_value_set_boolean (value, client->configuration.show_on_first_launch); break;
    case PROP_SHOW_OLDEST_FIRST: g_value_set_boolean (value, client->configuration.show_oldest_first); break;
    case PROP_CHECK_AT_LAUNCH: g_value_set_boolean (value, client->configuration.check_at_launch); break;
    case PROP_DEBUG: g_value_set_boolean (value, client->configuration.debug); break;
    case PROP_ALLOW_CRITICAL_URGENCY: g_value_set_boolean (value, client->configuration.allow_critical_urgency); break;
    case PROP_ALLOW_PLAIN_HTTP_FEED: g_value_set_boolean (value, client->configuration.allow_plain_http_feed); break;
    case PROP_WHATS_NEW: g_value_set_boolean (value, client->configuration.whats_new); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, spec);
    }
}

static void
herald_client_set_property (GObject *object, guint id, const GValue *value, GParamSpec *spec)
{
  HeraldClient *client = HERALD_CLIENT (object);
  switch (id)
    {
    case PROP_FEED_URL: replace_string ((char **) &client->configuration.feed_url, g_value_get_string (value)); break;
    case PROP_APP_ID: replace_string ((char **) &client->configuration.app_id, g_value_get_string (value)); break;
    case PROP_APP_VERSION: replace_string ((char **) &client->configuration.app_version, g_value_get_string (value)); break;
    case PROP_APP_NAME: replace_string ((char **) &client->configuration.app_name, g_value_get_string (value)); break;
    case PROP_ICON: replace_string ((char **) &client->configuration.icon, g_value_get_string (value)); break;
    case PROP_CA_FILE: replace_string ((char **) &client->configuration.ca_file, g_value_get_string (value)); break;
    case PROP_ALLOWED_SCHEMES:
      g_strfreev ((GStrv) client->configuration.allowed_schemes);
      client->configuration.allowed_schemes = g_value_dup_boxed (value);
      break;
    case PROP_PUBLIC_KEYS:
      g_strfreev ((GStrv) client->configuration.public_keys);
      client->configuration.public_keys = g_value_dup_boxed (value);
      break;
    case PROP_CHECK_PERIOD: client->configuration.check_period = g_value_get_double (value); break;
    case PROP_REMIND_PERIOD: client->configuration.remind_period = g_value_get_double (value); break;
    case PROP_TIMEOUT: client->configuration.timeout = g_value_get_double (value); break;
    case PROP_WAIT_LIMIT: client->configuration.wait_limit = g_value_get_double (value); break;
    case PROP_MAX_PER_CHECK: client->configuration.max_per_check = g_value_get_int (value); break;
    case PROP_SHOW_ON_FIRST_LAUNCH: client->configuration.show_on_first_launch = g_value_get_boolean (value); break;
    case PROP_SHOW_OLDEST_FIRST: client->configuration.show_oldest_first = g_value_get_boolean (value); break;
    case PROP_CHECK_AT_LAUNCH: client->configuration.check_at_launch = g_value_get_boolean (value); break;
    case PROP_DEBUG: client->configuration.debug = g_value_get_boolean (value); break;
    case PROP_ALLOW_CRITICAL_URGENCY: client->configuration.allow_critical_urgency = g_value_get_boolean (value); break;
    case PROP_ALLOW_PLAIN_HTTP_FEED: client->configuration.allow_plain_http_feed = g_value_get_boolean (value); break;
    case PROP_WHATS_NEW: client->configuration.whats_new = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, spec);
    }
}

/* should-show's default, after the app's handlers: yes. */
static gboolean
herald_client_real_should_show (HeraldClient *client, HeraldMessage *message)
{
  return TRUE;
}

/* The first handler that says no ends the emission with no. */
static gboolean
accumulate_veto (GSignalInvocationHint *hint, GValue *accumulated, const GValue *handler_return, gpointer data)
{
  gboolean show = g_value_get_boolean (handler_return);
  g_value_set_boolean (accumulated, show);
  return show;
}

#define CONSTRUCT_ONLY (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS)

static void
herald_client_class_init (HeraldClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->constructed = herald_client_constructed;
  object_class->dispose = herald_client_dispose;
  object_class->finalize = herald_client_finalize;
  object_class->get_property = herald_client_get_property;
  object_class->set_property = herald_client_set_property;
  /* The properties' defaults are Herald's. */
  LibheraldConfiguration defaults = { 0 };
  libherald_bridge_defaults (&defaults);

  /**
   * HeraldClient:feed-url:
   *
   * The feed: https, file, or http on this machine (others need #HeraldClient:allow-plain-http-feed);
   * %NULL for an app that only shows local prompts. `{lang}` in it is filled with the user's languages.
   */
  properties[PROP_FEED_URL] = g_param_spec_string ("feed-url", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldClient:app-id:
   *
   * The app's id, e.g. "org.example.App": names the state file and the notifications' desktop entry.
   */
  properties[PROP_APP_ID] = g_param_spec_string ("app-id", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldClient:app-version:
   *
   * The app's version, compared with a message's MinVersion and MaxVersion; %NULL skips that.
   */
  properties[PROP_APP_VERSION] = g_param_spec_string ("app-version", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldClient:app-name:
   *
   * The name the notification server shows as the sender; %NULL for the app id.
   */
  properties[PROP_APP_NAME] = g_param_spec_string ("app-name", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldClient:icon:
   *
   * An icon name or file:// URI shown with the messages.
   */
  properties[PROP_ICON] = g_param_spec_string ("icon", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldClient:ca-file:
   *
   * A PEM file of the certificate authorities trusted for an https feed, in place of the system's.
   */
  properties[PROP_CA_FILE] = g_param_spec_string ("ca-file", NULL, NULL, NULL, CONSTRUCT_ONLY);
  /**
   * HeraldClient:allowed-schemes:
   *
   * Custom link schemes the app opens itself (e.g. "myapp"); http and https are always allowed.
   */
  properties[PROP_ALLOWED_SCHEMES] = g_param_spec_boxed ("allowed-schemes", NULL, NULL, G_TYPE_STRV, CONSTRUCT_ONLY);
  /**
   * HeraldClient:public-keys:
   *
   * The Ed25519 public keys (base64) the app trusts: the feed must be signed with one of them.
   */
  properties[PROP_PUBLIC_KEYS] = g_param_spec_boxed ("public-keys", NULL, NULL, G_TYPE_STRV, CONSTRUCT_ONLY);
  /**
   * HeraldClient:check-period:
   *
   * The seconds between checks. Default 12 hours.
   */
  properties[PROP_CHECK_PERIOD] = g_param_spec_double ("check-period", NULL, NULL, 0, G_MAXDOUBLE, defaults.check_period, CONSTRUCT_ONLY);
  /**
   * HeraldClient:remind-period:
   *
   * The seconds a message waits after "remind me later". Default 1 day.
   */
  properties[PROP_REMIND_PERIOD] = g_param_spec_double ("remind-period", NULL, NULL, 0, G_MAXDOUBLE, defaults.remind_period, CONSTRUCT_ONLY);
  /**
   * HeraldClient:timeout:
   *
   * The seconds the fetch may take, and the longest wait for a lock another process holds. Default 60.
   */
  properties[PROP_TIMEOUT] = g_param_spec_double ("timeout", NULL, NULL, 0, G_MAXDOUBLE, defaults.timeout, CONSTRUCT_ONLY);
  /**
   * HeraldClient:wait-limit:
   *
   * The seconds to wait for answers, from a check's first notification, before closing what is
   * still shown; 0 waits as long as the app runs.
   */
  properties[PROP_WAIT_LIMIT] = g_param_spec_double ("wait-limit", NULL, NULL, 0, G_MAXDOUBLE, defaults.wait_limit, CONSTRUCT_ONLY);
  /**
   * HeraldClient:max-per-check:
   *
   * How many messages one check may show. Default 3.
   */
  properties[PROP_MAX_PER_CHECK] = g_param_spec_int ("max-per-check", NULL, NULL, 1, G_MAXINT, defaults.max_per_check, CONSTRUCT_ONLY);
  /**
   * HeraldClient:show-on-first-launch:
   *
   * Whether the very first launch checks too; by default it only marks itself.
   */
  properties[PROP_SHOW_ON_FIRST_LAUNCH] = g_param_spec_boolean ("show-on-first-launch", NULL, NULL, defaults.show_on_first_launch, CONSTRUCT_ONLY);
  /**
   * HeraldClient:show-oldest-first:
   *
   * Whether the oldest pending message shows first instead of the newest.
   */
  properties[PROP_SHOW_OLDEST_FIRST] = g_param_spec_boolean ("show-oldest-first", NULL, NULL, defaults.show_oldest_first, CONSTRUCT_ONLY);
  /**
   * HeraldClient:check-at-launch:
   *
   * Whether herald_client_app_launched() checks the feed. Default %TRUE.
   */
  properties[PROP_CHECK_AT_LAUNCH] = g_param_spec_boolean ("check-at-launch", NULL, NULL, defaults.check_at_launch, CONSTRUCT_ONLY);
  /**
   * HeraldClient:debug:
   *
   * Skips the first-launch, check-period and remind gates, for publishers trying out a feed.
   */
  properties[PROP_DEBUG] = g_param_spec_boolean ("debug", NULL, NULL, defaults.debug, CONSTRUCT_ONLY);
  /**
   * HeraldClient:allow-critical-urgency:
   *
   * Whether a message may ask for critical urgency, which keeps it on screen until answered.
   */
  properties[PROP_ALLOW_CRITICAL_URGENCY] = g_param_spec_boolean ("allow-critical-urgency", NULL, NULL, defaults.allow_critical_urgency, CONSTRUCT_ONLY);
  /**
   * HeraldClient:allow-plain-http-feed:
   *
   * Whether the feed may be fetched over plain http from any host, not only this machine.
   */
  properties[PROP_ALLOW_PLAIN_HTTP_FEED] = g_param_spec_boolean ("allow-plain-http-feed", NULL, NULL, defaults.allow_plain_http_feed, CONSTRUCT_ONLY);
  /**
   * HeraldClient:whats-new:
   *
   * Whether a launch after an update shows "What's new in <version>" once, made from the
   * `<release>` notes of the app's AppStream metainfo
   * (`$XDG_DATA_DIRS/metainfo/<app-id>.metainfo.xml`) since the version Herald last saw run:
   * an announcement, counted against the person's attention budget and muted with that
   * category, and kept in the app's inbox (herald_client_get_inbox()). The first run only
   * records the version. Needs #HeraldClient:app-version. Default %FALSE.
   */
  properties[PROP_WHATS_NEW] = g_param_spec_boolean ("whats-new", NULL, NULL, defaults.whats_new, CONSTRUCT_ONLY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * HeraldClient::shown:
   * @client: the client
   * @message_id: the message's id in the feed
   *
   * A message is on screen.
   */
  signals[SIGNAL_SHOWN] = g_signal_new ("shown", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * HeraldClient::answered:
   * @client: the client
   * @message_id: the message's id in the feed
   * @answer: view, remind, ignore or ok
   * @while_away: %TRUE for an answer given while the app was not running, to a message handed
   *   over when it quit (herald_client_app_will_quit()): reported at the next launch, before
   *   its check, once per answer, oldest first
   *
   * The user answered a message; the answer is already recorded, and a view's link opens after
   * this signal.
   */
  signals[SIGNAL_ANSWERED] = g_signal_new ("answered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_BOOLEAN);
  /**
   * HeraldClient::closed:
   * @client: the client
   * @message_id: the message's id in the feed
   * @reason: expired, dismissed, closed-by-herald or undefined
   *
   * A message closed without an answer.
   */
  signals[SIGNAL_CLOSED] = g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * HeraldClient::prompt-shown:
   * @client: the client
   * @prompt_name: the prompt's name
   *
   * A prompt is on screen.
   */
  signals[SIGNAL_PROMPT_SHOWN] = g_signal_new ("prompt-shown", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                               NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * HeraldClient::prompt-answered:
   * @client: the client
   * @prompt_name: the prompt's name
   * @button: action, remind or cancel
   *
   * The user pressed a prompt's button; the action's link opens after this signal.
   */
  signals[SIGNAL_PROMPT_ANSWERED] = g_signal_new ("prompt-answered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                                  NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * HeraldClient::prompt-closed:
   * @client: the client
   * @prompt_name: the prompt's name
   * @reason: expired, dismissed, closed-by-herald or undefined
   *
   * A prompt closed without an answer.
   */
  signals[SIGNAL_PROMPT_CLOSED] = g_signal_new ("prompt-closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * HeraldClient::check-finished:
   * @client: the client
   *
   * Every shown message and prompt is answered or closed, or nothing was due: the check is over.
   */
  signals[SIGNAL_CHECK_FINISHED] = g_signal_new ("check-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                 NULL, G_TYPE_NONE, 0);
  /**
   * HeraldClient::failed:
   * @client: the client
   * @error: why, in the #HERALD_ERROR domain
   *
   * The check failed (or the configuration cannot work): nothing more is shown at this check.
   */
  signals[SIGNAL_FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_ERROR);
  /**
   * HeraldClient::should-show:
   * @client: the client
   * @message: the message or prompt about to be shown
   *
   * Whether a message or a due prompt may be shown: a handler that returns %FALSE leaves it
   * unmarked, and the next one is tried. An app that draws its own interface shows @message
   * itself and returns %FALSE. Default %TRUE.
   *
   * Returns: %TRUE to let Herald show it
   */
  signals[SIGNAL_SHOULD_SHOW] = g_signal_new_class_handler ("should-show", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                            G_CALLBACK (herald_client_real_should_show), accumulate_veto,
                                                            NULL, NULL, G_TYPE_BOOLEAN, 1, HERALD_TYPE_MESSAGE);
  /**
   * HeraldClient::event:
   * @client: the client
   * @kind: what happened
   * @subject: (nullable): the message id, prompt name or URL it is about, or %NULL
   * @reason: (nullable): a short machine-readable reason (check-period, muted, not-modified…), or %NULL
   * @detail: (nullable): one sentence for people, or %NULL
   *
   * Something else happened in a check: skipped, deferred, fetched, pending, a message left out,
   * a prompt's decision, a link or an answer that failed.
   */
  signals[SIGNAL_EVENT] = g_signal_new ("event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 4, HERALD_TYPE_EVENT_KIND, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
}

HeraldClient *
herald_client_new (const char *feed_url, const char *app_id, const char *app_version)
{
  return g_object_new (HERALD_TYPE_CLIENT, "feed-url", feed_url, "app-id", app_id, "app-version", app_version, NULL);
}

/* Reports the configuration's error for a call that would check, from the loop, as a check's
 * failure comes: the call itself returns at once. */
static void
report_configuration_error (HeraldClient *client)
{
  Emission *emission = emission_new (client, SIGNAL_FAILED, NULL, NULL, NULL, 0, FALSE,
                                     g_error_copy (client->configuration_error));
  GSource *source = g_idle_source_new ();
  g_source_set_callback (source, emission_run, emission, emission_free);
  g_source_attach (source, client->context);
  g_source_unref (source);
}

void
herald_client_app_launched (HeraldClient *client)
{
  g_return_if_fail (HERALD_IS_CLIENT (client));
  if (client->bridge == NULL)
    report_configuration_error (client);
  else if (enter_herald_context ("herald_client_app_launched"))
    {
      libherald_bridge_app_launched (client->bridge);
      leave_herald_context ();
    }
}

void
herald_client_check_now (HeraldClient *client)
{
  g_return_if_fail (HERALD_IS_CLIENT (client));
  if (client->bridge == NULL)
    report_configuration_error (client);
  else if (enter_herald_context ("herald_client_check_now"))
    {
      libherald_bridge_check_now (client->bridge);
      leave_herald_context ();
    }
}

void
herald_client_app_will_quit (HeraldClient *client)
{
  g_return_if_fail (HERALD_IS_CLIENT (client));
  if (client->bridge != NULL && enter_herald_context ("herald_client_app_will_quit"))
    {
      libherald_bridge_app_will_quit (client->bridge);
      leave_herald_context ();
    }
}

void
herald_client_close_shown_messages (HeraldClient *client)
{
  g_return_if_fail (HERALD_IS_CLIENT (client));
  if (client->bridge != NULL && enter_herald_context ("herald_client_close_shown_messages"))
    {
      libherald_bridge_close_shown_messages (client->bridge);
      leave_herald_context ();
    }
}

/* Sets `error` from the bridge's code and message, which it takes. */
static gboolean
set_bridge_error (GError **error, int code, char *message)
{
  g_set_error_literal (error, HERALD_ERROR, code, message != NULL ? message : "");
  g_free (message);
  return FALSE;
}

/* Whether the client has Herald; otherwise sets `error` to why its configuration cannot work. */
static gboolean
has_bridge (HeraldClient *client, GError **error)
{
  if (client->bridge != NULL)
    return TRUE;
  g_propagate_error (error, g_error_copy (client->configuration_error));
  return FALSE;
}

/* Sets `error` for a call refused off Herald's thread. */
static gboolean
set_off_context_error (GError **error)
{
  g_set_error_literal (error, HERALD_ERROR, HERALD_ERROR_CONFIGURATION,
                       "called off the thread that runs the GLib default main context, where Herald runs");
  return FALSE;
}

gboolean
herald_client_add_prompts_file (HeraldClient *client, const char *path, GError **error)
{
  g_return_val_if_fail (HERALD_IS_CLIENT (client), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!has_bridge (client, error))
    return FALSE;
  char *bytes = NULL;
  gsize length = 0;
  if (!g_file_get_contents (path, &bytes, &length, error))
    return FALSE;
  if (!enter_herald_context ("herald_client_add_prompts_file"))
    {
      g_free (bytes);
      return set_off_context_error (error);
    }
  int code = 0;
  char *message = NULL;
  gboolean added = libherald_bridge_add_prompts (client->bridge, bytes, length, &code, &message);
  leave_herald_context ();
  g_free (bytes);
  return added ? TRUE : set_bridge_error (error, code, message);
}

gboolean
herald_client_add_prompt (HeraldClient *client, const char *name, const char *title, const char *body,
                          const char *action_url, guint uses_until_prompt, double days_until_prompt, GError **error)
{
  g_return_val_if_fail (HERALD_IS_CLIENT (client), FALSE);
  g_return_val_if_fail (name != NULL && title != NULL && body != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!has_bridge (client, error))
    return FALSE;
  if (!enter_herald_context ("herald_client_add_prompt"))
    return set_off_context_error (error);
  int code = 0;
  char *message = NULL;
  gboolean added = libherald_bridge_add_prompt (client->bridge, name, title, body, action_url, uses_until_prompt,
                                                days_until_prompt, &code, &message);
  leave_herald_context ();
  return added ? TRUE : set_bridge_error (error, code, message);
}

GList *
herald_client_get_inbox (HeraldClient *client, GError **error)
{
  g_return_val_if_fail (HERALD_IS_CLIENT (client), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!has_bridge (client, error))
    return NULL;
  if (!enter_herald_context ("herald_client_get_inbox"))
    {
      set_off_context_error (error);
      return NULL;
    }
  GQueue inbox = G_QUEUE_INIT;
  int code = 0;
  char *message = NULL;
  gboolean read = libherald_bridge_inbox (client->bridge, libherald_inbox_append, &inbox, &code, &message);
  leave_herald_context ();
  if (!read)
    {
      g_queue_clear_full (&inbox, g_object_unref);
      set_bridge_error (error, code, message);
      return NULL;
    }
  return inbox.head;
}

gboolean
herald_client_record_answer (HeraldClient *client, const char *message_id, const char *answer, GError **error)
{
  g_return_val_if_fail (HERALD_IS_CLIENT (client), FALSE);
  g_return_val_if_fail (message_id != NULL && answer != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!has_bridge (client, error))
    return FALSE;
  if (!enter_herald_context ("herald_client_record_answer"))
    return set_off_context_error (error);
  int code = 0;
  char *message = NULL;
  gboolean recorded = libherald_bridge_record_answer (client->bridge, message_id, answer, &code, &message);
  leave_herald_context ();
  return recorded ? TRUE : set_bridge_error (error, code, message);
}

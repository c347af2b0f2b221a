/* libherald-1: Herald for apps written in C, Python, JavaScript, Vala and every language
 * GObject Introspection reaches (namespace Herald, version 1; pkg-config herald-1).
 * Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
 */
#ifndef HERALD_H
#define HERALD_H

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * SECTION:herald
 * @title: Herald
 * @short_description: messages from an app's feed, as desktop notifications
 *
 * A #HeraldClient checks an app's message feed and shows what this user has not answered,
 * as Herald's Swift library does; its signals report what happens. Create one at start-up,
 * connect the signals, and call herald_client_app_launched(). Everything runs on the GLib
 * default main context, which a GTK or GLib app's loop already runs: call the client from the
 * thread that runs that loop. The signals are emitted in that context, never from another
 * thread.
 *
 * A client is refused, with a critical warning, when it is created while another
 * #GMainContext than the default one is thread-default (g_main_context_push_thread_default()
 * in a thread of the app's): Herald's fetches and timers run on the default context, which
 * such a thread does not run. That client does nothing but report #HeraldClient::failed
 * (%HERALD_ERROR_CONFIGURATION), in the context that was thread-default, at
 * herald_client_app_launched() or herald_client_check_now().
 */

/**
 * HERALD_ERROR:
 *
 * The error domain of the errors a #HeraldClient reports in #HeraldClient::failed; the codes
 * are #HeraldError.
 */
#define HERALD_ERROR (herald_error_quark ())

/**
 * herald_error_quark:
 *
 * The quark of the #HERALD_ERROR domain.
 *
 * Returns: the error domain's quark
 */
GQuark herald_error_quark (void);

/**
 * HeraldError:
 * @HERALD_ERROR_CONFIGURATION: the configuration cannot work (an unusable app id, a refused
 *   feed URL, a public key that is not 32 bytes of base64, a limit out of range)
 * @HERALD_ERROR_KEY_FILE: a key file of the off switches cannot be read or used
 * @HERALD_ERROR_FETCH: the feed could not be fetched
 * @HERALD_ERROR_FEED: the feed (or a prompts file) could not be used
 * @HERALD_ERROR_NO_NOTIFICATION_SERVER: no notification server runs on the session bus
 * @HERALD_ERROR_PRESENTATION: the notification server refused a notification
 * @HERALD_ERROR_LIBRARY_UNAVAILABLE: GIO, libsoup 3 or libnotify cannot be loaded
 * @HERALD_ERROR_STATE_LOCKED: another process held the app's state past the timeout
 * @HERALD_ERROR_STATE: the state or the cached feed could not be written
 * @HERALD_ERROR_FEED_REPLAYED: the feed's signature matches but the feed is older than one accepted
 * @HERALD_ERROR_FEED_EXPIRED: the feed's signature matches but the feed has expired
 * @HERALD_ERROR_FEED_FOR_ANOTHER_APP: the feed's signature matches but it is for another app
 * @HERALD_ERROR_SIGNATURE: a public key is configured and the feed's signature is missing or wrong
 *
 * Why a check failed (the codes of #HERALD_ERROR): one for each kind of Herald's errors (`HeraldError.kind`).
 */
typedef enum {
  HERALD_ERROR_CONFIGURATION,
  HERALD_ERROR_KEY_FILE,
  HERALD_ERROR_FETCH,
  HERALD_ERROR_FEED,
  HERALD_ERROR_NO_NOTIFICATION_SERVER,
  HERALD_ERROR_PRESENTATION,
  HERALD_ERROR_LIBRARY_UNAVAILABLE,
  HERALD_ERROR_STATE_LOCKED,
  HERALD_ERROR_STATE,
  HERALD_ERROR_FEED_REPLAYED,
  HERALD_ERROR_FEED_EXPIRED,
  HERALD_ERROR_FEED_FOR_ANOTHER_APP,
  HERALD_ERROR_SIGNATURE,
} HeraldError;

GType herald_error_get_type (void);
#define HERALD_TYPE_ERROR (herald_error_get_type ())

/**
 * HeraldEventKind:
 * @HERALD_EVENT_CHECK_SKIPPED: a check did not run; the reason is first-launch, check-period,
 *   failure-backoff, retry-after (the feed server asked to wait), delegate-declined or muted
 * @HERALD_EVENT_CHECK_DEFERRED: the person asked for quiet; nothing is shown, a later check
 *   tries again; the reason is the quiet's name
 * @HERALD_EVENT_FETCHING_MIRROR: the check fetches the administrator's mirror; the subject is its URL
 * @HERALD_EVENT_FEED_FETCHED: the feed arrived; the reason is fetched or not-modified
 * @HERALD_EVENT_BUDGET_NOT_KEPT: the person's attention ledger cannot be used; the check goes
 *   on without the budget
 * @HERALD_EVENT_PENDING: the messages pending for this user; the subject is their ids in
 *   display order, separated by new lines (empty when none)
 * @HERALD_EVENT_MESSAGE_SKIPPED: a message (the subject) is left out at this check, and why
 * @HERALD_EVENT_PROMPT_DECIDED: a prompt's (the subject) decision at this launch
 * @HERALD_EVENT_LINK_NOT_OPENED: a view link (the subject) could not be opened
 * @HERALD_EVENT_ANSWER_NOT_RECORDED: an answer to a message (the subject) could not be written
 *   to the state; it comes back at a later check
 *
 * What a check reports in #HeraldClient::event, besides the signals of its own (shown,
 * answered, closed, failed, check-finished).
 */
typedef enum {
  HERALD_EVENT_CHECK_SKIPPED,
  HERALD_EVENT_CHECK_DEFERRED,
  HERALD_EVENT_FETCHING_MIRROR,
  HERALD_EVENT_FEED_FETCHED,
  HERALD_EVENT_BUDGET_NOT_KEPT,
  HERALD_EVENT_PENDING,
  HERALD_EVENT_MESSAGE_SKIPPED,
  HERALD_EVENT_PROMPT_DECIDED,
  HERALD_EVENT_LINK_NOT_OPENED,
  HERALD_EVENT_ANSWER_NOT_RECORDED,
} HeraldEventKind;

GType herald_event_kind_get_type (void);
#define HERALD_TYPE_EVENT_KIND (herald_event_kind_get_type ())

/**
 * HeraldInboxState:
 * @HERALD_INBOX_STATE_DUE: kept for the person and not shown yet: a coming check shows it
 * @HERALD_INBOX_STATE_SHOWN: shown, and not answered yet
 * @HERALD_INBOX_STATE_VIEWED: viewed (its link opened) or acknowledged
 * @HERALD_INBOX_STATE_IGNORED: ignored: it is never shown again
 * @HERALD_INBOX_STATE_REMIND_LATER: put off with "remind me later"; shown again from
 *   #HeraldInboxMessage:until
 * @HERALD_INBOX_STATE_WAITING_FOR_ROOM: held back by the person's attention budget; there is
 *   room for it again at #HeraldInboxMessage:until (%NULL: not while the budget is smaller than
 *   the message's weight)
 * @HERALD_INBOX_STATE_DEFERRED_FOR_QUIET: held back while the desktop asked for quiet
 *   (do-not-disturb)
 * @HERALD_INBOX_STATE_CATEGORY_MUTED: its category is muted, by the person or by the
 *   administrator (#HeraldInboxMessage:muted-by-administrator)
 * @HERALD_INBOX_STATE_WITHDRAWN: its publisher took it out of the feed, first found missing at
 *   #HeraldInboxMessage:withdrawn-since
 * @HERALD_INBOX_STATE_APP_MUTED: its app is muted (`herald mute`, the app's switch in the
 *   desktop's settings), by the person or by the administrator
 *   (#HeraldInboxMessage:muted-by-administrator): nothing of the app is fetched or shown
 *
 * Where a message of the app's inbox stands for the person (#HeraldInboxMessage:state).
 */
typedef enum {
  HERALD_INBOX_STATE_DUE,
  HERALD_INBOX_STATE_SHOWN,
  HERALD_INBOX_STATE_VIEWED,
  HERALD_INBOX_STATE_IGNORED,
  HERALD_INBOX_STATE_REMIND_LATER,
  HERALD_INBOX_STATE_WAITING_FOR_ROOM,
  HERALD_INBOX_STATE_DEFERRED_FOR_QUIET,
  HERALD_INBOX_STATE_CATEGORY_MUTED,
  HERALD_INBOX_STATE_WITHDRAWN,
  HERALD_INBOX_STATE_APP_MUTED,
} HeraldInboxState;

GType herald_inbox_state_get_type (void);
#define HERALD_TYPE_INBOX_STATE (herald_inbox_state_get_type ())

/**
 * HeraldMessage:
 *
 * A message of the feed, or a local prompt, as #HeraldClient::should-show offers it: what an
 * app needs to draw its own interface for it.
 */
#define HERALD_TYPE_MESSAGE (herald_message_get_type ())
G_DECLARE_FINAL_TYPE (HeraldMessage, herald_message, HERALD, MESSAGE, GObject)

/**
 * herald_message_get_id:
 * @message: the message
 *
 * The message's id in the feed, or the prompt's name.
 *
 * Returns: (transfer none): the id
 */
const char *herald_message_get_id (HeraldMessage *message);

/**
 * herald_message_get_title:
 * @message: the message
 *
 * The title.
 *
 * Returns: (transfer none) (nullable): the title, or %NULL when it has none
 */
const char *herald_message_get_title (HeraldMessage *message);

/**
 * herald_message_get_body:
 * @message: the message
 *
 * The message's text.
 *
 * Returns: (transfer none) (nullable): the text, or %NULL when it has none
 */
const char *herald_message_get_body (HeraldMessage *message);

/**
 * herald_message_get_action_url:
 * @message: the message
 *
 * The link the view button opens.
 *
 * Returns: (transfer none) (nullable): the link, or %NULL when the message has none
 */
const char *herald_message_get_action_url (HeraldMessage *message);

/**
 * herald_message_get_button_label:
 * @message: the message
 *
 * The feed's label for the view button.
 *
 * Returns: (transfer none) (nullable): the label, or %NULL for Herald's own
 */
const char *herald_message_get_button_label (HeraldMessage *message);

/**
 * herald_message_get_details:
 * @message: the message
 *
 * Every key of the message as the feed wrote it (see #HeraldMessage:details).
 *
 * Returns: (transfer none): an a{sv} dictionary
 */
GVariant *herald_message_get_details (HeraldMessage *message);

/**
 * herald_message_get_is_prompt:
 * @message: the message
 *
 * Whether it is a local prompt rather than a message of the feed.
 *
 * Returns: %TRUE for a prompt
 */
gboolean herald_message_get_is_prompt (HeraldMessage *message);

/**
 * HeraldInboxMessage:
 *
 * A message of the app's own that reached the person through Herald in the last 180 days,
 * with where it stands now: one entry of the app's own "What's new" page
 * (herald_client_get_inbox()), the same as `herald inbox --app-id` lists.
 */
#define HERALD_TYPE_INBOX_MESSAGE (herald_inbox_message_get_type ())
G_DECLARE_FINAL_TYPE (HeraldInboxMessage, herald_inbox_message, HERALD, INBOX_MESSAGE, GObject)

/**
 * herald_inbox_message_get_id:
 * @message: the inbox message
 *
 * The message's id in the feed.
 *
 * Returns: (transfer none): the id
 */
const char *herald_inbox_message_get_id (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_title:
 * @message: the inbox message
 *
 * The title as the notification showed it, in the person's language.
 *
 * Returns: (transfer none): the title
 */
const char *herald_inbox_message_get_title (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_body:
 * @message: the inbox message
 *
 * The text as the notification showed it, line breaks kept.
 *
 * Returns: (transfer none): the text
 */
const char *herald_inbox_message_get_body (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_link:
 * @message: the inbox message
 *
 * The link its view button opens.
 *
 * Returns: (transfer none) (nullable): the link, or %NULL when it has none
 */
const char *herald_inbox_message_get_link (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_button_label:
 * @message: the inbox message
 *
 * The feed's label for the view button.
 *
 * Returns: (transfer none) (nullable): the label, or %NULL for Herald's own
 */
const char *herald_inbox_message_get_button_label (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_category:
 * @message: the inbox message
 *
 * Its category: announcement, tip, promotion, security or survey.
 *
 * Returns: (transfer none): the category
 */
const char *herald_inbox_message_get_category (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_reached:
 * @message: the inbox message
 *
 * When it first reached the person.
 *
 * Returns: (transfer none): the time, in UTC
 */
GDateTime *herald_inbox_message_get_reached (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_last_shown:
 * @message: the inbox message
 *
 * When it was last shown.
 *
 * Returns: (transfer none) (nullable): the time, in UTC, or %NULL when it never was
 */
GDateTime *herald_inbox_message_get_last_shown (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_state:
 * @message: the inbox message
 *
 * Where it stands now: its answer, or why it waits.
 *
 * Returns: the state
 */
HeraldInboxState herald_inbox_message_get_state (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_state_text:
 * @message: the inbox message
 *
 * Where it stands, as one phrase for people ("viewed", "remind me later: shown again from
 * 2026-03-02T09:00:00Z"…), as `herald inbox` writes it.
 *
 * Returns: (transfer none): the phrase
 */
const char *herald_inbox_message_get_state_text (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_until:
 * @message: the inbox message
 *
 * Until when it waits: for %HERALD_INBOX_STATE_REMIND_LATER, when it is shown again; for
 * %HERALD_INBOX_STATE_WAITING_FOR_ROOM, when the attention budget has room for it again.
 *
 * Returns: (transfer none) (nullable): the time, in UTC, or %NULL for the other states and
 *   for a message that waits for room while the budget is smaller than its weight
 */
GDateTime *herald_inbox_message_get_until (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_withdrawn_since:
 * @message: the inbox message
 *
 * For %HERALD_INBOX_STATE_WITHDRAWN, when its publisher's feed was first found without it.
 *
 * Returns: (transfer none) (nullable): the time, in UTC, or %NULL for the other states
 */
GDateTime *herald_inbox_message_get_withdrawn_since (HeraldInboxMessage *message);

/**
 * herald_inbox_message_get_muted_by_administrator:
 * @message: the inbox message
 *
 * For %HERALD_INBOX_STATE_CATEGORY_MUTED and %HERALD_INBOX_STATE_APP_MUTED, whether the
 * administrator muted its category or its app rather than the person.
 *
 * Returns: %TRUE when the administrator muted it
 */
gboolean herald_inbox_message_get_muted_by_administrator (HeraldInboxMessage *message);

/**
 * HeraldClient:
 *
 * Herald for one app: its feed, its prompts, and the signals that report what happens. Keep
 * the client for as long as you want its signals: a check still running when it is finalized
 * goes on (its notifications stay answerable and their answers are recorded) but reports
 * nothing more. Its last reference may be dropped on any thread (a garbage collector's, say):
 * its handlers are disconnected at once, and while the loop runs the client lives on until
 * the default main context has let Herald go, and is finalized there.
 */
#define HERALD_TYPE_CLIENT (herald_client_get_type ())
G_DECLARE_FINAL_TYPE (HeraldClient, herald_client, HERALD, CLIENT, GObject)

/**
 * herald_client_new:
 * @feed_url: (nullable): the feed's URL, or %NULL for an app that only shows local prompts
 * @app_id: the app's id, e.g. "org.example.App"
 * @app_version: (nullable): the app's version, or %NULL
 *
 * Creates Herald for an app, with the defaults for the rest of the configuration; set the
 * other construct properties with g_object_new() instead. A configuration that cannot work
 * is reported by #HeraldClient::failed when the app launches.
 *
 * Returns: (transfer full): a new client
 */
HeraldClient *herald_client_new (const char *feed_url, const char *app_id, const char *app_version);

/**
 * herald_client_app_launched:
 * @client: the client
 *
 * The one call an app adds at start-up. Returns at once; from the main loop it counts a use of
 * every registered prompt, reports the answers given while the app was away, runs the feed
 * check when it is due, then shows the prompts that are due.
 */
void herald_client_app_launched (HeraldClient *client);

/**
 * herald_client_check_now:
 * @client: the client
 *
 * Checks now, skipping the first-launch, period and backoff gates.
 */
void herald_client_check_now (HeraldClient *client);

/**
 * herald_client_app_will_quit:
 * @client: the client
 *
 * The call an app makes as it quits: messages still on screen are handed to the Herald agent
 * where the session can start it, so they can still be answered; those answers reach
 * #HeraldClient::answered (with while_away %TRUE) at the next launch. Returns when it is done:
 * the process may exit.
 */
void herald_client_app_will_quit (HeraldClient *client);

/**
 * herald_client_close_shown_messages:
 * @client: the client
 *
 * Takes every shown message and prompt off the screen, unanswered; they come back at the next
 * due check.
 */
void herald_client_close_shown_messages (HeraldClient *client);

/**
 * herald_client_add_prompts_file:
 * @client: the client
 * @path: (type filename): a prompts file (XML, binary or OpenStep plist, or JSON), keyed by
 *   prompt name, with an optional `defaults` entry
 * @error: return location for an error
 *
 * Registers every usable prompt of a prompts file; a prompt with the name of one registered
 * before replaces it.
 *
 * Returns: %TRUE, or %FALSE with @error set when the file cannot be read or is no prompts file
 */
gboolean herald_client_add_prompts_file (HeraldClient *client, const char *path, GError **error);

/**
 * herald_client_add_prompt:
 * @client: the client
 * @name: the prompt's name, under which its state is kept
 * @title: the summary
 * @body: the body text
 * @action_url: (nullable): a link the action button opens, or %NULL
 * @uses_until_prompt: launches before the prompt is due (iPrompt's default is 10)
 * @days_until_prompt: days since the first launch before it is due (iPrompt's default is 10)
 * @error: return location for an error
 *
 * Registers one prompt (iPrompt's job) with iPrompt's defaults for the rest; a prompt with the
 * same name replaces the earlier one.
 *
 * Returns: %TRUE, or %FALSE with @error set when the prompt cannot be used
 */
gboolean herald_client_add_prompt (HeraldClient *client, const char *name, const char *title, const char *body,
                                   const char *action_url, guint uses_until_prompt, double days_until_prompt,
                                   GError **error);

/**
 * herald_client_get_inbox:
 * @client: the client
 * @error: return location for an error
 *
 * The app's own messages that reached the person in the last 180 days, newest first, each with
 * where it stands: for the app's own "What's new" page. Every message a check kept for this
 * person, whatever happened next (shown, answered, held back by the attention budget or quiet,
 * its category muted, withdrawn by its publisher). Reads without taking a lock and writes
 * nothing; read it again after an answer (#HeraldClient::answered,
 * herald_client_record_answer()) to show where the message stands now.
 *
 * Returns: (transfer full) (element-type HeraldInboxMessage): the messages, newest first, or
 *   %NULL with @error set when the app's state or inbox cannot be read; %NULL without an error
 *   when no message reached the person. Free it with `g_list_free_full (inbox, g_object_unref)`.
 */
GList *herald_client_get_inbox (HeraldClient *client, GError **error);

/**
 * herald_client_record_answer:
 * @client: the client
 * @message_id: the message's id in the feed
 * @answer: view, remind, ignore or ok
 * @error: return location for an error
 *
 * Records the person's answer to a message given in the app's own interface (its "What's new"
 * page, say), exactly as the notification's button would record it; a notification of that
 * message this client has on screen is taken off it (#HeraldClient::closed, closed-by-herald).
 * Opening the link of a view is the app's to do.
 *
 * Returns: %TRUE, or %FALSE with @error set when @answer is none of the four or the answer
 *   cannot be written (nothing is recorded then)
 */
gboolean herald_client_record_answer (HeraldClient *client, const char *message_id, const char *answer, GError **error);

G_END_DECLS

#endif /* HERALD_H */

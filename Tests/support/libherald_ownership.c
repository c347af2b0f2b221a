/* What libherald-1 frees, counted from C (LibHeraldMemoryTests): the client and every message
 * finalized exactly once, also a message the app keeps past the signal, every message of the
 * app's inbox once the app frees the list (also one it keeps past it, once it lets it go),
 * and the user data of every signal handler freed exactly once, when the client goes. Runs one
 * check that shows one message, reads the inbox after the answer, and prints what it hears and
 * the counts at the end; every handler runs on the main thread, and a call from another thread
 * while the main loop runs is refused.
 *
 *   libherald_ownership FEED_URL APP_ID
 */
#include <herald.h>
#include <locale.h>

#include "libherald_counting.h"

static int clients_finalized, messages_made, messages_finalized, inbox_made, inbox_finalized, off_main_thread;
static GThread *main_thread;
static HeraldMessage *kept;
static GMainLoop *loop;

static void
count_finalization (gpointer counter, G_GNUC_UNUSED GObject *gone)
{
  (*(int *) counter)++;
}

/* The destroy notify of the client's own data, which GObject frees when it finalizes the
 * client: a weak reference goes when it is disposed, also a client disposed and then kept. */
static void
count_client_finalization (G_GNUC_UNUSED gpointer client)
{
  clients_finalized++;
}

/* Counts a handler called off the main thread, which runs the default main context. */
static void
check_thread (void)
{
  if (g_thread_self () != main_thread || !g_main_context_is_owner (g_main_context_default ()))
    off_main_thread++;
}

/* Another thread's call while the main loop runs: refused, with a critical warning. */
static gpointer
close_from_another_thread (gpointer herald)
{
  herald_client_close_shown_messages (herald);
  return NULL;
}

static gboolean
on_should_show (G_GNUC_UNUSED HeraldClient *herald, HeraldMessage *message, G_GNUC_UNUSED gpointer data)
{
  check_thread ();
  messages_made++;
  g_object_weak_ref (G_OBJECT (message), count_finalization, &messages_finalized);
  g_set_object (&kept, message);
  GVariant *details = herald_message_get_details (message);
  char *printed = g_variant_print (details, FALSE);
  g_print ("should-show %s: %s, %s\n", herald_message_get_id (message), herald_message_get_title (message), printed);
  g_free (printed);
  return TRUE;
}

static void
on_shown (HeraldClient *herald, const char *key, G_GNUC_UNUSED gpointer data)
{
  check_thread ();
  g_print ("shown %s\n", key);
  g_thread_join (g_thread_new ("other", close_from_another_thread, herald));
}

static void
on_answered (G_GNUC_UNUSED HeraldClient *herald, const char *key, const char *answer, G_GNUC_UNUSED gboolean away,
             G_GNUC_UNUSED gpointer data)
{
  check_thread ();
  g_print ("answered %s %s\n", key, answer);
}

static void
on_event (G_GNUC_UNUSED HeraldClient *herald, HeraldEventKind kind, const char *subject, const char *reason,
          G_GNUC_UNUSED const char *detail, G_GNUC_UNUSED gpointer data)
{
  check_thread ();
  GEnumValue *value = g_enum_get_value (g_type_class_ref (HERALD_TYPE_EVENT_KIND), kind);
  g_print ("event %s %s %s\n", value->value_nick, subject != NULL ? subject : "-", reason != NULL ? reason : "-");
}

static void
on_check_finished (G_GNUC_UNUSED HeraldClient *herald, G_GNUC_UNUSED gpointer data)
{
  check_thread ();
  g_main_loop_quit (loop);
}

static void
print_error (const char *call, GError *error)
{
  GEnumValue *code = error->domain == HERALD_ERROR ? g_enum_get_value (g_type_class_ref (HERALD_TYPE_ERROR), error->code) : NULL;
  g_print ("%s: %s %s: %s\n", call, g_quark_to_string (error->domain), code != NULL ? code->value_nick : "-", error->message);
  g_error_free (error);
}

/* A time of the inbox, or "-" for none: whether it is given (the test cannot know when). */
static const char *
given (GDateTime *time)
{
  return time != NULL ? "given" : "-";
}

/* Prints the app's inbox after the check, and keeps its first message past the list. */
static HeraldInboxMessage *
read_inbox (HeraldClient *herald)
{
  GError *error = NULL;
  GList *inbox = herald_client_get_inbox (herald, &error);
  if (error != NULL)
    {
      print_error ("get_inbox", error);
      return NULL;
    }
  for (GList *item = inbox; item != NULL; item = item->next)
    {
      HeraldInboxMessage *message = item->data;
      inbox_made++;
      g_object_weak_ref (G_OBJECT (message), count_finalization, &inbox_finalized);
      GEnumValue *state = g_enum_get_value (g_type_class_ref (HERALD_TYPE_INBOX_STATE), herald_inbox_message_get_state (message));
      const char *link = herald_inbox_message_get_link (message);
      g_print ("inbox %s: %s, %s, %s, %s, reached %s, last shown %s, %s (%s), until %s, withdrawn %s\n",
               herald_inbox_message_get_id (message), herald_inbox_message_get_title (message),
               herald_inbox_message_get_body (message), link != NULL ? link : "-", herald_inbox_message_get_category (message),
               given (herald_inbox_message_get_reached (message)), given (herald_inbox_message_get_last_shown (message)),
               state->value_nick, herald_inbox_message_get_state_text (message), given (herald_inbox_message_get_until (message)),
               given (herald_inbox_message_get_withdrawn_since (message)));
    }
  HeraldInboxMessage *kept_from_inbox = inbox != NULL ? g_object_ref (inbox->data) : NULL;
  g_list_free_full (inbox, g_object_unref);
  return kept_from_inbox;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  main_thread = g_thread_self ();
  if (argc != 3)
    return 64;
  loop = g_main_loop_new (NULL, FALSE);
  HeraldClient *herald = g_object_new (HERALD_TYPE_CLIENT, "feed-url", argv[1], "app-id", argv[2], "show-on-first-launch", TRUE,
                                       NULL);
  g_object_set_data_full (G_OBJECT (herald), "finalization", herald, count_client_finalization);
  g_signal_connect_data (herald, "should-show", G_CALLBACK (on_should_show), new_data (), free_data, 0);
  g_signal_connect_data (herald, "shown", G_CALLBACK (on_shown), new_data (), free_data, 0);
  g_signal_connect_data (herald, "answered", G_CALLBACK (on_answered), new_data (), free_data, 0);
  g_signal_connect_data (herald, "event", G_CALLBACK (on_event), new_data (), free_data, 0);
  g_signal_connect_data (herald, "check-finished", G_CALLBACK (on_check_finished), new_data (), free_data, 0);
  GError *error = NULL;
  if (!herald_client_add_prompts_file (herald, "/nonexistent/prompts.plist", &error))
    print_error ("add_prompts_file", error);
  error = NULL;
  if (!herald_client_add_prompt (herald, "rate", "Rate us", "Please", "javascript:alert(1)", 1, 0, &error))
    print_error ("add_prompt", error);
  herald_client_app_launched (herald);
  g_main_loop_run (loop);
  HeraldInboxMessage *kept_from_inbox = read_inbox (herald);
  error = NULL;
  if (!herald_client_record_answer (herald, "2024/01/10", "maybe", &error))
    print_error ("record_answer", error);
  herald_client_app_will_quit (herald);
  g_object_unref (herald);
  g_print ("handlers called off the main thread: %d\n", off_main_thread);
  g_print ("clients finalized: %d\n", clients_finalized);
  g_print ("user data freed: %d of %d\n", data_freed, data_given);
  g_print ("messages finalized while the app keeps one: %d of %d\n", messages_finalized, messages_made);
  g_clear_object (&kept);
  g_print ("messages finalized: %d of %d\n", messages_finalized, messages_made);
  g_print ("inbox messages finalized while the app keeps one: %d of %d\n", inbox_finalized, inbox_made);
  g_clear_object (&kept_from_inbox);
  g_print ("inbox messages finalized: %d of %d\n", inbox_finalized, inbox_made);
  g_main_loop_unref (loop);
  return 0;
}

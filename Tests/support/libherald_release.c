/* A client whose last reference the app drops on another thread while the main loop runs (a
 * garbage collector's thread, say), counted from C (LibHeraldTests): that thread's unref returns
 * with the client still alive, the client's bridge to Herald is freed where Herald runs, and
 * the client is finalized there, on the main thread, exactly once; the user data of every
 * handler is freed once, and no handler runs after the release, also when the user answers the
 * message it left on screen (Herald still records the answer).
 *
 *   libherald_release FEED_URL APP_ID
 *
 * Prints "shown KEY", then "released" with what the other thread saw; quits on SIGTERM and
 * prints the counts.
 */
#include <glib-unix.h>
#include <herald.h>

#include "libherald_counting.h"

static GThread *main_thread;
static gint finalized, finalized_on_main_thread, handlers_after_release, released;

/* The destroy notify of the client's own data, which GObject frees when it finalizes the
 * client (unlike weak references and handlers, which go when it is disposed). */
static void
count_finalization (G_GNUC_UNUSED gpointer marker)
{
  g_atomic_int_inc (&finalized);
  if (g_thread_self () == main_thread)
    g_atomic_int_inc (&finalized_on_main_thread);
}

/* Counts a handler that runs after the app let the client go. */
static void
note_handler (void)
{
  if (g_atomic_int_get (&released))
    g_atomic_int_inc (&handlers_after_release);
}

static gboolean
on_should_show (G_GNUC_UNUSED HeraldClient *herald, G_GNUC_UNUSED HeraldMessage *message, G_GNUC_UNUSED gpointer data)
{
  note_handler ();
  return TRUE;
}

static void
on_answered (G_GNUC_UNUSED HeraldClient *herald, const char *key, const char *answer, G_GNUC_UNUSED gboolean away,
             G_GNUC_UNUSED gpointer data)
{
  note_handler ();
  g_print ("answered %s %s\n", key, answer);
}

static void
on_closed (G_GNUC_UNUSED HeraldClient *herald, const char *key, const char *reason, G_GNUC_UNUSED gpointer data)
{
  note_handler ();
  g_print ("closed %s %s\n", key, reason);
}

static void
on_check_finished (G_GNUC_UNUSED HeraldClient *herald, G_GNUC_UNUSED gpointer data)
{
  note_handler ();
  g_print ("finished\n");
}

/* The other thread: drops the app's only reference. */
static gpointer
release_last_reference (gpointer herald)
{
  g_object_unref (herald);
  g_atomic_int_set (&released, 1);
  return GINT_TO_POINTER (g_atomic_int_get (&finalized));
}

/* From the loop, once the message is shown: the main thread runs the default context while the
 * other thread lets the client go. */
static gboolean
release_on_another_thread (gpointer herald)
{
  int finalized_then = GPOINTER_TO_INT (g_thread_join (g_thread_new ("releaser", release_last_reference, herald)));
  g_print ("released; clients finalized when the other thread's unref returned: %d\n", finalized_then);
  return G_SOURCE_REMOVE;
}

static void
on_shown (HeraldClient *herald, const char *key, G_GNUC_UNUSED gpointer data)
{
  note_handler ();
  g_print ("shown %s\n", key);
  /* Not from the handler itself, whose emission holds a reference of its own. */
  g_idle_add (release_on_another_thread, herald);
}

static gboolean
on_terminate (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    return 64;
  main_thread = g_thread_self ();
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  HeraldClient *herald = g_object_new (HERALD_TYPE_CLIENT, "feed-url", argv[1], "app-id", argv[2], "show-on-first-launch", TRUE,
                                       NULL);
  g_object_set_data_full (G_OBJECT (herald), "finalization", herald, count_finalization);
  g_signal_connect_data (herald, "should-show", G_CALLBACK (on_should_show), new_data (), free_data, 0);
  g_signal_connect_data (herald, "shown", G_CALLBACK (on_shown), new_data (), free_data, 0);
  g_signal_connect_data (herald, "answered", G_CALLBACK (on_answered), new_data (), free_data, 0);
  g_signal_connect_data (herald, "closed", G_CALLBACK (on_closed), new_data (), free_data, 0);
  g_signal_connect_data (herald, "check-finished", G_CALLBACK (on_check_finished), new_data (), free_data, 0);
  g_unix_signal_add (SIGTERM, on_terminate, loop);
  herald_client_app_launched (herald);
  g_main_loop_run (loop);
  g_print ("clients finalized: %d, on the main thread: %d\n", g_atomic_int_get (&finalized),
           g_atomic_int_get (&finalized_on_main_thread));
  g_print ("user data freed: %d of %d\n", g_atomic_int_get (&data_freed), g_atomic_int_get (&data_given));
  g_print ("handlers called after the release: %d\n", g_atomic_int_get (&handlers_after_release));
  g_main_loop_unref (loop);
  return 0;
}

/* A client created in a thread of the app's that pushed a GMainContext of its own
 * (LibHeraldTests): refused at construction with a critical warning, it reports failed, a
 * HERALD_ERROR_CONFIGURATION, in that thread's context when it launches.
 *
 *   libherald_context APP_ID
 */
#include <herald.h>

/* The failure, heard in the thread's own context. */
static void
on_failed (G_GNUC_UNUSED HeraldClient *herald, GError *error, gpointer loop)
{
  GEnumValue *code = g_enum_get_value (g_type_class_peek (HERALD_TYPE_ERROR), error->code);
  g_print ("failed %s %s: %s (in the thread's own context: %s)\n", g_quark_to_string (error->domain), code->value_nick,
           error->message, g_main_context_is_owner (g_main_loop_get_context (loop)) ? "yes" : "no");
  g_main_loop_quit (loop);
}

/* A thread that runs a context of its own and makes a client there. */
static gpointer
run_own_context (gpointer app_id)
{
  GMainContext *context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  GMainLoop *loop = g_main_loop_new (context, FALSE);
  HeraldClient *herald = herald_client_new (NULL, app_id, NULL);
  g_signal_connect (herald, "failed", G_CALLBACK (on_failed), loop);
  g_type_class_ref (HERALD_TYPE_ERROR);
  herald_client_app_launched (herald);
  g_main_loop_run (loop);
  g_object_unref (herald);
  g_main_loop_unref (loop);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      g_printerr ("usage: %s APP_ID\n", argv[0]);
      return 64;
    }
  g_thread_join (g_thread_new ("own-context", run_own_context, argv[1]));
  g_print ("thread done\n");
  return 0;
}

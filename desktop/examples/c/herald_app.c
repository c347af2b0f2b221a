/* A C program that uses Herald through libherald-1 (desktop/examples/README.md):
 *   gcc -Wall -Wextra -o herald_app herald_app.c $(pkg-config --cflags --libs herald-1)
 *   ./herald_app FEED_URL APP_ID
 */
#include <glib-unix.h>
#include <herald.h>

static void
on_shown (G_GNUC_UNUSED HeraldClient *herald, const char *key, G_GNUC_UNUSED gpointer data)
{
  g_print ("shown %s\n", key);
}

static void
on_answered (G_GNUC_UNUSED HeraldClient *herald, const char *key, const char *answer, gboolean while_away, G_GNUC_UNUSED gpointer data)
{
  g_print ("answered %s %s%s\n", key, answer, while_away ? " while away" : "");
}

static void
on_failed (G_GNUC_UNUSED HeraldClient *herald, GError *error, G_GNUC_UNUSED gpointer data)
{
  g_print ("failed %s\n", error->message);
}

static void
on_check_finished (G_GNUC_UNUSED HeraldClient *herald, G_GNUC_UNUSED gpointer data)
{
  g_print ("finished\n");
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
    {
      g_printerr ("usage: %s FEED_URL APP_ID\n", argv[0]);
      return 64;
    }
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  /* show-on-first-launch: the first run shows what is due at once. */
  HeraldClient *herald = g_object_new (HERALD_TYPE_CLIENT, "feed-url", argv[1], "app-id", argv[2], "app-version", "1.0",
                                       "show-on-first-launch", TRUE, NULL);
  g_signal_connect (herald, "shown", G_CALLBACK (on_shown), NULL);
  g_signal_connect (herald, "answered", G_CALLBACK (on_answered), NULL);
  g_signal_connect (herald, "failed", G_CALLBACK (on_failed), NULL);
  g_signal_connect (herald, "check-finished", G_CALLBACK (on_check_finished), NULL);
  g_unix_signal_add (SIGTERM, on_terminate, loop);
  herald_client_app_launched (herald);
  g_main_loop_run (loop);
  /* What is still shown stays answerable after the program has gone. */
  herald_client_app_will_quit (herald);
  g_object_unref (herald);
  g_main_loop_unref (loop);
  return 0;
}

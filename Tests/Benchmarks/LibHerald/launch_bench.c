/* libherald-launch-bench: how long herald_client_app_launched() holds the caller's thread, as
 * herald-launch-bench (Tests/Benchmarks/Launch) times Herald.appLaunched(): the call and the
 * main-loop work it queues, up to an idle callback queued right after it, with a fresh client
 * each run and a wait limit of 1 s, on a state folder of each case that its first, uncounted,
 * run makes: "due" with the debug property and a feed at http://127.0.0.1:9 (refused at once),
 * whose check passes every gate (it reads the state and starts the fetch, as
 * herald-launch-bench's due case does); "not-due" with an empty feed file that the first check
 * fetched, so that the next ones stop at the check period, the gate herald-launch-bench's
 * not-due case stops at (they read the state and stop). Prints one JSON line per case with the
 * median in µs and the gate its last run stopped at ("gate", null when it passed them all).
 *
 *   libherald-launch-bench [--runs N]          (Tests/scripts/libherald-bench.sh builds and runs it)
 */
#include <herald.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
now (void)
{
  struct timespec time;
  clock_gettime (CLOCK_MONOTONIC, &time);
  return time.tv_sec + time.tv_nsec / 1e9;
}

static double end_time;
/* The reason of the last check-skipped event, or NULL. */
static char *gate;

static gboolean
record_end (G_GNUC_UNUSED gpointer data)
{
  end_time = now ();
  return G_SOURCE_REMOVE;
}

static void
record_gate (G_GNUC_UNUSED HeraldClient *herald, HeraldEventKind kind, G_GNUC_UNUSED const char *subject, const char *reason,
             G_GNUC_UNUSED const char *detail, G_GNUC_UNUSED gpointer data)
{
  if (kind == HERALD_EVENT_CHECK_SKIPPED)
    {
      g_free (gate);
      gate = g_strdup (reason);
    }
}

static void
quit (G_GNUC_UNUSED HeraldClient *herald, gpointer loop)
{
  g_main_loop_quit (loop);
}

/* The microseconds herald_client_app_launched() took on this thread, with the state in `folder`. */
static double
measure (const char *folder, const char *feed_url, gboolean due)
{
  g_setenv ("XDG_STATE_HOME", folder, TRUE);
  char *cache = g_build_filename (folder, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_free (cache);
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  HeraldClient *herald = g_object_new (HERALD_TYPE_CLIENT, "feed-url", feed_url, "app-id",
                                       "org.example.LaunchBench", "app-version", "1.0", "wait-limit", 1.0,
                                       "show-on-first-launch", TRUE, "debug", due, NULL);
  g_signal_connect (herald, "check-finished", G_CALLBACK (quit), loop);
  g_signal_connect (herald, "event", G_CALLBACK (record_gate), NULL);
  g_clear_pointer (&gate, g_free);
  double start = now ();
  herald_client_app_launched (herald);
  g_idle_add (record_end, NULL);
  g_main_loop_run (loop);
  g_object_unref (herald);
  g_main_loop_unref (loop);
  return (end_time - start) * 1e6;
}

static int
compare (const void *left, const void *right)
{
  double a = *(const double *) left, b = *(const double *) right;
  return (a > b) - (a < b);
}

int
main (int argc, char **argv)
{
  int runs = argc == 3 && strcmp (argv[1], "--runs") == 0 ? MAX (atoi (argv[2]), 1) : 25;
  char *base = g_dir_make_tmp ("libherald-launch-bench-XXXXXX", NULL);
  double *times = g_new (double, runs);
  const char *cases[] = { "due", "not-due" };
  char *feed = g_build_filename (base, "feed.plist", NULL);
  g_file_set_contents (feed, "<plist version=\"1.0\"><dict/></plist>\n", -1, NULL);
  char *feed_urls[] = { g_strdup ("http://127.0.0.1:9/feed.plist"), g_filename_to_uri (feed, NULL, NULL) };
  for (int which = 0; which < 2; which++)
    {
      char *folder = g_build_filename (base, cases[which], NULL);
      /* One run not counted: it makes the state, and the first measured one does not pay for first use. */
      for (int run = 0; run <= runs; run++)
        {
          double time = measure (folder, feed_urls[which], which == 0);
          if (run > 0)
            times[run - 1] = time;
        }
      g_free (folder);
      qsort (times, runs, sizeof *times, compare);
      char *gate_json = gate != NULL ? g_strdup_printf ("\"%s\"", gate) : g_strdup ("null");
      printf ("{\"case\": \"%s\", \"runs\": %d, \"median_us\": %f, \"gate\": %s}\n", cases[which], runs, times[runs / 2],
              gate_json);
      g_free (gate_json);
      g_free (feed_urls[which]);
    }
  g_free (feed);
  g_free (times);
  char *remove[] = { "rm", "-rf", base, NULL };
  g_spawn_sync (NULL, remove, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free (base);
  return 0;
}

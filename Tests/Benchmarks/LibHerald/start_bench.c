/* What libherald-1 adds to a program's start (Tests/scripts/libherald-bench.sh). Built twice, as
 * a GLib program that does not link the library and as one that does (-DLINKED, built with
 * --no-as-needed so the loader maps, relocates and initialises it before main), each printing
 * the microseconds from HERALD_BENCH_SPAWNED (CLOCK_MONOTONIC nanoseconds, set by the parent just
 * before it starts the program) to the start of main: the start the app has before it can call
 * herald_client_app_launched(). With -DDLOPEN, a GLib program that prints the microseconds
 * dlopen("libherald-1.so.0") takes, GLib and GObject being loaded already, as in any GLib app. */
#include <glib-object.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef DLOPEN
#include <dlfcn.h>
#endif

static double
now_us (void)
{
  struct timespec time;
  clock_gettime (CLOCK_MONOTONIC, &time);
  return time.tv_sec * 1e6 + time.tv_nsec / 1e3;
}

int
main (void)
{
  double entered = now_us ();
  /* GObject is loaded and its type system asked, as in every GLib app, in each program. */
  const char *name = g_type_name (G_TYPE_OBJECT);
#ifdef DLOPEN
  double start = now_us ();
  void *library = dlopen ("libherald-1.so.0", RTLD_NOW | RTLD_LOCAL);
  double end = now_us ();
  if (library == NULL)
    {
      fprintf (stderr, "%s\n", dlerror ());
      return 1;
    }
  printf ("%f\n", end - start);
#else
  const char *spawned = getenv ("HERALD_BENCH_SPAWNED");
  printf ("%f\n", spawned != NULL ? entered - atof (spawned) / 1e3 : -1);
#endif
  return name == NULL;
}

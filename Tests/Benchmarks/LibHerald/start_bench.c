/* What libherald-1 adds to a program's start (Tests/scripts/libherald-bench.sh): built twice, as
 * a GLib program that does not link the library and as one that does (-DLINKED, built with
 * --no-as-needed so the loader maps and binds it), each returning at once; and, with -DDLOPEN,
 * a GLib program that prints the microseconds dlopen("libherald-1.so.0") takes, GLib and
 * GObject being loaded already, as in any GLib app. */
#include <glib-object.h>
#include <stdio.h>
#ifdef DLOPEN
#include <dlfcn.h>
#include <time.h>
#endif

int
main (void)
{
  /* GObject is loaded and its type system asked, as in every GLib app, in each program. */
  const char *name = g_type_name (G_TYPE_OBJECT);
#if defined(DLOPEN)
  struct timespec start, end;
  clock_gettime (CLOCK_MONOTONIC, &start);
  void *library = dlopen ("libherald-1.so.0", RTLD_NOW | RTLD_LOCAL);
  clock_gettime (CLOCK_MONOTONIC, &end);
  if (library == NULL)
    {
      fprintf (stderr, "%s\n", dlerror ());
      return 1;
    }
  printf ("%f\n", (end.tv_sec - start.tv_sec) * 1e6 + (end.tv_nsec - start.tv_nsec) / 1e3);
#endif
  return name == NULL;
}

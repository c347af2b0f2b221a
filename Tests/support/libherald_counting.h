/* What the C programs of LibHeraldTests count of libherald-1's releases: the user data given
 * to signal handlers, and the data freed by their destroy notify, which GLib may call on
 * whichever thread disposes of the client.
 */
#ifndef LIBHERALD_COUNTING_H
#define LIBHERALD_COUNTING_H

#include <glib-object.h>

static gint data_given, data_freed;

/* A handler's user data, counted. */
static gpointer
new_data (void)
{
  g_atomic_int_inc (&data_given);
  return g_strdup ("the handler's data");
}

/* The destroy notify of new_data()'s data, counted. */
static void
free_data (gpointer data, G_GNUC_UNUSED GClosure *closure)
{
  g_atomic_int_inc (&data_freed);
  g_free (data);
}

#endif /* LIBHERALD_COUNTING_H */

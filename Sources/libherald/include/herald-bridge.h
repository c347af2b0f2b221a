/* The calls between libherald's GObject types and Herald's Swift library (HeraldGObject),
 * inside libherald-1.so: not installed, and not exported (the library exports herald_* only).
 * Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
 */
#ifndef HERALD_BRIDGE_H
#define HERALD_BRIDGE_H

#include <glib.h>

/* A HeraldClient's configuration, as its construct properties hold it. Strings and string
 * arrays are borrowed for the call; a period of 0 or less keeps Herald's default. */
typedef struct {
  const char *feed_url;
  const char *app_id;
  const char *app_version;
  const char *app_name;
  const char *icon;
  const char *ca_file;
  const char *const *allowed_schemes;
  const char *const *public_keys;
  double check_period;
  double remind_period;
  double timeout;
  double wait_limit;
  int max_per_check;
  gboolean show_on_first_launch;
  gboolean show_oldest_first;
  gboolean check_at_launch;
  gboolean debug;
  gboolean allow_critical_urgency;
  gboolean allow_plain_http_feed;
  gboolean whats_new;
} LibheraldConfiguration;

/* What Herald reports, called on the GLib default main context with the HeraldClient as
 * `client`; strings are borrowed for the call. `details` is a floating a{sv}. */
typedef struct {
  void (*shown) (void *client, const char *id, gboolean is_prompt);
  void (*answered) (void *client, const char *id, const char *answer, gboolean is_prompt, gboolean while_away);
  void (*closed) (void *client, const char *id, const char *reason, gboolean is_prompt);
  gboolean (*should_show) (void *client, const char *id, const char *title, const char *body, const char *action_url,
                           const char *button_label, GVariant *details, gboolean is_prompt);
  void (*event) (void *client, int kind, const char *subject, const char *reason, const char *detail);
  void (*failed) (void *client, int code, const char *message);
  void (*check_finished) (void *client);
} LibheraldCallbacks;

/* One message of the app's inbox, its strings borrowed for the call; times are seconds since
 * 1970, and a `has_` flag says whether the time beside it is given. `state` is a
 * HeraldInboxState. */
typedef struct {
  const char *id;
  const char *title;
  const char *body;
  const char *link;
  const char *button_label;
  const char *category;
  const char *state_text;
  gint64 reached;
  gboolean has_last_shown;
  gint64 last_shown;
  int state;
  gboolean has_until;
  gint64 until;
  gboolean has_withdrawn_since;
  gint64 withdrawn_since;
  gboolean muted_by_administrator;
} LibheraldInboxEntry;

/* Receives the inbox's messages one by one, in order, into `list`. */
typedef void (*LibheraldInboxReceiver) (void *list, const LibheraldInboxEntry *entry);

#endif /* HERALD_BRIDGE_H */

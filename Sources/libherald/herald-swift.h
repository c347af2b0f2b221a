/* The functions HeraldGObject (Swift, @_cdecl) defines for libherald's C side.
 * Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
 */
#ifndef HERALD_SWIFT_H
#define HERALD_SWIFT_H

#include "herald-bridge.h"

/* A Herald for `configuration` that reports to `callbacks` with `client`; NULL with
 * `*error_code` and `*error_message` (to g_free) set when the configuration cannot work. */
void *libherald_bridge_new (const LibheraldConfiguration *configuration, const LibheraldCallbacks *callbacks, void *client,
                            int *error_code, char **error_message);
/* Herald's defaults of the numbers and switches of `configuration` (its strings stay NULL):
 * the HeraldClient properties' defaults. Callable on any thread. */
void libherald_bridge_defaults (LibheraldConfiguration *configuration);
/* Stops the reports to the client and lets the Herald go (it still finishes its check). */
void libherald_bridge_free (void *bridge);
void libherald_bridge_app_launched (void *bridge);
void libherald_bridge_check_now (void *bridge);
void libherald_bridge_app_will_quit (void *bridge);
void libherald_bridge_close_shown_messages (void *bridge);
/* Registers the prompts of a prompts file's bytes; FALSE with the error set when it is unusable. */
gboolean libherald_bridge_add_prompts (void *bridge, const char *bytes, gsize length, int *error_code, char **error_message);
gboolean libherald_bridge_add_prompt (void *bridge, const char *name, const char *title, const char *body,
                                      const char *action_url, guint uses_until_prompt, double days_until_prompt,
                                      int *error_code, char **error_message);
/* Gives `receive` the app's inbox, newest first, into `list`; FALSE with the error set when it
 * cannot be read. */
gboolean libherald_bridge_inbox (void *bridge, LibheraldInboxReceiver receive, void *list, int *error_code,
                                 char **error_message);
/* Records an answer (view, remind, ignore or ok) given in the app's interface; FALSE with the
 * error set when it is none of them or cannot be written. */
gboolean libherald_bridge_record_answer (void *bridge, const char *message_id, const char *answer, int *error_code,
                                         char **error_message);

#endif /* HERALD_SWIFT_H */

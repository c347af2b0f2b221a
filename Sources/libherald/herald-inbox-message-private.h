/* What HeraldClient uses of HeraldInboxMessage beyond the public API.
 * Copyright (c) 2026 the Herald authors. MIT licence: see LICENSE.
 */
#ifndef HERALD_INBOX_MESSAGE_PRIVATE_H
#define HERALD_INBOX_MESSAGE_PRIVATE_H

#include "herald-bridge.h"

/* Appends a HeraldInboxMessage made of `entry` to `list`, a GQueue that owns its objects: a
 * LibheraldInboxReceiver. */
void libherald_inbox_append (void *list, const LibheraldInboxEntry *entry);

#endif /* HERALD_INBOX_MESSAGE_PRIVATE_H */

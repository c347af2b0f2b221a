/* Checks an app's Herald feed at start-up without holding up the app's main loop.
 *
 * The app starts `herald check --json` as a child process (GSubprocess) and reads its event
 * lines one by one as they arrive (GDataInputStream), on the GLib main loop that also runs the
 * app's windows. Herald fetches the feed, shows the notifications and records each answer
 * itself; the app only reacts to the events. Here it prints one line per event:
 *
 *     shown 2024/01/10
 *     answered 2024/01/10 view
 *     closed 2024/01/10 dismissed
 *     failed fetch
 *     herald exited with status 0
 *
 * Each line is parsed with json-glib, GLib's own JSON library (Debian: libjson-glib-dev).
 *
 * Build (Debian: gcc, pkg-config, libglib2.0-dev, libjson-glib-dev):
 *
 *     gcc -Wall -Wextra -o herald_at_startup herald_at_startup.c \
 *         $(pkg-config --cflags --libs gio-2.0 json-glib-1.0)
 *
 * Usage:
 *
 *     herald_at_startup [--herald PATH] [--feed URL] [--app-id ID] [--app-version V]
 *                       [-- HERALD-CHECK-OPTIONS...]
 *
 * Each option defaults to an environment variable (HERALD, HERALD_FEED, HERALD_APP_ID,
 * HERALD_APP_VERSION), then to a built-in value. Options after `--` go to `herald check` as
 * they are (`--show-on-first-launch`, `--wait 60`, `--icon NAME`...).
 *
 * Shipping it: install herald with your app (a distribution package puts it in /usr/bin,
 * desktop/install.sh in ~/.local/bin) and leave `--herald` out, so that `herald` is found on
 * PATH. When it is missing, g_subprocess_newv fails at once; an app says so and goes on
 * without messages (this example exits 1).
 *
 * Quitting first: herald is a process of its own. Left alone it carries on, its notifications
 * stay up and it still records their answers; only its event lines go unread. An app that
 * wants its messages gone with it sends herald SIGTERM (g_subprocess_send_signal): herald
 * closes what it shows (the messages come back at the next check) and exits 143. This example
 * does that on SIGINT and SIGTERM, and reads on until herald has exited.
 */
#include <gio/gio.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>

/* One `herald check --json` run. Owned by main(), which outlives the loop: every callback
 * that receives it has run before the loop quits, so none needs a reference of its own. */
typedef struct {
    GMainLoop *loop;
    GSubprocess *process;
    GDataInputStream *lines;
    JsonParser *parser;
} HeraldCheck;

static void read_next_line (HeraldCheck *check);

/* What the app does with an event: here, a line each; a real app might update a window. */
static void
react (JsonObject *event)
{
    const char *name = json_object_get_string_member_with_default (event, "event", "");
    const char *key = json_object_get_string_member_with_default (event, "key", "");

    if (g_str_equal (name, "shown"))
        g_print ("shown %s\n", key);
    else if (g_str_equal (name, "answered") || g_str_equal (name, "answer-not-recorded"))
        g_print ("%s %s %s\n", name, key, json_object_get_string_member_with_default (event, "action", ""));
    else if (g_str_equal (name, "closed"))
        g_print ("closed %s %s\n", key, json_object_get_string_member_with_default (event, "reason", ""));
    else if (g_str_equal (name, "check-skipped"))
        g_print ("check-skipped %s\n", json_object_get_string_member_with_default (event, "reason", ""));
    else if (g_str_equal (name, "failed")) {
        g_print ("failed %s\n", json_object_get_string_member_with_default (event, "kind", ""));
        g_printerr ("herald: %s\n", json_object_get_string_member_with_default (event, "message", ""));
    }
}

static void
exited (GObject *source, GAsyncResult *result, gpointer data)
{
    HeraldCheck *check = data;
    GSubprocess *process = G_SUBPROCESS (source);

    g_subprocess_wait_finish (process, result, NULL);
    if (g_subprocess_get_if_exited (process))
        g_print ("herald exited with status %d\n", g_subprocess_get_exit_status (process));
    else
        g_print ("herald was ended by signal %d\n", g_subprocess_get_term_sig (process));
    g_main_loop_quit (check->loop);
}

static void
line_read (GObject *source, GAsyncResult *result, gpointer data)
{
    HeraldCheck *check = data;
    g_autoptr (GError) error = NULL;
    gsize length = 0;
    g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source), result, &length, &error);

    if (line == NULL) {
        /* End of the events: herald has exited or is about to; its status comes next. */
        if (error != NULL)
            g_printerr ("herald_at_startup: reading herald's events: %s\n", error->message);
        g_subprocess_wait_async (check->process, NULL, exited, check);
        return;
    }
    if (json_parser_load_from_data (check->parser, line, (gssize) length, NULL)) {
        JsonNode *root = json_parser_get_root (check->parser);
        if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
            react (json_node_get_object (root));
    }
    read_next_line (check);
}

static void
read_next_line (HeraldCheck *check)
{
    g_data_input_stream_read_line_async (check->lines, G_PRIORITY_DEFAULT, NULL, line_read, check);
}

/* The app is quitting: herald closes its notifications and exits; its last events still
 * arrive, and the loop ends with its exit status. */
static gboolean
quit_requested (gpointer data)
{
    HeraldCheck *check = data;

    g_subprocess_send_signal (check->process, SIGTERM);
    return G_SOURCE_CONTINUE;
}

static const char *
from_environment (const char *name, const char *fallback)
{
    const char *value = g_getenv (name);
    return value != NULL && *value != '\0' ? value : fallback;
}

int
main (int argc, char **argv)
{
    /* GOption does not free a value it replaces, so the defaults are filled in after parsing. */
    g_autofree char *herald = NULL;
    g_autofree char *feed = NULL;
    g_autofree char *app_id = NULL;
    g_autofree char *app_version = NULL;
    g_auto (GStrv) check_options = NULL;
    GOptionEntry entries[] = {
        { "herald", 0, 0, G_OPTION_ARG_FILENAME, &herald, "The herald executable (default: herald, found on PATH)", "PATH" },
        { "feed", 0, 0, G_OPTION_ARG_STRING, &feed, "The feed URL", "URL" },
        { "app-id", 0, 0, G_OPTION_ARG_STRING, &app_id, "The app id", "ID" },
        { "app-version", 0, 0, G_OPTION_ARG_STRING, &app_version, "The app version", "V" },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &check_options, NULL, "[-- HERALD-CHECK-OPTIONS...]" },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) context = g_option_context_new ("- check an app's Herald feed at start-up");
    g_autoptr (GError) error = NULL;

    setlocale (LC_ALL, "");
    g_option_context_add_main_entries (context, entries, NULL);
    if (!g_option_context_parse (context, &argc, &argv, &error)) {
        g_printerr ("herald_at_startup: %s\n", error->message);
        return 64;
    }
    if (herald == NULL)
        herald = g_strdup (from_environment ("HERALD", "herald"));
    if (feed == NULL)
        feed = g_strdup (from_environment ("HERALD_FEED", "https://example.org/herald/feed.plist"));
    if (app_id == NULL)
        app_id = g_strdup (from_environment ("HERALD_APP_ID", "org.example.App"));
    if (app_version == NULL)
        app_version = g_strdup (from_environment ("HERALD_APP_VERSION", "1.0"));

    g_autoptr (GStrvBuilder) command = g_strv_builder_new ();
    const char *check_arguments[] = { herald, "check", "--feed", feed, "--app-id", app_id, "--app-version", app_version, "--json", NULL };
    g_strv_builder_addv (command, check_arguments);
    if (check_options != NULL)
        g_strv_builder_addv (command, (const char **) check_options);
    g_auto (GStrv) command_line = g_strv_builder_end (command);

    HeraldCheck check = { 0 };
    check.process = g_subprocess_newv ((const char *const *) command_line, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
    if (check.process == NULL) {
        /* No herald: the app runs on, without messages. */
        g_printerr ("herald_at_startup: cannot start herald: %s\n", error->message);
        return 1;
    }
    check.loop = g_main_loop_new (NULL, FALSE);
    check.lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (check.process));
    check.parser = json_parser_new ();
    guint interrupt = g_unix_signal_add (SIGINT, quit_requested, &check);
    guint terminate = g_unix_signal_add (SIGTERM, quit_requested, &check);

    read_next_line (&check);
    g_main_loop_run (check.loop);

    g_source_remove (interrupt);
    g_source_remove (terminate);
    g_object_unref (check.parser);
    g_object_unref (check.lines);
    g_object_unref (check.process);
    g_main_loop_unref (check.loop);
    return 0;
}

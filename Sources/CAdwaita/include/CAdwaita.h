#ifndef HERALD_ADWAITA_H
#define HERALD_ADWAITA_H

// The part of libadwaita 1.2 (Debian 12's) that herald-inbox calls, declared as its headers
// declare it (adw-application.h, adw-application-window.h, adw-header-bar.h,
// adw-preferences-page.h, adw-preferences-group.h, adw-preferences-row.h, adw-action-row.h,
// adw-expander-row.h, adw-status-page.h, adw-toast-overlay.h, adw-toast.h), for the reason
// CGtk.h gives: libadwaita-1's pkg-config flags are GTK 4's. No widget newer than 1.2.
// Tests/support/adwaita_declarations_check.c compiles these against <adwaita.h>.

#include "CGtk.h"

G_BEGIN_DECLS

#ifndef HERALD_CHECKING_DECLARATIONS
typedef struct _AdwApplication AdwApplication;
typedef struct _AdwApplicationWindow AdwApplicationWindow;
typedef struct _AdwHeaderBar AdwHeaderBar;
typedef struct _AdwPreferencesPage AdwPreferencesPage;
typedef struct _AdwPreferencesGroup AdwPreferencesGroup;
typedef struct _AdwPreferencesRow AdwPreferencesRow;
typedef struct _AdwActionRow AdwActionRow;
typedef struct _AdwExpanderRow AdwExpanderRow;
typedef struct _AdwStatusPage AdwStatusPage;
typedef struct _AdwToastOverlay AdwToastOverlay;
typedef struct _AdwToast AdwToast;
#endif

// adw-application.h, adw-application-window.h
AdwApplication *adw_application_new(const char *application_id, GApplicationFlags flags);
GtkWidget *adw_application_window_new(GtkApplication *app);
void adw_application_window_set_content(AdwApplicationWindow *self, GtkWidget *content);

// adw-header-bar.h
GtkWidget *adw_header_bar_new(void);
void adw_header_bar_pack_end(AdwHeaderBar *self, GtkWidget *child);

// adw-preferences-page.h, adw-preferences-group.h
GtkWidget *adw_preferences_page_new(void);
void adw_preferences_page_add(AdwPreferencesPage *self, AdwPreferencesGroup *group);
GtkWidget *adw_preferences_group_new(void);
void adw_preferences_group_set_title(AdwPreferencesGroup *self, const char *title);
void adw_preferences_group_set_description(AdwPreferencesGroup *self, const char *description);
void adw_preferences_group_add(AdwPreferencesGroup *self, GtkWidget *child);

// adw-preferences-row.h, adw-action-row.h, adw-expander-row.h
void adw_preferences_row_set_title(AdwPreferencesRow *self, const char *title);
void adw_preferences_row_set_use_markup(AdwPreferencesRow *self, gboolean use_markup);
GtkWidget *adw_action_row_new(void);
void adw_action_row_set_subtitle(AdwActionRow *self, const char *subtitle);
void adw_action_row_set_subtitle_lines(AdwActionRow *self, int subtitle_lines);
void adw_action_row_add_suffix(AdwActionRow *self, GtkWidget *widget);
void adw_action_row_set_activatable_widget(AdwActionRow *self, GtkWidget *widget);
GtkWidget *adw_expander_row_new(void);
void adw_expander_row_set_subtitle(AdwExpanderRow *self, const char *subtitle);
void adw_expander_row_add_row(AdwExpanderRow *self, GtkWidget *child);

// adw-status-page.h
GtkWidget *adw_status_page_new(void);
void adw_status_page_set_title(AdwStatusPage *self, const char *title);
void adw_status_page_set_description(AdwStatusPage *self, const char *description);
void adw_status_page_set_icon_name(AdwStatusPage *self, const char *icon_name);

// adw-toast-overlay.h, adw-toast.h
GtkWidget *adw_toast_overlay_new(void);
void adw_toast_overlay_set_child(AdwToastOverlay *self, GtkWidget *child);
void adw_toast_overlay_add_toast(AdwToastOverlay *self, AdwToast *toast);
AdwToast *adw_toast_new(const char *title);

G_END_DECLS

#endif

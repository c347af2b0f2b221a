#ifndef HERALD_GTK_H
#define HERALD_GTK_H

// The part of GTK 4 that herald-gtk-demo and herald-inbox call, declared here as GTK 4.8's headers declare it
// (gtk/gtkwidget.h, gtkwindow.h, gtkapplication.h, gtkapplicationwindow.h, gtkbox.h, gtkframe.h,
// gtkbutton.h, gtklabel.h, gtkscrolledwindow.h, gtkenums.h, gtkactionable.h, gtkswitch.h,
// gtkspinbutton.h), so that building the demo needs no header search path
// beyond GLib's: gtk4's pkg-config flags carry compiler options (-pthread, and -mfpmath=sse -msse
// -msse2 through graphene) that a package others depend on may not pass, and libraries the demo
// does not call (cairo-gobject, pango, graphene). GTK 4 itself is linked as usual (Package.swift).
// Tests/support/gtk_declarations_check.c compiles these declarations against <gtk/gtk.h>, with
// HERALD_CHECKING_DECLARATIONS defined so that the types come from GTK's headers alone: a
// prototype that differs is a compile error, and so is a constant of another value or an
// instance structure of another size.

#include <glib-object.h>
#include <gio/gio.h>

G_BEGIN_DECLS

// An enum of GTK's and its constants (HERALD_ENUM, HERALD_CONSTANT), declared as
// CDesktopLibraries.h declares the other libraries'.
#include "HeraldDeclarations.h"

// A widget's instance structure, which Swift sees whole (a pointer to it is typed); where the
// declarations are checked, it is compared in size with GTK's own.
#ifdef HERALD_CHECKING_DECLARATIONS
#define HERALD_INSTANCE(type, fields)                                                          \
    struct herald_checked_##type { fields };                                                   \
    _Static_assert(sizeof(struct herald_checked_##type) == sizeof(type), #type " has another size in GTK's header");
#else
#define HERALD_INSTANCE(type, fields) typedef struct _##type { fields } type;
#endif

#ifndef HERALD_CHECKING_DECLARATIONS
typedef struct _GtkWidgetPrivate GtkWidgetPrivate;
typedef struct _GtkLabel GtkLabel;
typedef struct _GtkScrolledWindow GtkScrolledWindow;
typedef struct _GtkSwitch GtkSwitch;
typedef struct _GtkSpinButton GtkSpinButton;
typedef struct _GtkActionable GtkActionable;
#endif

HERALD_INSTANCE(GtkWidget, GInitiallyUnowned parent_instance; GtkWidgetPrivate *priv;)
HERALD_INSTANCE(GtkWindow, GtkWidget parent_instance;)
HERALD_INSTANCE(GtkApplication, GApplication parent_instance;)
HERALD_INSTANCE(GtkBox, GtkWidget parent_instance;)
HERALD_INSTANCE(GtkFrame, GtkWidget parent_instance;)
HERALD_INSTANCE(GtkButton, GtkWidget parent_instance;)

HERALD_ENUM(GtkAlign,
            HERALD_CONSTANT(GTK_ALIGN_FILL, 0)
            HERALD_CONSTANT(GTK_ALIGN_START, 1)
            HERALD_CONSTANT(GTK_ALIGN_END, 2)
            HERALD_CONSTANT(GTK_ALIGN_CENTER, 3))

HERALD_ENUM(GtkOrientation,
            HERALD_CONSTANT(GTK_ORIENTATION_HORIZONTAL, 0)
            HERALD_CONSTANT(GTK_ORIENTATION_VERTICAL, 1))

// gtk/gtkapplication.h, gtkapplicationwindow.h
GtkApplication *gtk_application_new(const char *application_id, GApplicationFlags flags);
void gtk_application_set_accels_for_action(GtkApplication *application, const char *detailed_action_name,
                                           const char *const *accels);
GtkWidget *gtk_application_window_new(GtkApplication *application);

// gtk/gtkwindow.h
void gtk_window_set_title(GtkWindow *window, const char *title);
void gtk_window_set_icon_name(GtkWindow *window, const char *name);
void gtk_window_set_default_size(GtkWindow *window, int width, int height);
void gtk_window_set_child(GtkWindow *window, GtkWidget *child);
void gtk_window_present(GtkWindow *window);
void gtk_window_set_hide_on_close(GtkWindow *window, gboolean setting);

// gtk/gtkwidget.h
GtkWidget *gtk_widget_get_parent(GtkWidget *widget);
void gtk_widget_set_hexpand(GtkWidget *widget, gboolean expand);
void gtk_widget_set_vexpand(GtkWidget *widget, gboolean expand);
void gtk_widget_set_margin_start(GtkWidget *widget, int margin);
void gtk_widget_set_margin_end(GtkWidget *widget, int margin);
void gtk_widget_set_margin_top(GtkWidget *widget, int margin);
void gtk_widget_set_margin_bottom(GtkWidget *widget, int margin);
void gtk_widget_set_tooltip_text(GtkWidget *widget, const char *text);
void gtk_widget_set_sensitive(GtkWidget *widget, gboolean sensitive);
void gtk_widget_set_valign(GtkWidget *widget, GtkAlign align);
void gtk_widget_add_css_class(GtkWidget *widget, const char *css_class);

// gtk/gtkactionable.h
void gtk_actionable_set_action_name(GtkActionable *actionable, const char *action_name);
void gtk_actionable_set_action_target_value(GtkActionable *actionable, GVariant *target_value);

// gtk/gtkswitch.h
GtkWidget *gtk_switch_new(void);
void gtk_switch_set_active(GtkSwitch *self, gboolean is_active);
gboolean gtk_switch_get_active(GtkSwitch *self);

// gtk/gtkspinbutton.h
GtkWidget *gtk_spin_button_new_with_range(double min, double max, double step);
void gtk_spin_button_set_value(GtkSpinButton *spin_button, double value);
int gtk_spin_button_get_value_as_int(GtkSpinButton *spin_button);

// gtk/gtkbox.h
GtkWidget *gtk_box_new(GtkOrientation orientation, int spacing);
void gtk_box_append(GtkBox *box, GtkWidget *child);
void gtk_box_remove(GtkBox *box, GtkWidget *child);

// gtk/gtkframe.h
GtkWidget *gtk_frame_new(const char *label);
void gtk_frame_set_child(GtkFrame *frame, GtkWidget *child);

// gtk/gtkbutton.h
GtkWidget *gtk_button_new_with_label(const char *label);
GtkWidget *gtk_button_new_from_icon_name(const char *icon_name);
void gtk_button_set_has_frame(GtkButton *button, gboolean has_frame);

// gtk/gtkscrolledwindow.h
GtkWidget *gtk_scrolled_window_new(void);
void gtk_scrolled_window_set_child(GtkScrolledWindow *scrolled_window, GtkWidget *child);

// gtk/gtklabel.h
GtkWidget *gtk_label_new(const char *str);
void gtk_label_set_text(GtkLabel *self, const char *str);
void gtk_label_set_markup(GtkLabel *self, const char *str);
void gtk_label_set_wrap(GtkLabel *self, gboolean wrap);
void gtk_label_set_xalign(GtkLabel *self, float xalign);

G_END_DECLS

#endif

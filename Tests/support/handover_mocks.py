#!/usr/bin/python3
"""Stand-ins for GNOME Shell's org.gtk.Notifications, the Herald agent's org.herald.Agent1 and
the notification portal's org.freedesktop.portal.Notification.

Usage: handover_mocks.py LOGFILE [--gtk] [--agent] [--portal] [--portal-version=N] [--refuse]

Owns the names asked for on the session bus and writes "ready" on stdout once it does. Every
call is appended to LOGFILE as one JSON line: the method, its arguments as GVariant text (types
annotated) and unpacked. With --refuse, AddNotification and Hold fail with an error. With
--portal-version=N the portal has the property `version` (u) N, as xdg-desktop-portal has it."""
import json
import sys

import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib

GTK = """<node><interface name="org.gtk.Notifications">
<method name="AddNotification"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/></method>
<method name="RemoveNotification"><arg type="s" direction="in"/><arg type="s" direction="in"/></method>
</interface></node>"""
AGENT = """<node><interface name="org.herald.Agent1">
<method name="Hold"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="u" direction="out"/></method>
<method name="Withdraw"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/></method>
</interface></node>"""

log, flags = sys.argv[1], set(sys.argv[2:])
refuse = "--refuse" in flags
portal_version = next((int(flag.split("=", 1)[1]) for flag in flags if flag.startswith("--portal-version=")), None)

PORTAL = """<node><interface name="org.freedesktop.portal.Notification">
<method name="AddNotification"><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/></method>
<method name="RemoveNotification"><arg type="s" direction="in"/></method>
%s</interface></node>""" % ('<property name="version" type="u" access="read"/>\n' if portal_version is not None else "")


def called(connection, sender, path, interface, method, parameters, invocation):
    with open(log, "a") as file:
        file.write(json.dumps({"method": method, "text": parameters.print_(True), "args": parameters.unpack()}) + "\n")
    if refuse and method in ("AddNotification", "Hold"):
        invocation.return_dbus_error("org.freedesktop.DBus.Error.Failed", "refused by the test")
    elif method == "Hold":
        invocation.return_value(GLib.Variant("(u)", (7,)))
    else:
        invocation.return_value(None)


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
names = []
if "--gtk" in flags:
    bus.register_object("/org/gtk/Notifications", Gio.DBusNodeInfo.new_for_xml(GTK).interfaces[0], called, None, None)
    names.append("org.gtk.Notifications")
if "--agent" in flags:
    bus.register_object("/org/herald/Agent", Gio.DBusNodeInfo.new_for_xml(AGENT).interfaces[0], called, None, None)
    names.append("org.herald.Agent")
if "--portal" in flags:
    bus.register_object("/org/freedesktop/portal/desktop", Gio.DBusNodeInfo.new_for_xml(PORTAL).interfaces[0], called,
                        lambda *_: GLib.Variant("u", portal_version), None)
    names.append("org.freedesktop.portal.Desktop")
for name in names:
    reply = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                          GLib.Variant("(su)", (name, 4)), GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, 5000, None)
    if reply.unpack()[0] != 1:
        sys.exit("could not own " + name)
print("ready", flush=True)
GLib.MainLoop().run()

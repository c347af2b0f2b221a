#!/usr/bin/python3
"""A stand-in for the places the desktop's quiet is asked (the notification server's properties,
dunst's and Plasma's, and Xfce's xfconf) that answers none of the questions before all three
have come.

Usage: quiet_questions.py LOGFILE

Owns org.freedesktop.Notifications and org.xfce.Xfconf on the session bus and writes "ready" on
stdout once it does. Each question is appended to LOGFILE as one JSON line, with how many were
waiting for an answer once it came; when the third comes, all three are answered: Xfce's
do-not-disturb is on, dunst's `paused` is a property the server does not have, and the server is
not inhibited (`Inhibited` false). A caller that asks one at a time gets no answer to its first
question in time (it waits for the two not sent yet), so it never hears that Xfce asks for quiet."""
import json
import sys

import dbus
import dbus.exceptions
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
log = sys.argv[1]
waiting = []


def hold(question, answer):
    waiting.append(answer)
    with open(log, "a") as file:
        file.write(json.dumps({"question": question, "waiting": len(waiting)}) + "\n")
    if len(waiting) == 3:
        for answer in waiting:
            answer()
        waiting.clear()


class Server(dbus.service.Object):
    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v", async_callbacks=("ok", "error"))
    def Get(self, interface, name, ok, error):
        if (interface, name) == ("org.freedesktop.Notifications", "Inhibited"):
            hold(name, lambda: ok(dbus.Boolean(False)))
        else:
            hold(name, lambda: error(dbus.exceptions.DBusException("no property " + name,
                                                                     name="org.freedesktop.DBus.Error.UnknownProperty")))


class Xfconf(dbus.service.Object):
    @dbus.service.method("org.xfce.Xfconf", in_signature="ss", out_signature="v", async_callbacks=("ok", "error"))
    def GetProperty(self, channel, name, ok, error):
        hold(channel + name, lambda: ok(dbus.Boolean(True)))


bus = dbus.SessionBus()
names = [dbus.service.BusName(name, bus, do_not_queue=True) for name in ("org.freedesktop.Notifications", "org.xfce.Xfconf")]
Server(bus, "/org/freedesktop/Notifications")
Xfconf(bus, "/org/xfce/Xfconf")
print("ready", flush=True)
GLib.MainLoop().run()

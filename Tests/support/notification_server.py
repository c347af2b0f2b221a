#!/usr/bin/python3
"""Talks to python3-dbusmock's notification_daemon template on the session bus, as a
desktop shell would: reads the recorded calls and emits ActionInvoked / NotificationClosed.

  notification_server.py wait               until org.freedesktop.Notifications is owned
  notification_server.py calls              the recorded calls, as a JSON list
  notification_server.py action ID ACTION [ID ACTION...]
                                            emit ActionInvoked(ID, ACTION) for each pair, in order
  notification_server.py close ID REASON    emit NotificationClosed(ID, REASON)
  notification_server.py refuse             make Notify fail, as a server that refuses does
  notification_server.py accept             make Notify work again (the template's own code)
  notification_server.py fixed-id ID        answer every Notify with the same id, as a faulty server does
  notification_server.py slow SECONDS       answer every Notify only after SECONDS, as a stuck server does
"""
import json
import sys
import time

import dbus

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
# The notification_daemon template's Notify: a new id per call unless one is replaced.
TEMPLATE_NOTIFY = "if args[1]:\n    ret = args[1]\nelse:\n    ret = self.next_id\n    self.next_id += 1\n"


def plain(value):
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, list, tuple, dbus.Struct)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int16, dbus.Int32, dbus.Int64, dbus.UInt16, dbus.UInt32, dbus.UInt64)):
        return int(value)
    if isinstance(value, dbus.Double):
        return float(value)
    return value


def main():
    bus = dbus.SessionBus()
    command = sys.argv[1]
    if command == "wait":
        for _ in range(200):
            if bus.name_has_owner(NAME):
                return
            time.sleep(0.05)
        sys.exit("no notification server appeared")
    mock = dbus.Interface(bus.get_object(NAME, PATH), "org.freedesktop.DBus.Mock")
    if command == "calls":
        calls = [{"time": float(t), "method": str(m), "args": plain(a)} for t, m, a in mock.GetCalls()]
        print(json.dumps(calls))
    elif command == "action":
        pairs = sys.argv[2:]
        for number, action in zip(pairs[0::2], pairs[1::2]):
            mock.EmitSignal("org.freedesktop.Notifications", "ActionInvoked", "us",
                            [dbus.UInt32(int(number)), action])
    elif command == "close":
        mock.EmitSignal("org.freedesktop.Notifications", "NotificationClosed", "uu",
                        [dbus.UInt32(int(sys.argv[2])), dbus.UInt32(int(sys.argv[3]))])
    elif command == "refuse":
        mock.AddMethod(NAME, "Notify", "susssasa{sv}i", "u",
                       "raise dbus.exceptions.DBusException('refused', name='org.freedesktop.DBus.Error.Failed')")
    elif command == "fixed-id":
        mock.AddMethod(NAME, "Notify", "susssasa{sv}i", "u", "ret = %d" % int(sys.argv[2]))
    elif command == "slow":
        mock.AddMethod(NAME, "Notify", "susssasa{sv}i", "u",
                       "import time\ntime.sleep(%f)\n" % float(sys.argv[2]) + TEMPLATE_NOTIFY)
    elif command == "accept":
        mock.AddMethod(NAME, "Notify", "susssasa{sv}i", "u", TEMPLATE_NOTIFY)
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Helpers of the desktop matrix (Tests/HeraldEndToEndTests/DesktopMatrixTests.swift): what a
real notification server received on a private bus, and what it drew on the X screen.

  desktop_matrix.py monitor BUS-ADDRESS LOG
        Becomes a monitor of the bus (org.freedesktop.DBus.Monitoring.BecomeMonitor) and writes
        every message it sees to LOG, one JSON object a line: type (call, return, error, signal),
        sender, destination, path, interface, member, serial, reply_serial, args. Writes a line
        {"type": "ready"} once monitoring, so a test knows no message is missed after that.
  desktop_matrix.py ocr PNG [WxH+X+Y]
        Crops the screenshot (to the region, when given), upscales it four times, reads it with
        tesseract and prints JSON: {"text": all lines, "words": [{"text", "x", "y", "w", "h"}]}
        with each word's box in screen coordinates (its centre is where to click it).
  desktop_matrix.py window-geometry WINDOW-ID
        The window's position and size on the screen, as JSON {"x", "y", "width", "height"}.
  desktop_matrix.py has-owner BUS-ADDRESS NAME
        Exits 0 when NAME has an owner on the bus, 1 when not.
  desktop_matrix.py dmenu CHOICE-FILE INPUT-FILE
        Stands in for dmenu as dunst's context menu: copies the menu dunst offers (standard
        input) to INPUT-FILE and answers with the first line containing CHOICE-FILE's text.
  desktop_matrix.py inhibit BUS-ADDRESS
        Calls Inhibit on org.freedesktop.Notifications (Plasma's do-not-disturb), prints
        "inhibited COOKIE" and stays on the bus: the inhibition ends when it is stopped.
  desktop_matrix.py stored-notifications FILE
        GNOME Shell's stored org.gtk.Notifications (its persistent state "notifications", an
        a(sa(sv)) GVariant, $XDG_DATA_HOME/gnome-shell/notifications) as JSON: a list of
        {"app", "id", "title", "body"}; an empty list when there is no such file.
"""
import json
import os
import subprocess
import sys
import tempfile
import unicodedata


from notification_server import plain  # one converter of D-Bus values for the test scripts


TYPES = {1: "call", 2: "return", 3: "error", 4: "signal"}


def monitor(address, log_path):
    import dbus
    import dbus.lowlevel
    import dbus.mainloop.glib
    from gi.repository import GLib

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    log = open(log_path, "a", buffering=1, encoding="utf-8")

    def record(_connection, message):
        try:
            args = [plain(a) for a in message.get_args_list(byte_arrays=False)]
        except Exception as error:  # an argument dbus-python cannot read: keep the call, say so
            args = ["<unreadable: %s>" % error]
        log.write(json.dumps({
            "type": TYPES.get(message.get_type(), str(message.get_type())),
            "sender": message.get_sender(), "destination": message.get_destination(),
            "path": message.get_path(), "interface": message.get_interface(), "member": message.get_member(),
            "serial": message.get_serial(), "reply_serial": message.get_reply_serial(), "args": args,
        }, ensure_ascii=False) + "\n")
        # Handled: else libdbus answers a call with UnknownMethod, and a monitor that sends
        # anything is disconnected.
        return dbus.lowlevel.HANDLER_RESULT_HANDLED

    bus.add_message_filter(record)
    bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Monitoring",
                      "BecomeMonitor", "asu", ([], dbus.UInt32(0)))
    log.write(json.dumps({"type": "ready"}) + "\n")
    GLib.MainLoop().run()


def ocr(png, region=None):
    scale = 4
    with tempfile.TemporaryDirectory() as folder:
        big = os.path.join(folder, "big.png")
        command = ["convert", png]
        offset_x = offset_y = 0
        if region:
            command += ["-crop", region, "+repage"]
            size, _, rest = region.partition("+")
            offset_x, offset_y = (int(v) for v in rest.split("+"))
        # Grey, four times larger: tesseract reads small anti-aliased screen text poorly.
        command += ["-colorspace", "Gray", "-resize", "%d%%" % (scale * 100), big]
        subprocess.run(command, check=True)
        # Sparse text (psm 11) finds a lone button label such as "OK" that block layout misses.
        tsv = subprocess.run(["tesseract", big, "-", "--psm", "11", "tsv"], capture_output=True, text=True).stdout
    words = []
    for line in tsv.splitlines()[1:]:
        fields = line.split("\t")
        # Below 70 it is mostly an icon read as a letter.
        if len(fields) < 12 or not fields[11].strip() or float(fields[10]) < 70:
            continue
        if len(fields[11]) == 1 and unicodedata.category(fields[11]) == "So":
            continue  # an icon read as a symbol (©, ®)
        x, y, w, h = (int(v) for v in fields[6:10])
        words.append({"text": fields[11], "x": offset_x + x // scale, "y": offset_y + y // scale,
                      "w": w // scale, "h": h // scale})
    # Reading order: words whose middles are within 6 pixels make a line, lines top to bottom,
    # words left to right.
    lines = []
    for word in sorted(words, key=lambda w: w["y"] + w["h"] / 2):
        middle = word["y"] + word["h"] / 2
        if lines and abs(lines[-1][0] - middle) <= 6:
            lines[-1][1].append(word)
        else:
            lines.append((middle, [word]))
    ordered = [sorted(line, key=lambda w: w["x"]) for _, line in lines]
    text = "\n".join(" ".join(w["text"] for w in line) for line in ordered)
    words = [w for line in ordered for w in line]
    print(json.dumps({"text": text, "words": words}, ensure_ascii=False))


def window_geometry(window):
    shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], capture_output=True, text=True).stdout
    values = dict(line.split("=", 1) for line in shell.split())
    print(json.dumps({name: int(values[name.upper()]) for name in ("x", "y", "width", "height")}))


def has_owner(address, name):
    import dbus
    try:
        bus = dbus.bus.BusConnection(address)
        sys.exit(0 if bus.name_has_owner(name) else 1)
    except dbus.exceptions.DBusException:
        sys.exit(1)


def dmenu(choice_file, input_file):
    offered = sys.stdin.read()
    with open(choice_file, encoding="utf-8") as handle:
        choice = handle.read().strip()
    with open(input_file + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(offered)
    os.rename(input_file + ".tmp", input_file)
    for line in offered.splitlines():
        if choice in line:
            print(line)
            return


def inhibit(address):
    import dbus
    bus = dbus.bus.BusConnection(address)
    server = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                            "org.freedesktop.Notifications")
    cookie = server.Inhibit("org.example.Matrix", "do not disturb, as a test", dbus.Dictionary({}, signature="sv"))
    print("inhibited %d" % cookie, flush=True)
    import time
    while True:
        time.sleep(60)


def stored_notifications(path):
    from gi.repository import GLib
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        print("[]")
        return
    value = GLib.Variant.new_from_bytes(GLib.VariantType.new("a(sa(sv))"), GLib.Bytes.new(data), False)
    stored = []
    for app, notifications in value.unpack():
        for identifier, fields in notifications:
            stored.append({"app": app, "id": identifier, "title": fields.get("title", ""), "body": fields.get("body", "")})
    print(json.dumps(stored, ensure_ascii=False))


def main():
    command = sys.argv[1]
    if command == "monitor":
        monitor(sys.argv[2], sys.argv[3])
    elif command == "ocr":
        ocr(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif command == "window-geometry":
        window_geometry(sys.argv[2])
    elif command == "has-owner":
        has_owner(sys.argv[2], sys.argv[3])
    elif command == "dmenu":
        dmenu(sys.argv[2], sys.argv[3])
    elif command == "inhibit":
        inhibit(sys.argv[2])
    elif command == "stored-notifications":
        stored_notifications(sys.argv[2])
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()

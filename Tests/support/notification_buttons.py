#!/usr/bin/python3
"""Finds the buttons a real notification server (or an app's banner) drew, from a screenshot.

  notification_buttons.py SCREENSHOT.png [WINDOW-NAME]     (with DISPLAY set, for xdotool)

Looks up the newest window named WINDOW-NAME (a regular expression; by default
"^Notification$", notification-daemon's bubble), crops the screenshot to it, and finds the
labels of its lowest row of buttons: the lowest band of dark text, split into groups where
the gap is wide. Prints JSON: the window's geometry, the centre of each button left to
right, and a point on the body (the default action).
"""
import json
import subprocess
import sys


def window_geometry(name):
    ids = subprocess.run(["xdotool", "search", "--name", name], capture_output=True, text=True).stdout.split()
    if not ids:
        sys.exit("no window named %s on the screen" % name)
    shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", ids[-1]], capture_output=True, text=True).stdout
    values = dict(line.split("=", 1) for line in shell.split())
    return {name: int(values[name.upper()]) for name in ("x", "y", "width", "height")}


def gray_pixels(screenshot, geometry):
    crop = "%dx%d+%d+%d" % (geometry["width"], geometry["height"], geometry["x"], geometry["y"])
    raw = subprocess.run(["convert", screenshot, "-crop", crop, "+repage", "-colorspace", "Gray", "-depth", "8", "gray:-"],
                         capture_output=True, check=True).stdout
    width = geometry["width"]
    return [raw[row * width:(row + 1) * width] for row in range(len(raw) // width)]


def main():
    geometry = window_geometry(sys.argv[2] if len(sys.argv) > 2 else "^Notification$")
    rows = gray_pixels(sys.argv[1], geometry)
    width = geometry["width"]
    text_margin = width - 48  # the close button sits in the top right corner
    edge = 8  # the bubble's rounded border
    inside = range(edge, len(rows) - edge)
    dark_rows = [y for y in inside if any(value < 110 for value in rows[y][edge:text_margin])]
    bottom = dark_rows[-1]
    band = [y for y in dark_rows if y > bottom - 16]
    columns = sorted({x for y in band for x, value in enumerate(rows[y][:text_margin]) if value < 110 and x >= edge})
    groups = []
    for x in columns:
        if groups and x - groups[-1][-1] <= 12:
            groups[-1].append(x)
        else:
            groups.append([x])
    centre_y = geometry["y"] + (band[0] + band[-1]) // 2
    buttons = [{"x": geometry["x"] + (group[0] + group[-1]) // 2, "y": centre_y} for group in groups]
    body = {"x": geometry["x"] + width // 4, "y": geometry["y"] + dark_rows[0] + 4}
    print(json.dumps({"window": geometry, "buttons": buttons, "body": body}))


if __name__ == "__main__":
    main()

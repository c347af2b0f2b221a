#!/usr/bin/python3
"""Prints the functions that callgrind saw programs run, for desktop/link-order.txt.

  link_order.py PROGRAM CALLGRIND_OUT... [--and PROGRAM CALLGRIND_OUT...]...

Reads callgrind's output files (run with --demangle=no) of each PROGRAM in the order given and
prints each function (its symbol name, as the linker knows it) once. The functions of each program
come out together, so that one list serves every program linked with it: with two programs, those
only the first ran, then those both ran, then those only the second ran (in general, ordered by
the first and then the last program that ran them). Within a group, functions keep the order the
files first name them in: the functions of a program's first file's run, then those only its
second run added, and so on. Addresses without a symbol are left out. Exits 1 when some PROGRAM
has no function in its files.
"""
import re
import sys

LINE = re.compile(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?$")
RECURSION = re.compile(r"'\d+$")


def functions(path, program, found):
    """Appends to `found` the functions of `program` in callgrind file `path` not in it yet."""
    objects, names, current = {}, {}, None
    seen = set(found)
    with open(path, errors="replace") as handle:
        for line in handle:
            match = LINE.match(line.rstrip("\n"))
            if not match:
                continue
            kind, number, text = match.groups()
            table = objects if kind.endswith("ob") else names
            if text:
                table[number] = text
            if kind == "ob":
                current = objects.get(number)
            elif kind == "fn" and current == program:
                # callgrind names a recursive call's deeper levels `name'2`, `name'3`, ….
                name = RECURSION.sub("", names.get(number) or "")
                if name and not name.startswith("0x") and name not in seen:
                    seen.add(name)
                    found.append(name)


def main():
    groups, group = [], []
    for argument in sys.argv[1:]:
        if argument == "--and":
            groups.append(group)
            group = []
        else:
            group.append(argument)
    groups.append(group)
    if any(len(group) < 2 for group in groups):
        sys.exit(__doc__)
    runs = []
    for program, *paths in groups:
        found = []
        for path in paths:
            functions(path, program, found)
        if not found:
            sys.exit("link_order: no function of %s in %s" % (program, " ".join(paths)))
        runs.append(found)
    # For each function: the first and the last program that ran it, and where it first appears.
    first, last, place = {}, {}, {}
    for number, found in enumerate(runs):
        for index, name in enumerate(found):
            if name not in first:
                first[name] = number
                place[name] = index
            last[name] = number
    ordered = sorted(first, key=lambda name: (first[name], last[name], place[name]))
    sys.stdout.write("".join(name + "\n" for name in ordered))


if __name__ == "__main__":
    main()

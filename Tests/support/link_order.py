#!/usr/bin/python3
"""Prints the functions of one program that callgrind saw run, for desktop/link-order.txt.

  link_order.py PROGRAM CALLGRIND_OUT...

Reads callgrind's output files (run with --demangle=no) in the order given and prints each
function of PROGRAM (its symbol name, as the linker knows it) once, in the order the files first
name it: the functions of the first file's run, then those only the second run added, and so on.
Addresses without a symbol are left out. Exits 1 when no function of PROGRAM was found.
"""
import re
import sys

LINE = re.compile(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?$")
RECURSION = re.compile(r"'\d+$")


def functions(path, program, seen, found):
    """Appends to `found` the functions of `program` in callgrind file `path` not in `seen`."""
    objects, names, current = {}, {}, None
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
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    program, seen, found = sys.argv[1], set(), []
    for path in sys.argv[2:]:
        functions(path, program, seen, found)
    if not found:
        sys.exit("link_order: no function of %s in %s" % (program, " ".join(sys.argv[2:])))
    sys.stdout.write("".join(name + "\n" for name in found))


if __name__ == "__main__":
    main()

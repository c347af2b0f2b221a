#!/usr/bin/python3
"""Reads valgrind memcheck's XML output and reports the definitely-lost blocks Herald's code allocated.

  memcheck_report.py [--modules Herald,HeraldCore,HeraldDesktop] [--sources DIR] [--definite-only] [--any-frame] MEMCHECK.xml...

Whose allocation is it? The allocation stack is read from the allocation outwards. Frames in
shared libraries (libc, the Swift runtime, Foundation, GLib, libnotify...) and code the compiler
generated without a module (thunks, specializations of the standard library) are passed over:
they allocate on behalf of their caller. The first frame of the package's own code decides:
Herald's when it belongs to one of Herald's modules, the tests' otherwise. A frame belongs to a
module when its Swift name is rooted in it (a mangled name starts with the module as a
length-prefixed identifier: `$s6Herald...`, `$s10HeraldCore...`, `$s13HeraldDesktop...`) or,
with debug info, when its source file lies in Sources/<module>/. The package's code is what the
main executable (not a .so) holds under a module name, or whose source is in Sources/ or Tests/.

So a block the tests allocate inside `MainContext.assumeIsolated { ... }` (a Herald frame further
out) is the tests', and a GLib object Herald asked libnotify for and never unreffed is Herald's.
A block allocated under one of LIBRARY_REGISTRIES (GIO's module loading, once per process, also
through an extension point such as the proxy resolver) is the library's, wherever it was
triggered from.
With --any-frame, any Herald frame anywhere in the stack makes the record Herald's instead.

Indirectly-lost records count too when the XML has them (valgrind --show-leak-kinds=definite,indirect):
a leaked reference cycle is reported as one definitely-lost block, picked by memcheck among the
cycle's objects, and the others as indirectly lost, so which of Herald's objects in a cycle comes
out "definite" changes from run to run. Counting both makes the verdict the same every run.
--definite-only counts the definitely-lost records alone.

Prints each of Herald's records with its allocation stack (Swift names demangled with
`swift demangle` when the toolchain is on PATH; `>` marks the deciding frame, `*` Herald's
frames), then one summary line:

  memcheck: 0 definitely lost blocks from Herald's code (N definitely lost in all, from other libraries and the tests)

(with ", 0 indirectly lost" after "code" when indirect records were checked).

Exits 0 when Herald lost nothing, 1 when it did, 2 when an XML file is missing, unreadable or
from a run that did not finish (valgrind writes <status>FINISHED</status> at the very end).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

DEFAULT_MODULES = ["Herald", "HeraldCore", "HeraldDesktop"]
# Allocations a library makes once per process, for the life of the process, whoever triggers
# them: GIO loads its modules (TLS, proxy resolvers, settings) at the first use of an extension
# point, such as the first connection, and never unloads them. Such a block is the library's,
# even when the first package frame out from it is Herald's main loop.
# GIO's module loading, once per process: scanning the module folder, loading a module, and an
# extension point (the proxy resolver a first connection asks for) loading and unloading its
# modules, where the dynamic loader keeps a block of its own.
LIBRARY_REGISTRIES = {"g_io_modules_scan_all_in_directory_with_scope", "g_io_module_new", "g_io_extension_point_get_extensions"}
SHARED_OBJECT = re.compile(r"\.so(\.[0-9]+)*$")
# `$s` + the outermost context: a module name, length-prefixed (`11HeraldTests`)
ROOT_MODULE = re.compile(r"^_?\$s([1-9][0-9]*)")


class Frame:
    def __init__(self, element):
        self.function = element.findtext("fn") or ""
        self.object = element.findtext("obj") or ""
        self.directory = element.findtext("dir") or ""
        self.file = element.findtext("file") or ""
        self.line = element.findtext("line") or ""
        self.address = element.findtext("ip") or ""

    @property
    def path(self):
        return os.path.join(self.directory, self.file) if self.file else ""

    @property
    def module(self):
        """The module a mangled Swift name is rooted in, or None."""
        match = ROOT_MODULE.match(self.function)
        if not match:
            return None
        length = int(match.group(1))
        name = self.function[match.end():match.end() + length]
        return name if len(name) == length else None


class Leak:
    def __init__(self, element):
        self.definite = element.findtext("kind") == "Leak_DefinitelyLost"
        what = element.find("xwhat")
        self.text = (what.findtext("text") if what is not None else element.findtext("what")) or ""
        self.bytes = int((what.findtext("leakedbytes") if what is not None else None) or 0)
        self.blocks = int((what.findtext("leakedblocks") if what is not None else None) or 0)
        stack = element.find("stack")
        self.frames = [Frame(frame) for frame in stack.findall("frame")] if stack is not None else []


class Ownership:
    """Tells Herald's frames from the tests' and the libraries'."""

    def __init__(self, modules, sources):
        self.modules = set(modules)
        self.roots = [os.path.realpath(os.path.join(sources, module)) for module in modules] if sources else []
        self.relative = re.compile(r"(^|/)Sources/(?:%s)(/|$)" % "|".join(re.escape(module) for module in modules))
        package = os.path.dirname(os.path.realpath(sources)) if sources else None
        self.package_roots = [os.path.join(package, "Sources"), os.path.join(package, "Tests")] if package else []

    def in_herald_sources(self, frame):
        if not frame.file or frame.file.startswith("<"):
            return False
        if self.roots:
            directory = os.path.realpath(frame.directory)
            return any(directory == root or directory.startswith(root + os.sep) for root in self.roots)
        return bool(self.relative.search(frame.directory))

    def is_herald(self, frame):
        """Whether the frame is Herald's own code."""
        module = frame.module
        return module in self.modules if module else self.in_herald_sources(frame)

    def in_package_sources(self, frame):
        if not frame.file or frame.file.startswith("<"):
            return False
        if self.package_roots:
            directory = os.path.realpath(frame.directory)
            return any(directory == root or directory.startswith(root + os.sep) for root in self.package_roots)
        return bool(re.search(r"(^|/)(Sources|Tests)/", frame.directory))

    def is_package(self, frame):
        """Whether the frame is code of the package (Herald or the tests): it decides whose a block is.

        Library frames, and those the compiler made in the package's binary for the standard
        library (specializations, thunks: no module, no source file of ours), do not decide."""
        if frame.object and SHARED_OBJECT.search(frame.object):
            return False  # a library, whatever it calls itself
        return bool(frame.module) or self.in_package_sources(frame)

    def decider(self, leak, any_frame):
        """The index of the frame that makes the record Herald's, or None if it is not Herald's."""
        if any(frame.function in LIBRARY_REGISTRIES for frame in leak.frames):
            return None
        for index, frame in enumerate(leak.frames):
            if any_frame:
                if self.is_herald(frame):
                    return index
            elif self.is_package(frame):
                return index if self.is_herald(frame) else None
        return None


def read_leaks(path):
    """The definitely- and indirectly-lost records of one XML file, and counts of the non-leak errors.

    Exits 2 if the file is not the output of a finished run."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as error:
        print("memcheck: cannot read %s: %s" % (path, error), file=sys.stderr)
        sys.exit(2)
    states = [status.findtext("state") for status in root.iter("status")]
    if "FINISHED" not in states:
        print("memcheck: %s is from a run that did not finish (valgrind status: %s)"
              % (path, ", ".join(filter(None, states)) or "none"), file=sys.stderr)
        sys.exit(2)
    leaks, others = [], {}
    for error in root.iter("error"):
        kind = error.findtext("kind") or "?"
        if kind in ("Leak_DefinitelyLost", "Leak_IndirectlyLost"):
            leaks.append(Leak(error))
        elif not kind.startswith("Leak_"):
            others[kind] = others.get(kind, 0) + 1
    return leaks, others


def demangler(names):
    """A function from symbol to readable name, through one `swift demangle` run."""
    swift_names = sorted({name for name in names if name.startswith(("$s", "_$s"))})
    swift = shutil.which("swift-demangle") or shutil.which("swift")
    if not swift or not swift_names:
        return lambda name: name
    command = [swift, "--compact"] if swift.endswith("swift-demangle") else [swift, "demangle", "--compact"]
    try:
        result = subprocess.run(command, input="\n".join(swift_names) + "\n", capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return lambda name: name
    lines = result.stdout.splitlines()
    if result.returncode != 0 or len(lines) != len(swift_names):
        return lambda name: name
    table = dict(zip(swift_names, lines))
    return lambda name: table.get(name, name)


def describe(frame, mark, readable):
    if frame.file:
        where = " (%s:%s)" % (frame.path, frame.line) if frame.line else " (%s)" % frame.path
    else:
        where = " (%s)" % os.path.basename(frame.object) if frame.object else ""
    return "  %s %s%s" % (mark, readable(frame.function) if frame.function else frame.address, where)


def main():
    parser = argparse.ArgumentParser(description="Reports the definitely-lost blocks allocated by Herald's code.")
    parser.add_argument("xml", nargs="+", help="memcheck XML files (valgrind --xml=yes --xml-file=...)")
    parser.add_argument("--modules", default=",".join(DEFAULT_MODULES),
                        help="Herald's modules, comma-separated (default: %(default)s)")
    parser.add_argument("--sources", help="the package's Sources folder (default: any .../Sources/<module>/ path)")
    parser.add_argument("--definite-only", action="store_true", help="ignore indirectly-lost records")
    parser.add_argument("--any-frame", action="store_true",
                        help="count a record as Herald's when any frame of its stack is Herald's")
    arguments = parser.parse_args()
    ownership = Ownership([module.strip() for module in arguments.modules.split(",") if module.strip()], arguments.sources)

    leaks, others = [], {}
    for path in arguments.xml:
        found, kinds = read_leaks(path)
        leaks.extend(found)
        for kind, count in kinds.items():
            others[kind] = others.get(kind, 0) + count

    if arguments.definite_only:
        leaks = [leak for leak in leaks if leak.definite]
    checked_indirect = any(not leak.definite for leak in leaks)
    herald = [(leak, index) for leak in leaks for index in [ownership.decider(leak, arguments.any_frame)] if index is not None]
    herald.sort(key=lambda pair: not pair[0].definite)
    readable = demangler(frame.function for leak, _ in herald for frame in leak.frames)
    indirect_records = [(leak, decider) for leak, decider in herald if not leak.definite]
    for leak, decider in herald:
        if leak.definite:  # the whole allocation stack
            print("memcheck: %s" % leak.text)
            for index, frame in enumerate(leak.frames):
                mark = ">" if index == decider else "*" if ownership.is_herald(frame) else " "
                print(describe(frame, mark, readable))
            print()
    if indirect_records:  # held by lost blocks: where Herald allocated them is enough
        print("memcheck: held by lost blocks (indirectly lost), allocated by Herald at:")
        for leak, decider in indirect_records:
            print("  %s\n   %s" % (leak.text, describe(leak.frames[decider], ">", readable)))
        print()

    definite = sum(leak.blocks for leak, _ in herald if leak.definite)
    indirect = sum(leak.blocks for leak, _ in herald if not leak.definite)
    everything = sum(leak.blocks for leak in leaks if leak.definite)
    if others:
        print("memcheck: other memcheck errors, not checked: %s"
              % ", ".join("%s %d" % (kind, count) for kind, count in sorted(others.items())))
    counts = "%d definitely lost blocks from Herald's code" % definite
    if checked_indirect:
        counts += ", %d indirectly lost" % indirect
    if herald:
        print("memcheck: %s, in %d records (%d definitely lost in all; > marks the frame that makes a record Herald's)"
              % (counts, len(herald), everything))
        return 1
    print("memcheck: %s (%d definitely lost in all, from other libraries and the tests)" % (counts, everything))
    return 0


if __name__ == "__main__":
    sys.exit(main())

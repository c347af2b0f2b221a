#!/usr/bin/python3
"""Writes the fuzzers' seed corpus, Tests/Fuzz/corpus/<target>/: small valid feeds and prompts
files in each format, and slightly broken ones (cut off, a wrong type, a damaged table), so that
each fuzzer starts inside its format. Binary property lists come from plistlib.

    Tests/Fuzz/make_corpus.py        (rewrites the seeds; deterministic)

Seeds must be decoded or refused without a crash: FuzzCorpusTests replays them. Inputs that crash
go to Tests/Fuzz/crashes/<target>/ (Tests/scripts/fuzz.sh puts them there), never here.
"""
import base64
import datetime
import json
import os
import plistlib
import shutil
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

README_FEED = {
    "2026/11/01": {
        "Title": "Version 2 is out",
        "Message": "Faster sync and a dark theme.",
        "ActionURL": "https://example.com/releases/2",
        "ActionButton": "What's new",
        "MinVersion": "1.5",
        "MaxVersion": "1.9.9",
    }
}

MIXED_FEED = {
    "2024/01/02": {"Title": "New", "Message": "Body <b>&amp;</b> \u00e9\u00e8 \U0001F600", "ActionURL": "http://example.com/x?a=1&b=2"},
    "2024/01/03": {"Title": "Numbers", "MinVersion": 1.2, "MaxVersion": 3, "Extra": [1, 2.5, True, False, "s"]},
    "2024/01/04": {"Title": "Date and data", "When": datetime.datetime(2024, 1, 4, 12, 30), "Blob": b"\x00\x01\xff"},
    "2024/01/05": "not a dictionary",
    "2024/01/06": {"Title": 42, "Message": ["wrong", "type"]},
    "2024/01/07": {"ActionURL": "javascript:alert(1)", "ActionButton": "Go"},
    "2024/01/08": {"Title": "Nested", "Deep": {"a": {"b": {"c": [{"d": "e"}]}}}},
    "2024/01/09": {"Title": "", "MinVersion": "2.0", "MaxVersion": "1.0"},
    "2024/01/09 ": {"Title": "Same but space", "MaxVersion": ""},
    "A/b": {"Title": "case"},
    "a/B": {"Title": "case again"},
}

PROMPTS = {
    "defaults": {"daysUntilPrompt": 3, "remindPeriod": 0.5, "cancelButton": "No thanks"},
    "pro": {"title": "Go Pro", "message": "Unlock sync.", "actionButton": "Upgrade",
            "actionURL": "https://example.com/pro", "usesUntilPrompt": 10},
    "rate": {"title": "Enjoying Example?", "usesUntilPrompt": "20", "recurring": True},
}

BROKEN_PROMPTS = {
    "defaults": {"daysUntilPrompt": -1, "remindPeriod": "soon", "usesCount": 4},
    "bad": {"Title": "Upper case keys", "ActionURL": "file:///etc/passwd", "usesUntilPrompt": 1.5,
            "recurring": "maybe", "previewMode": 1, "verboseLogging": "YES", "lastReminded": 0},
    "notitle": {"message": "no title anywhere"},
    "list": [1, 2, 3],
    "numbers": {"title": "n", "usesUntilPrompt": "1e9", "daysUntilPrompt": " 2.5 ", "remindPeriod": 1e308},
}


def write(target, name, data):
    directory = os.path.join(ROOT, target)
    os.makedirs(directory, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(directory, name), "wb") as handle:
        handle.write(data)


def xml(value):
    return plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=True)


def binary(value):
    return plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=True)


def openstep(value, indent=""):
    """An OpenStep rendering (strings quoted, numbers as bare words)."""
    if isinstance(value, dict):
        inner = "".join(f"{indent}  {openstep(str(k))} = {openstep(v, indent + '  ')};\n" for k, v in value.items())
        return "{\n" + inner + indent + "}"
    if isinstance(value, list):
        return "(" + ", ".join(openstep(v, indent) for v in value) + ")"
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, bytes):
        return "<" + value.hex() + ">"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + text + '"'


def shared_children(depth):
    """A binary plist whose containers refer to one child twice, `depth` levels deep."""
    node = {"Title": "leaf"}
    for _ in range(depth):
        node = [node, node]
    return binary({"k": {"Title": "shared", "Tree": node}})


def patched(data, offset, replacement):
    return data[:offset] + replacement + data[offset + len(replacement):]


def signature_block(signature):
    return "<!-- herald-signature: ed25519 " + base64.b64encode(signature).decode() + " -->\n"


def main():
    if os.path.isdir(ROOT):
        shutil.rmtree(ROOT)
    sig = bytes(range(64))

    # XML property lists.
    write("xml", "readme.plist", xml(README_FEED))
    write("xml", "mixed.plist", xml(MIXED_FEED))
    write("xml", "empty-dict.plist", xml({}))
    write("xml", "root-array.plist", xml([README_FEED]))
    write("xml", "minimal.plist", '<plist version="1.0"><dict><key>a</key><dict><key>Title</key><string>T</string></dict></dict></plist>')
    write("xml", "entities-cdata-comments.plist",
          '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
          '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<!-- a comment -->\n<plist version="1.0"><dict>'
          '<key>k&amp;&lt;&#65;&#x42;</key><dict><key>Title</key><string><![CDATA[<b>raw</b>]]></string>'
          '<key>Message</key><string>&quot;q&quot; &apos;a&apos; &#x1F600;</string>'
          '<key>MinVersion</key><real>1.10</real><key>MaxVersion</key><integer>-3</integer>'
          '<key>Flag</key><true/><key>Off</key><false/><key>Data</key><data>AAEC/w==</data>'
          '<key>When</key><date>2024-01-04T12:30:00Z</date><key>List</key><array/></dict></dict></plist>\n')
    write("xml", "bom-utf8.plist", b"\xef\xbb\xbf" + xml(README_FEED))
    write("xml", "signed.plist", xml(README_FEED) + signature_block(sig).encode())
    full = xml(MIXED_FEED)
    write("xml", "broken-truncated.plist", full[: len(full) // 2])
    write("xml", "broken-unclosed.plist", '<plist version="1.0"><dict><key>a</key><dict><key>Title</key><string>T</dict></plist>')
    write("xml", "broken-bad-integer.plist", '<plist><dict><key>a</key><dict><key>MinVersion</key><integer>1.2.3</integer>'
                                           '<key>When</key><date>yesterday</date><key>D</key><data>!!</data></dict></dict></plist>')
    write("xml", "broken-key-without-value.plist", '<plist><dict><key>a</key><key>b</key></dict></plist>')
    write("xml", "broken-undefined-entity.plist", '<plist><dict><key>&bogus;</key><string>&#xD800;</string></dict></plist>')
    write("xml", "nested-20.plist", '<plist><dict><key>k</key>' + "<array>" * 20 + "</array>" * 20 + "</dict></plist>")

    # Binary property lists.
    write("binary", "readme.bplist", binary(README_FEED))
    write("binary", "mixed.bplist", binary(MIXED_FEED))
    write("binary", "empty-dict.bplist", binary({}))
    write("binary", "root-array.bplist", binary([1, "two", 3.0]))
    write("binary", "big-numbers.bplist", binary({"k": {"Title": "n", "Big": 2**63 - 1, "Neg": -(2**63),
                                                        "U": 2**64 - 1, "F": 1e300, "Tiny": 5e-324}}))
    write("binary", "unicode-and-long.bplist", binary({"\u00e9t\u00e9": {"Title": "\u65e5\u672c\u8a9e " * 3,
                                                                         "Message": "x" * 300, "List": list(range(20))}}))
    write("binary", "shared-children-8.bplist", shared_children(8))
    good = binary(MIXED_FEED)
    write("binary", "broken-truncated.bplist", good[: len(good) // 2])
    write("binary", "broken-no-trailer.bplist", good[:-32])
    # The trailer: 6 unused bytes, offset size, ref size, object count, top object, table offset.
    trailer = len(good) - 32
    write("binary", "broken-top-object.bplist", patched(good, trailer + 16, struct.pack(">Q", 10**6)))
    write("binary", "broken-table-offset.bplist", patched(good, trailer + 24, struct.pack(">Q", len(good) + 100)))
    write("binary", "broken-object-count.bplist", patched(good, trailer + 8, struct.pack(">Q", 2**40)))
    write("binary", "broken-ref-size.bplist", patched(good, trailer + 6, bytes([8, 0])))
    write("binary", "broken-offset-size.bplist", patched(good, trailer + 6, bytes([0])))
    write("binary", "broken-header-only.bplist", b"bplist00")
    write("binary", "broken-version.bplist", b"bplist15" + good[8:])

    # OpenStep property lists.
    write("openstep", "readme.txt", openstep(README_FEED) + "\n")
    write("openstep", "mixed.txt", openstep({k: v for k, v in MIXED_FEED.items() if "When" not in str(v)}) + "\n")
    write("openstep", "bare-words-and-comments.txt",
          '// a comment\n{ "2011/01/01" = { Title = "Old style"; Message = "Hello \\"there\\"\\n\\t\\U00e9\\101"; '
          'MinVersion = 1.0; }; /* c */ b = { Title = x; Data = <00 01 ff>; List = (a, "b", (c)); Empty = {}; }; }\n')
    write("openstep", "empty.txt", "{}")
    write("openstep", "root-array.txt", "( a, b, c )")
    write("openstep", "root-string.txt", '"just a string"')
    write("openstep", "broken-unterminated-string.txt", '{ a = { Title = "no end; }; }')
    write("openstep", "broken-missing-semicolon.txt", "{ a = { Title = x } }")
    write("openstep", "broken-unterminated-comment.txt", "{ a = { Title = x; }; } /* never closed")
    write("openstep", "broken-odd-hex.txt", "{ a = <0g1>; }")
    write("openstep", "broken-trailing.txt", "{ a = b; } extra")
    write("openstep", "nested-20.txt", "{ k = " + "(" * 20 + ")" * 20 + "; }")

    # JSON.
    write("json", "readme.json", json.dumps(README_FEED, indent=2))
    write("json", "mixed.json", json.dumps({k: v for k, v in MIXED_FEED.items() if "When" not in str(v)}, indent=1, default=str))
    write("json", "numbers.json", '{"k": {"Title": "n", "MinVersion": 1.10, "MaxVersion": 2e3, "I": -9223372036854775808, '
                                  '"Big": 18446744073709551616, "F": 1.7976931348623157e308, "Z": -0.0, "E": 1E-7}}')
    write("json", "escapes.json", '{"k\\u00e9\\ud83d\\ude00": {"Title": "\\"\\\\\\/\\b\\f\\n\\r\\t", "Message": "\\u0000 nul"}}')
    write("json", "null-and-bools.json", '{"k": {"Title": null, "Message": true, "ActionURL": false, "Extra": [null, {}, []]}}')
    write("json", "bom.json", b"\xef\xbb\xbf" + json.dumps(README_FEED).encode())
    write("json", "empty.json", "{}")
    write("json", "root-array.json", "[1, 2, 3]")
    write("json", "duplicate-keys.json", '{"k": {"Title": "one"}, "k": {"Title": "two"}}')
    write("json", "broken-trailing-comma.json", '{"k": {"Title": "T",},}')
    write("json", "broken-truncated.json", json.dumps(README_FEED)[:40])
    write("json", "broken-single-quotes.json", "{'k': {'Title': 'T'}}")
    write("json", "broken-bad-escape.json", '{"k": {"Title": "\\x41 \\u12"}}')
    write("json", "nested-20.json", '{"k": ' + "[" * 20 + "]" * 20 + "}")

    # Prompts files, in every format.
    write("prompts", "readme.json", json.dumps(PROMPTS, indent=2))
    write("prompts", "readme.plist", xml(PROMPTS))
    write("prompts", "readme.bplist", binary(PROMPTS))
    write("prompts", "readme.txt", openstep(PROMPTS) + "\n")
    write("prompts", "broken-values.json", json.dumps(BROKEN_PROMPTS, indent=1))
    write("prompts", "broken-values.plist", xml(BROKEN_PROMPTS))
    write("prompts", "defaults-not-dict.json", '{"defaults": "x", "p": {"title": "t"}}')
    write("prompts", "root-array.json", '[{"title": "t"}]')
    write("prompts", "broken-truncated.json", json.dumps(PROMPTS)[:60])

    # Signatures: trailing blocks and detached files.
    feed = xml(README_FEED)
    write("signature", "trailing-good.plist", feed + signature_block(sig).encode())
    write("signature", "trailing-json-content.json", json.dumps(README_FEED).encode() + signature_block(sig).encode())
    write("signature", "trailing-short.plist", feed + signature_block(sig[:32]).encode())
    write("signature", "trailing-not-base64.plist", feed + b"<!-- herald-signature: ed25519 ***notbase64*** -->\n")
    write("signature", "trailing-extra-word.plist", feed + b"<!-- herald-signature: ed25519 AAAA extra -->")
    write("signature", "trailing-marker-only.plist", feed + b"<!-- herald-signature:")
    write("signature", "two-markers.plist", signature_block(sig).encode() + feed + signature_block(sig).encode())
    write("signature", "detached-good.sig", "ed25519 " + base64.b64encode(sig).decode() + "\n")
    write("signature", "detached-bare.sig", base64.b64encode(sig).decode())
    write("signature", "detached-other-algorithm.sig", "rsa " + base64.b64encode(sig).decode())
    write("signature", "detached-unpadded.sig", "ed25519 " + base64.b64encode(sig).decode().rstrip("="))
    write("signature", "empty.sig", "")


if __name__ == "__main__":
    main()

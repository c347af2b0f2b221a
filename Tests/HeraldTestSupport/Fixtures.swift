import Foundation
import HeraldCore

/// Builders for feeds and temporary folders shared by Herald's tests.
public enum Fixtures {
    /// The AppStream metainfo of an app with three stable releases (1.0, 1.1, 1.2), a
    /// development release after them (1.3-beta) and every kind of description markup: a
    /// paragraph with inline `<em>` and `<code>`, list items of `<ul>` and `<ol>`, a
    /// paragraph and an item translated into German (`xml:lang`), a character reference.
    public static func metainfo(appID: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <component type="desktop-application">
          <id>\(appID)</id>
          <name>Example</name>
          <url type="homepage">https://example.org/</url>
          <releases>
            <release version="1.3-beta" type="development" date="2026-11-20">
              <description><p>Try the new editor.</p></description>
            </release>
            <release version="1.2" date="2026-11-01">
              <description>
                <p>Sync is <em>twice</em> as fast.</p>
                <p xml:lang="de">Der Abgleich ist <em>doppelt</em> so schnell.</p>
                <ul>
                  <li>Folders can be shared</li>
                  <li xml:lang="de">Ordner lassen sich teilen</li>
                  <li>The <code>--quiet</code> option &amp; its short form</li>
                </ul>
              </description>
            </release>
            <release version="1.1" date="2026-06-01">
              <description>
                <p>Dark style
                   follows the desktop.</p>
                <ol><li>Fixed a crash at start</li></ol>
              </description>
            </release>
            <release version="1.0" date="2026-01-01">
              <description><p>First release.</p></description>
            </release>
          </releases>
        </component>
        """
    }

    /// The notes `metainfo(appID:)` gives after 1.0 up to 1.2, untranslated: 1.2's, then the
    /// skipped 1.1's.
    public static let metainfoNotesAfter10 = """
        1.2
        Sync is twice as fast.
        • Folders can be shared
        • The --quiet option & its short form

        1.1
        Dark style follows the desktop.
        • Fixed a crash at start
        """

    /// An XML plist feed from `[key: [field: value]]`, values written as `<string>`.
    public static func xmlFeed(_ entries: [String: [String: String]]) -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"# + "\n"
        out += "<plist version=\"1.0\">\n<dict>\n"
        for (key, fields) in entries.sorted(by: { $0.key < $1.key }) {
            out += "  <key>\(escape(key))</key>\n  <dict>\n"
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                out += "    <key>\(escape(name))</key><string>\(escape(value))</string>\n"
            }
            out += "  </dict>\n"
        }
        return out + "</dict>\n</plist>\n"
    }

    /// The same entries as a binary plist, written by Foundation.
    public static func binaryFeed(_ entries: [String: [String: String]]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: entries, format: .binary, options: 0)
    }

    /// A binary property list assembled object by object, for documents no writer produces
    /// (objects that contain themselves, children shared across levels): `objects[i]` is
    /// object i's bytes (see `BinaryPlistObject`), with one-byte references.
    public static func binaryPlist(objects: [[UInt8]], root: Int = 0) -> Data {
        var body: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(body.count)
            body += object
        }
        let tableOffset = body.count
        let offsetSize = tableOffset < 1 << 8 ? 1 : tableOffset < 1 << 16 ? 2 : 4
        for offset in offsets { body += bigEndian(offset, size: offsetSize) }
        body += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1]
        body += bigEndian(objects.count, size: 8) + bigEndian(root, size: 8) + bigEndian(tableOffset, size: 8)
        return Data(body)
    }

    static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// A feed entry with a title and message derived from the key.
    public static func entry(_ key: String, url: String? = nil, min: String? = nil, max: String? = nil) -> FeedEntry {
        FeedEntry(key: key, title: "Title \(key)", message: "Message \(key)", actionURL: url, minVersion: min, maxVersion: max)
    }

    /// The version `herald feed sign` wrote into a signed feed's trailing signature comment
    /// (`<!-- herald-signature: ed25519 version=N …`), or nil where the feed has no versioned one.
    public static func signedVersion(of bytes: Data) -> UInt64? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let comment = text.range(of: "<!-- herald-signature: ed25519 version=", options: .backwards) else { return nil }
        return UInt64(text[comment.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }

    /// A fresh temporary directory, removed by the caller.
    public static func temporaryDirectory(_ name: String = "herald-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}

/// A fixed point in time and offsets from it, so policy tests never read the real clock.
public struct TestClock {
    /// The moment tests call "now".
    public var now: Date

    /// Starts at a fixed date.
    public init(_ now: Date = Date(timeIntervalSince1970: 1_700_000_000)) { self.now = now }

    /// `days` (fractional) later.
    public func after(days: Double) -> Date { now.addingTimeInterval(days * 86_400) }
}

/// The objects of a hand-made binary property list (`Fixtures.binaryPlist(objects:root:)`),
/// references being object numbers of one byte.
public enum BinaryPlistObject {
    /// An ASCII string.
    public static func ascii(_ text: String) -> [UInt8] { marker(0x5, count: text.utf8.count) + Array(text.utf8) }

    /// A UTF-16 string of raw code units, lone surrogates included.
    public static func utf16(_ units: [UInt16]) -> [UInt8] {
        marker(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// An array of references.
    public static func array(_ references: [Int]) -> [UInt8] { marker(0xA, count: references.count) + references.map(UInt8.init) }

    /// A dictionary of key and value references.
    public static func dictionary(_ pairs: [(key: Int, value: Int)]) -> [UInt8] {
        marker(0xD, count: pairs.count) + pairs.map { UInt8($0.key) } + pairs.map { UInt8($0.value) }
    }

    /// A type nibble and a count: in the low nibble up to 14, else 0xF and an 8-byte integer.
    static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0xF, 0x13] + Fixtures.bigEndian(count, size: 8)
    }
}

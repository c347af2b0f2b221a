import Foundation
import HeraldCore

/// Builders for feeds and temporary folders shared by Herald's tests.
public enum Fixtures {
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

    /// A feed entry with a title and message derived from the key.
    public static func entry(_ key: String, url: String? = nil, min: String? = nil, max: String? = nil) -> FeedEntry {
        FeedEntry(key: key, title: "Title \(key)", message: "Message \(key)", actionURL: url, minVersion: min, maxVersion: max)
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

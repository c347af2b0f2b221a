import ArgumentParser
import Herald
import HeraldCore

/// `herald apps`: the apps registered for the check of every registered app, read without
/// running anything (`AppRegistrations`).
struct AppsCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the registered apps: each one's feed, installed version and registration, and every problem.",
        discussion: """
            An app is registered by a key file <app-id>.conf in herald/apps, or by X-Herald- keys in its desktop \
            entry in applications, under $XDG_DATA_HOME and each folder of $XDG_DATA_DIRS; the first in that order \
            counts and the others are listed as shadowed. Exit \(ExitStatus.data.code) when a registration has a \
            mistake (the other apps are listed still), \(ExitStatus.done.code) otherwise.
            """
    )

    static let example = "herald apps --json"

    @Flag(help: "Print one JSON object per line: one per app, per registration shadowed and per problem.")
    var json = false

    func run() throws {
        let listing = AppRegistrations.list(environment: ProcessEnvironment.read())
        for line in json ? Self.jsonLines(of: listing) : Self.text(of: listing) { say(line) }
        if !listing.problems.isEmpty { throw ExitCode(.data) }
    }

    /// The listing for people: a line per app (id, feed, version and where it came from, the
    /// registration), the columns aligned, then a line per registration shadowed and per problem.
    static func text(of listing: AppRegistrations.Listing) -> [String] {
        let rows = listing.apps.map { listed in
            [listed.app.appID, listed.app.line.feed, version(of: listed), listed.app.file]
        }
        var lines = rows.isEmpty ? ["no app is registered"] : aligned(rows)
        lines += listing.shadowed.map { "shadowed: \($0.file) (\($0.appID) is registered by \($0.by))" }
        lines += listing.problems.map { "problem: " + $0.text }
        return lines
    }

    /// "1.4 (Version=)", "2.0 (/usr/share/metainfo/….metainfo.xml)" or "no version".
    private static func version(of listed: AppRegistrations.ListedApp) -> String {
        origin(of: listed.versionSource).map { "\(listed.app.line.appVersion ?? "") (\($0))" } ?? "no version"
    }

    /// Where a version came from, as both listings name it: "Version=", the metainfo file, or
    /// `nil` for none.
    private static func origin(of source: AppRegistrations.VersionSource) -> String? {
        switch source {
        case .given: "Version="
        case .metainfo(let file): file
        case .none: nil
        }
    }

    /// The rows with each column but the last padded to its widest cell, two spaces between.
    private static func aligned(_ rows: [[String]]) -> [String] {
        let widths = rows.first.map { $0.indices.map { column in rows.map { $0[column].count }.max() ?? 0 } } ?? []
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
    }

    /// The listing as JSON, one object a line, as `herald check --json` writes its events:
    /// `{"kind": "app", "app", "feed", "version" (or null), "versionFrom": "Version=", a
    /// metainfo file or null, "file"}`, `{"kind": "shadowed", "app", "file", "by"}` and
    /// `{"kind": "problem", "file", "line" (or null), "problem"}`.
    static func jsonLines(of listing: AppRegistrations.Listing) -> [String] {
        func text(_ value: String?) -> FeedValue { value.map(FeedValue.string) ?? .null }
        var objects: [FeedValue] = listing.apps.map { listed in
            .dictionary([
                "kind": .string("app"), "app": .string(listed.app.appID), "feed": .string(listed.app.line.feed),
                "version": text(listed.app.line.appVersion), "versionFrom": text(origin(of: listed.versionSource)),
                "file": .string(listed.app.file),
            ])
        }
        objects += listing.shadowed.map { .dictionary(["kind": .string("shadowed"), "app": .string($0.appID), "file": .string($0.file), "by": .string($0.by)]) }
        objects += listing.problems.map { problem in
            .dictionary(["kind": .string("problem"), "file": .string(problem.file), "line": problem.line.map(FeedValue.integer) ?? .null,
                         "problem": .string(problem.description)])
        }
        return objects.map(\.jsonText)
    }
}

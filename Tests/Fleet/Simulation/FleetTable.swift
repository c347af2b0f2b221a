/// Reports of one setup side by side, for people: a plain-text table, or Markdown for a README.
package enum FleetTable {
    /// The plain-text table: the setup, one column per scenario, then each target's outcome.
    package static func text(_ reports: [FleetReport]) -> String {
        guard let first = reports.first else { return "" }
        var lines = [
            "herald-fleet: \(grouped(first.installs)) installs, \(first.days) days, seed \(first.seed); "
                + "\(percent(first.newInstallShare)) first launched during the days, \(percent(first.failureRate)) of requests failing",
            "feed: \(grouped(first.bodySize))-byte body, replaced at \(first.feedChanges.joined(separator: " and ")); "
                + "check period \(decimal(first.checkPeriodDays, digits: 2)) days",
            "",
        ]
        let nameWidth = reports.map(\.scenario.count).max() ?? 0
        lines += reports.map { "  " + padded($0.scenario, nameWidth, left: true) + "  " + $0.summary }
        lines.append("")
        let rows = self.rows(reports)
        let labelWidth = rows.map(\.label.count).max() ?? 0
        let widths = reports.indices.map { column in
            max(reports[column].scenario.count, rows.map { $0.values[column].count }.max() ?? 0)
        }
        let header = [padded("", labelWidth, left: true)] + reports.indices.map { padded(reports[$0].scenario, widths[$0], left: false) }
        lines.append(header.joined(separator: "  "))
        for row in rows {
            let cells = [padded(row.label, labelWidth, left: true)] + reports.indices.map { padded(row.values[$0], widths[$0], left: false) }
            lines.append(cells.joined(separator: "  "))
        }
        lines += ["", "targets"]
        for report in reports {
            for target in report.targets {
                lines.append("  " + padded(report.scenario, nameWidth, left: true) + "  " + (target.met ? "met    " : "MISSED ")
                    + target.rule + ": " + target.measured)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A Markdown table for a publisher: what the host sees for each scenario, in a few rows.
    package static func markdown(_ reports: [FleetReport]) -> String {
        guard let first = reports.first else { return "" }
        let rows: [(String, (FleetReport) -> String)] = [
            ("Herald starts at", \.summary),
            ("requests per install per day", { decimal($0.fetchesPerInstallPerDay, digits: 2) }),
            ("busiest second", { grouped($0.peakPerSecond) + " req/s" }),
            ("busiest minute", { decimal($0.peakPerMinute, digits: 0) + " req/s" }),
            ("answered 304, no body", { percent(Double($0.counts.notModified) / Double(max(1, $0.requests))) }),
            ("body bytes in \(first.days) days", { bytes($0.bodyBytes) }),
            ("body bytes while the feed is unchanged", { bytes($0.unchangedFeedBodyBytes) }),
        ]
        var lines = [
            "| \(grouped(first.installs)) installs | " + reports.map(\.scenario).joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---|", count: reports.count),
        ]
        lines += rows.map { label, value in "| \(label) | " + reports.map(value).joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n")
    }

    private static func rows(_ reports: [FleetReport]) -> [(label: String, values: [String])] {
        func row(_ label: String, _ value: (FleetReport) -> String) -> (label: String, values: [String]) {
            (label, reports.map(value))
        }
        return [
            row("gate asked") { grouped($0.counts.sessions) },
            row("  skipped: first launch") { grouped($0.counts.firstLaunchSkips) },
            row("  skipped: check period") { grouped($0.counts.checkPeriodSkips) },
            row("  skipped: failure backoff") { grouped($0.counts.backoffSkips) },
            row("requests") { grouped($0.requests) },
            row("  200 with the body") { grouped($0.counts.bodies) },
            row("  304 without a body") { grouped($0.counts.notModified) },
            row("  failed") { grouped($0.counts.failures) },
            row("body bytes") { bytes($0.bodyBytes) },
            row("body bytes for an unchanged feed") { bytes($0.unchangedFeedBodyBytes) },
            row("fetches per install per day") { decimal($0.fetchesPerInstallPerDay, digits: 3) },
            row("most fetches by one install in a day") { "\($0.counts.mostFetchesInOneInstallDay)" },
            row("busiest second (req/s)") { grouped($0.peakPerSecond) },
            row("  starting") { $0.peakSecondAt },
            row("busiest minute (req/s)") { decimal($0.peakPerMinute, digits: 1) },
            row("  starting") { $0.peakMinuteAt },
            row("installs ÷ start delay (req/s)") { $0.evenSpreadRate.map { decimal($0, digits: 1) } ?? "n/a" },
            row("busiest second ÷ that") { $0.peakRatio.map { decimal($0, digits: 3) } ?? "n/a" },
        ]
    }

    /// An integer with thousands separated by commas.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// A number with `digits` decimals.
    static func decimal(_ value: Double, digits: Int) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        guard digits > 0 else { return grouped(scaled) }
        let fraction = String(scaled.magnitude % scale.magnitude)
        let sign = scaled < 0 ? "-" : ""
        return sign + grouped(Int(scaled.magnitude / scale.magnitude)) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// Bytes in decimal units (kB, MB, GB), exact below a kilobyte.
    static func bytes(_ value: Int) -> String {
        let units: [(String, Double)] = [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)]
        for (unit, size) in units where Double(value) >= size { return decimal(Double(value) / size, digits: 1) + " " + unit }
        return "\(value) B"
    }

    /// A share as a percentage, with one decimal unless it is whole.
    static func percent(_ share: Double) -> String {
        decimal(share * 100, digits: share * 100 == (share * 100).rounded() ? 0 : 1) + " %"
    }

    /// `text` padded with spaces to `width`, on the right when `left` (aligned left), else on the left.
    static func padded(_ text: String, _ width: Int, left: Bool) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + padding : padding + text
    }
}

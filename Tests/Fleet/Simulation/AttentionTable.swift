/// An attention report for people: before, after and one check for every app side by side,
/// as plain text or as a Markdown table for a README.
package enum AttentionTable {
    /// The columns' headings, in the order of `AttentionReport`'s outcomes.
    static let headings = ["before", "after", "one check for every app"]

    /// The plain-text table: the setup, then one row per figure.
    package static func text(_ report: AttentionReport) -> String {
        let rows = self.rows(report)
        let labelWidth = rows.map(\.label.count).max() ?? 0
        let widths = headings.indices.map { column in max(headings[column].count, rows.map(\.values[column].count).max() ?? 0) }
        func line(_ label: String, _ values: [String]) -> String {
            ([FleetTable.padded(label, labelWidth, left: true)] + values.indices.map { FleetTable.padded(values[$0], widths[$0], left: false) })
                .joined(separator: "  ")
        }
        return ([setup(report), "", line("", headings)] + rows.map { line($0.label, $0.values) }).joined(separator: "\n")
    }

    /// The Markdown table: one row per figure, a column per way.
    package static func markdown(_ report: AttentionReport) -> String {
        var lines = [
            "| \(FleetTable.grouped(report.setup.people)) people × \(report.setup.appsPerPerson) apps, per person | "
                + headings.joined(separator: " | ") + " |",
            "|---|" + headings.map { _ in "---|" }.joined(),
        ]
        lines += rows(report).map { "| \($0.label) | " + $0.values.joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n")
    }

    /// The run in one line.
    static func setup(_ report: AttentionReport) -> String {
        "herald-fleet attention: \(FleetTable.grouped(report.setup.people)) people, \(report.setup.appsPerPerson) apps each of \(report.setup.catalogSize), "
            + "\(report.setup.weeks) weeks counted after \(report.setup.warmUpWeeks) of warm-up, seed \(report.setup.seed); check period "
            + "\(FleetTable.decimal(report.checkPeriodHours, digits: 0)) h, remind period \(FleetTable.decimal(report.remindPeriodHours, digits: 0)) h, "
            + "at most \(report.maxNotificationsPerCheck) per check; budget \(report.setup.budget)"
    }

    /// Each figure's label and its values before, after and with one check for every app.
    static func rows(_ report: AttentionReport) -> [(label: String, values: [String])] {
        func row(_ label: String, _ value: (AttentionOutcome) -> String) -> (label: String, values: [String]) {
            (label, [report.before, report.after, report.oneCheck].map(value))
        }
        func whole(_ value: Double) -> String { FleetTable.decimal(value, digits: 0) }
        let budget = report.setup.budget
        return [
            row("seen in a week: median / p90 / p99 / max") { o in
                [o.seenPerWeek.median, o.seenPerWeek.p90, o.seenPerWeek.p99, o.seenPerWeek.max].map(whole).joined(separator: " / ")
            },
            row("most in one day of the week: median / p99 / max") { o in
                [o.busiestDay.median, o.busiestDay.p99, o.busiestDay.max].map(whole).joined(separator: " / ")
            },
            row("shown again (reminder, unanswered) in a week: median / p90 / max") { o in
                [o.againPerWeek.median, o.againPerWeek.p90, o.againPerWeek.max].map(whole).joined(separator: " / ")
            },
            row("most showings of one message") { "\($0.counts.mostShowsOfOneMessage)" },
            row("most in any 24 h / any 7 days, weighted") { "\($0.counts.mostInAnyDay) / \($0.counts.mostInAnyWeek)" },
            row("people over \(budget.perDay) in some 24 h / \(budget.perWeek) in some 7 days") { o in
                FleetTable.percent(Double(o.counts.peopleOverDayBudget) / Double(max(1, report.setup.people))) + " / "
                    + FleetTable.percent(Double(o.counts.peopleOverWeekBudget) / Double(max(1, report.setup.people)))
            },
            row("critical security shown, in all (may pass the budget)") { FleetTable.grouped($0.counts.criticalSecurityShown) },
            row("first shown after waiting for room") { FleetTable.percent($0.waitedShare) },
            row("how long those waited, days: median / p90 / max") { o in
                o.waitDays.map { [$0.median, $0.p90, $0.max].map { FleetTable.decimal($0, digits: 1) }.joined(separator: " / ") } ?? "–"
            },
            row("days the room went to a lower Priority than another app had waiting, no heavier") { FleetTable.percent($0.outrankedShare) },
            row("published to first shown, days, median: Priority 10 / 5 / 2 / 0") { o in
                [10, 5, 2, 0].map { o.daysToFirstShow[$0].map { FleetTable.decimal($0.median, digits: 1) } ?? "–" }.joined(separator: " / ")
            },
            row("the same, p90: Priority 10 / 5 / 2 / 0") { o in
                [10, 5, 2, 0].map { o.daysToFirstShow[$0].map { FleetTable.decimal($0.p90, digits: 1) } ?? "–" }.joined(separator: " / ")
            },
            row("messages published: shown / waiting at the end / ended unshown / lost") { o in
                [o.counts.fates.shown, o.counts.fates.waiting, o.counts.fates.ended, o.counts.fates.lost].map(FleetTable.grouped).joined(separator: " / ")
            },
        ]
    }
}

import ArgumentParser
import FoundationEssentials
import Glibc
import HeraldCore
import HeraldDesktop

/// `herald budget`: the attention budget every app that uses Herald shares for this user, what
/// set it and how much of it is used; with `--per-day` / `--per-week`, the user's own.
struct BudgetCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Show (or set) how many messages every app together may show this user.",
        discussion: """
            Without options, prints the budget in force (3 a day and 10 a week unless set), what \
            set it, and what the last 24 hours and 7 days used (promotions and surveys count \
            twice). --per-day and --per-week write the user's key file, \
            $XDG_CONFIG_HOME/herald/herald.conf ([budget] PerDay, PerWeek); the administrator's \
            key file may set a ceiling they cannot go above (exit \(ExitStatus.permission.code)). A day's figure above the \
            week's in force is refused (exit \(ExitStatus.usage.code)). 0 lets no remote message through but a critical \
            security one. --reset takes the user's figures out of the file. \
            \(ExitStatus.summary([.done, .usage, .cannotCreate, .permission, .configuration]))
            """
    )

    static let example = "herald budget --per-day 2 --per-week 5\nherald budget --reset\nherald budget"

    @Option(help: "Messages a day from every app together, 0 to \(AttentionBudget.largest) (0: no remote messages), at most the week's.")
    var perDay: Int?

    @Option(help: "Messages a week from every app together, 0 to \(AttentionBudget.largest) (0: no remote messages).")
    var perWeek: Int?

    @Flag(help: "Take the user's figures out of their key file: the default again, under the administrator's ceiling.")
    var reset = false

    @Flag(help: "Print the budget as JSON.")
    var json = false

    func validate() throws {
        for (name, value) in [("--per-day", perDay), ("--per-week", perWeek)] {
            guard let value, !(0...AttentionBudget.largest).contains(value) else { continue }
            throw ValidationError("\(name) must be a whole number from 0 to \(AttentionBudget.largest), not \(value)")
        }
        if reset, perDay != nil || perWeek != nil { throw ValidationError("--reset takes the figures out: give it alone, or --per-day / --per-week") }
    }

    func run() throws {
        let file = UserKeyFile.path
        if reset {
            let changed = try UserKeyFile.change { switches in
                let edits = switches.resettingBudget()
                return (edits, !edits.isEmpty)
            }
            if !json { say(changed ? "budget reset (\(file))" : "the budget was not set (\(file))") }
        } else if perDay != nil || perWeek != nil {
            let changed = try UserKeyFile.change { switches in
                switch switches.settingBudget(perDay: perDay, perWeek: perWeek) {
                case .failure(let refusal):
                    EventReporter.complain("cannot set the budget: \(refusal)")
                    throw ExitCode(.permission)
                case .success(let edits):
                    if let contradiction = switches.budgetContradiction(perDay: perDay, perWeek: perWeek) {
                        EventReporter.complain("cannot set the budget to \(contradiction)")
                        throw ExitCode(.usage)
                    }
                    return (edits, !edits.isEmpty)
                }
            }
            if !json { say(changed ? "budget set (\(file))" : "the budget is set so already (\(file))") }
        }
        let report = try BudgetReport(UserKeyFile.read(), ledger: Self.ledger(), now: Date())
        if json { return say(lines: try FeedValue(encoding: report).prettyJSONText) }
        for line in report.lines { say(line) }
    }

    /// The user's attention ledger, read without its lock (nothing is written); exits `.cannotCreate`
    /// naming a ledger that cannot be read.
    static func ledger() throws -> AttentionLedger {
        do {
            return try FileAttentionLedgerStore(environment: ProcessEnvironment.read()).snapshot()
        } catch let error as StateStoreError {
            EventReporter.complain(error.description)
            throw ExitCode(.cannotCreate)
        }
    }
}

/// The budget in force and what it has room for, as `herald budget` and `herald state --all`
/// print it (`--json`: these fields).
struct BudgetReport: Encodable {
    /// Showings in two windows: the last 24 hours and the last 7 days.
    struct Window: Encodable {
        var day: Int
        var week: Int
    }

    /// What set the budget.
    enum Source: String, Encodable {
        /// Nobody: 3 a day, 10 a week.
        case standard
        /// The user, in their key file.
        case user
        /// The administrator's ceiling, lower than the user's budget (or the standard).
        case administrator
    }

    var perDay: Int
    var perWeek: Int
    var source: Source
    /// The key file that set it; none for the standard budget.
    var file: String?
    /// The administrator's ceiling, whether or not it lowers the budget.
    var ceiling: BudgetCeiling?
    /// The weights counted in each window, every app together.
    var used: Window
    /// What is left in each window, never below 0.
    var room: Window

    /// The report of the budget the key files set, against the ledger at `now`.
    init(_ switches: OffSwitches, ledger: AttentionLedger, now: Date) {
        let inForce = switches.budget
        perDay = inForce.budget.perDay
        perWeek = inForce.budget.perWeek
        switch inForce.source {
        case .standard: source = .standard
        case .user(let file): (source, self.file) = (.user, file)
        case .ceiling(let ceiling): (source, file) = (.administrator, ceiling.file)
        }
        ceiling = switches.budgetCeiling
        used = Self.used(ledger, now: now)
        let room = AttentionPolicy.room(inForce.budget, ledger, now: now, isLive: \.processRuns)
        self.room = Window(day: max(0, room.day), week: max(0, room.week))
    }

    /// The weights `ledger` counts in each window at `now`.
    static func used(_ ledger: AttentionLedger, now: Date) -> Window {
        Window(day: AttentionPolicy.used(ledger, within: AttentionPolicy.day, now: now, isLive: \.processRuns),
               week: AttentionPolicy.used(ledger, within: AttentionPolicy.week, now: now, isLive: \.processRuns))
    }

    /// The report in lines for people.
    var lines: [String] {
        let setBy = switch source {
        case .standard: "the default"
        case .user: "set by the user in \(file ?? "")"
        case .administrator: "capped by the administrator in \(file ?? "")"
        }
        let budget = AttentionBudget(perDay: perDay, perWeek: perWeek)
        var lines = ["budget: \(budget)\(budget.isClosed ? ": " + AttentionBudget.closedSummary : "") (\(setBy))"]
        if let ceiling, source != .administrator {
            lines.append("ceiling: \(ceiling.figures) (the administrator's, \(ceiling.file))")
        }
        lines.append("used: \(used.day) in the last 24 hours, \(used.week) in the last 7 days")
        lines.append("room now: \(min(room.day, room.week)) (\(room.day) left of the day's budget, \(room.week) of the week's)")
        return lines
    }
}

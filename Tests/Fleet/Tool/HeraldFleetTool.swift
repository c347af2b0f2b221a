import FoundationEssentials
import HeraldFleet
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `herald-fleet`: what a publisher's feed host carries for a fleet of Herald installs, and
// (`herald-fleet attention`) what a person with five apps sees before and after the attention
// budget and with one check for every app, from Herald's own policy (HeraldFleet). Build it in
// release: `swift run -c release herald-fleet`.

@main
enum HeraldFleetTool {
    static let usage = """
        usage: herald-fleet [--installs N] [--days N] [--seed N] [--scenario NAME]...
                            [--new-installs SHARE] [--failure-rate SHARE] [--json | --markdown]

        Simulates a fleet of installs checking one feed through Herald's check policy and prints
        what the feed's host receives: the busiest second and minute, fetches per install per day,
        bodies sent and 304s, and whether Herald's targets hold.

          --installs N          installs in the fleet (default 1000000)
          --days N              days simulated (default 7)
          --seed N              seed of every random draw (default 1)
          --scenario NAME       run only this scenario (repeatable): \(FleetScenario.all.map(\.name).joined(separator: ", "))
          --new-installs SHARE  share of installs first launched during the days (default 0.05)
          --failure-rate SHARE  share of requests that fail (default 0)
          --json                the reports as JSON
          --markdown            a Markdown table

        usage: herald-fleet attention [--people N] [--weeks N] [--seed N] [--json | --markdown]

        Simulates people with five apps each that use Herald, every check through Herald's
        policy, once without the attention budget, once with it (each app checking on its own),
        and once with it and one check for every app at each login (herald check --registered),
        and prints what a person sees: notifications per week and per day, messages shown again,
        the budget held, how long messages waited for room, and whether the room went to the
        highest Priority waiting across apps.

          --people N            people (default 10000)
          --weeks N             weeks counted, after two weeks of warm-up (default 4)
          --seed N              seed of every random draw (default 1)
          --json                the report as JSON
          --markdown            a Markdown table
        """

    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "attention" {
            arguments.removeFirst()
            await attention(arguments)
            return
        }
        var setup = (installs: 1_000_000, days: 7, seed: UInt64(1), newInstalls: 0.05, failureRate: 0.0)
        var scenarios: [FleetScenario] = []
        var format = "text"
        while !arguments.isEmpty {
            let option = arguments.removeFirst()
            switch option {
            case "--json", "--markdown": format = String(option.dropFirst(2))
            case "--installs": setup.installs = value(of: option, &arguments, Int.init, in: 1...100_000_000)
            case "--days": setup.days = value(of: option, &arguments, Int.init, in: 1...366)
            case "--seed": setup.seed = value(of: option, &arguments, UInt64.init, in: 0...UInt64.max)
            case "--new-installs": setup.newInstalls = value(of: option, &arguments, Double.init, in: 0...1)
            case "--failure-rate": setup.failureRate = value(of: option, &arguments, Double.init, in: 0...1)
            case "--scenario":
                guard let name = arguments.first, let scenario = FleetScenario.all.first(where: { $0.name == name }) else {
                    fail("herald-fleet: --scenario needs one of: \(FleetScenario.all.map(\.name).joined(separator: ", "))\n\n" + usage)
                }
                arguments.removeFirst()
                scenarios.append(scenario)
            case "--help", "-h":
                print(usage)
                return
            default: fail("herald-fleet: unknown argument '\(option)'\n\n" + usage)
            }
        }
        let fleet = FleetSetup(installs: setup.installs, days: setup.days, seed: setup.seed,
                               newInstallShare: setup.newInstalls, failureRate: setup.failureRate)
        var reports: [FleetReport] = []
        for scenario in scenarios.isEmpty ? FleetScenario.all : scenarios {
            reports.append(await FleetSimulation.run(scenario, setup: fleet))
        }
        output(reports, format: format, markdown: FleetTable.markdown, text: FleetTable.text)
    }

    /// `herald-fleet attention`: what a person sees from five apps, before and after the budget.
    static func attention(_ arguments: [String]) async {
        hashDeterministically()
        var arguments = arguments
        var setup = AttentionSetup()
        var format = "text"
        while !arguments.isEmpty {
            let option = arguments.removeFirst()
            switch option {
            case "--json", "--markdown": format = String(option.dropFirst(2))
            case "--people": setup.people = value(of: option, &arguments, Int.init, in: 1...10_000_000)
            case "--weeks": setup.weeks = value(of: option, &arguments, Int.init, in: 1...52)
            case "--seed": setup.seed = value(of: option, &arguments, UInt64.init, in: 0...UInt64.max)
            case "--help", "-h":
                print(usage)
                return
            default: fail("herald-fleet attention: unknown argument '\(option)'\n\n" + usage)
            }
        }
        let report = await AttentionSimulation.run(setup)
        output(report, format: format, markdown: AttentionTable.markdown, text: AttentionTable.text)
    }

    /// Prints a report as `format` says: "json", "markdown", or plain text.
    static func output<Report: Encodable>(_ report: Report, format: String, markdown: (Report) -> String, text: (Report) -> String) {
        switch format {
        case "json":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try! encoder.encode(report), as: UTF8.self))
        case "markdown": print(markdown(report))
        default: print(text(report))
        }
    }

    /// Runs the tool again with Swift's hashing seeded alike in every process, unless it is.
    ///
    /// Herald's budget ranks waiting messages by priority, then by how long they waited; an
    /// exact tie between another app's messages goes by dictionary order, which Swift's hashing
    /// seeds anew in every process and table. With a fixed seed, a run's seed alone gives its figures.
    static func hashDeterministically() {
        guard getenv("SWIFT_DETERMINISTIC_HASHING") == nil else { return }
        setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
        #if os(Linux)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        #else
        execv(CommandLine.unsafeArgv[0], CommandLine.unsafeArgv)
        #endif
        fail("herald-fleet: cannot run again with deterministic hashing: errno \(errno)")
    }

    /// The option's value, parsed and within `range`, or the usage and exit 64.
    static func value<Value: Comparable>(of option: String, _ arguments: inout [String], _ parse: (String) -> Value?,
                                         in range: ClosedRange<Value>) -> Value {
        guard !arguments.isEmpty, let value = parse(arguments.removeFirst()), range.contains(value) else {
            fail("herald-fleet: \(option) needs a value in \(range)\n\n" + usage)
        }
        return value
    }

    static func fail(_ message: String) -> Never {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(64)
    }
}

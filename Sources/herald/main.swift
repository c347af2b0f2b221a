import ArgumentParser
import Herald
import HeraldDesktop

/// `herald`: desktop notifications from an iNotify-style feed.
struct HeraldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Show an app's messages from an iNotify-style feed as desktop notifications.",
        version: "herald \(HeraldVersion.current)",
        // The help lists the commands by who runs them, then the exit codes (`help(for:)`); the
        // manual's hidden command stands in the first group, so that no group of its own shows.
        groupedSubcommands: [
            CommandGroup(name: "App developers'",
                         subcommands: [CheckCommand.self, PromptsCommand.self, AutostartCommand.self, AppsCommand.self, DemoCommand.self, ManualCommand.self]),
            CommandGroup(name: "Publishers'", subcommands: [ValidateCommand.self, FeedCommand.self]),
            CommandGroup(name: "The person's", subcommands: [InboxCommand.self, StateCommand.self, MuteCommand.self, UnmuteCommand.self, BudgetCommand.self]),
        ]
    )
}

LibraryLog.routeToStandardError(program: "herald")
HeraldCommand.main()

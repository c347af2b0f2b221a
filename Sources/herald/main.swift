import ArgumentParser
import Herald
import HeraldDesktop

/// `herald`: desktop notifications from an iNotify-style feed.
struct HeraldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Show an app's messages from an iNotify-style feed as desktop notifications.",
        discussion: ExitStatus.text,
        version: "herald \(HeraldVersion.current)",
        subcommands: [CheckCommand.self, PromptsCommand.self, AutostartCommand.self, DemoCommand.self, ValidateCommand.self, FeedCommand.self,
                      StateCommand.self, MuteCommand.self, UnmuteCommand.self, BudgetCommand.self, ManualCommand.self]
    )
}

LibraryLog.routeToStandardError(program: "herald")
HeraldCommand.main()

import ArgumentParser
import FoundationEssentials
import HeraldCore
import HeraldDesktop

/// `herald inbox view ID`: views a message as its notification's view button would.
struct InboxViewCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "View a message as its notification's button would: recorded as viewed, its link opened."
    )

    static let example = "herald inbox view 2026/05/01 --app-id org.example.App"

    @OptionGroup var message: InboxAnswerOptions

    func run() throws { try message.answer(as: .view) }
}

/// `herald inbox ignore ID`: ignores a message as its notification's ignore button would.
struct InboxIgnoreCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "ignore",
        abstract: "Ignore a message as its notification's button would: it is never shown again."
    )

    static let example = "herald inbox ignore 2026/05/01 --app-id org.example.App"

    @OptionGroup var message: InboxAnswerOptions

    func run() throws { try message.answer(as: .ignore) }
}

/// The message an answer from the inbox is for, and how it is recorded.
struct InboxAnswerOptions: ParsableArguments {
    @Argument(help: "The message's id, as 'herald inbox' lists it.")
    var id: String

    @Option(help: "The app whose message it is; needed when two apps have a message with this id.")
    var appID: String?

    func validate() throws { if let appID { try AppOptions.requireUsable(appID: appID) } }

    /// Records `answer` as the notification's button would (`CheckPolicy.applyFromApp`, in the
    /// app's locked state update; the attention budget is not touched), then, for a view, opens
    /// the link under the URL rules. A message viewed or ignored already is left as it was, and
    /// the earlier answer said.
    func answer(as answer: Answer) throws {
        let reading = InboxReading()
        let message = try reading.message(id, of: appID)
        let earlier: String?
        // The command runs on the main thread, the main context's, as a withdrawal from the screen must.
        let recorded = MainContext.assumeIsolated { () -> Result<String?, PersonInboxError> in
            do throws(PersonInboxError) { return .success(try reading.inbox.record(answer, to: message)) } catch { return .failure(error) }
        }
        switch recorded {
        case .success(let answered): earlier = answered
        case .failure(let error):
            EventReporter.complain(error.description)
            throw ExitCode(.cannotCreate)
        }
        let name = "\(message.appID) \(message.id)"
        if let earlier { return say("\(name) was answered already: \(earlier); nothing recorded") }
        guard answer == .view else { return say("\(name): ignored") }
        switch reading.inbox.openLink(of: message) {
        case .none: say("\(name): viewed")
        case .refused(let refusal): say("\(name): viewed; its link is not opened: \(refusal)")
        case .opened(let link): say("\(name): viewed; opened \(link)")
        case .failed(let reason): say("\(name): viewed; its link could not be opened: \(reason)")
        }
    }
}

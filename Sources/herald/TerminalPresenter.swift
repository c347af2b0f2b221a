import Glibc
import Herald
import HeraldCore
import HeraldDesktop

/// Asks at the terminal when no notification server runs (DESIGN.md D12).
final class TerminalPresenter: MessagePresenter {
    private let labels: Labels

    init(labels: Labels) { self.labels = labels }

    /// Whether both standard input and output are a terminal.
    nonisolated static var isAvailable: Bool { isatty(0) == 1 && isatty(1) == 1 }

    func capabilities() throws -> Set<String> { ["actions", "body"] }

    func present(_ content: NotificationContent, link: String?, respond: @escaping @MainContext (NotificationResponse) -> Void) throws -> PresentedMessage {
        let choices = content.actions.filter { $0.id != NotificationAction.defaultID }
        // Each line of the message on a line of its own, its characters made visible.
        var lines = ["", content.summary]
        if !content.body.isEmpty { lines += content.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        if let link { lines.append(link) }
        let choice = TerminalChoice(ids: choices.map(\.id))
        lines.append(choice.offer(labels: choices.map(\.label)))
        for line in lines { FileHandleOutput.standardOutput.line(line) }
        FileHandleOutput.standardOutput.write("> ")
        var response = NotificationResponse.closed(.dismissed)
        while let line = readLine() {
            if let index = choice.index(of: line) {
                response = .action(choices[index].id)
                break
            }
            FileHandleOutput.standardOutput.write(choice.retryPrompt)
        }
        MainContext.idle { respond(response) }
        return AnsweredAtTerminal()
    }

    private final class AnsweredAtTerminal: PresentedMessage {
        var id: UInt32 { 0 }
        func close() {}
    }
}

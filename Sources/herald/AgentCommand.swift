import ArgumentParser
import Herald
import HeraldCore
import HeraldDesktop

/// `herald agent`: the session's agent, which D-Bus starts by its name `org.herald.Agent`.
struct AgentCommand: ParsableCommand, UsageExample {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "The session's agent, which D-Bus starts.",
        discussion: """
            Owns org.herald.Agent on the session bus and answers for the messages herald check \
            handed over: a click in the desktop's list of notifications (org.freedesktop.Application \
            ActivateAction 'answer') or on a notification it holds on screen (org.herald.Agent1) \
            is recorded in that app's state once, and a view opens the message's link. It exits \
            when it holds nothing and has had nothing to do for a while. D-Bus starts it from \
            org.herald.Agent.service; it is not run by hand. Exit codes: 0 done, 69 no session \
            bus, or another process owns the name.
            """
    )

    static let example = """
        herald agent &
        gapplication action org.herald.Agent answer "('org.example.App', '2024/01/01', 'view')"
        """

    @Option(name: .customLong("idle-exit"), help: .hidden)
    var idleSeconds: Double = 10

    func run() throws {
        let status = MainContext.assumeIsolated {
            Agent(environment: ProcessEnvironment.read(), idleSeconds: max(0.1, idleSeconds)) { EventReporter.complain($0) }.run()
        }
        if status != 0 { throw ExitCode(status) }
    }
}

import HeraldCore

/// How what a check shows reaches the person, chosen once for a `Herald` before any check and
/// handed to each: on this process's screen, or handed over to outlive the check (DESIGN.md D23).
@MainContext
enum PresentationRoute {
    /// On this process's screen through the presenter; the answers come back to this process.
    case onScreen(MessagePresenter)
    /// Messages handed over where the presenter says (the Herald agent, GNOME's list, the
    /// notification portal); what it cannot hand over, and the prompts, are shown as today.
    case handingOver(HandingOverPresenter)

    /// What shows what is not handed over, and answers for the server's capabilities.
    var presenter: MessagePresenter {
        switch self {
        case .onScreen(let presenter): return presenter
        case .handingOver(let presenter): return presenter
        }
    }
}

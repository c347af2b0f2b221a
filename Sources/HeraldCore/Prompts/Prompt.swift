/// Settings of a local prompt; `nil` means "inherit from the defaults" (ORIGINALS.md §2.2).
public struct PromptSettings: Sendable, Equatable {
    /// The notification's summary.
    public var title: String?
    /// The body text.
    public var message: String?
    /// Label of the action button; iPrompt's default is "OK".
    public var actionButton: String?
    /// Label of the remind button; an empty label hides it.
    public var remindButton: String?
    /// Label of the cancel button; hidden unless non-empty.
    public var cancelButton: String?
    /// A link opened by the action button.
    public var actionURL: String?
    /// Uses (launches) before the prompt is due. Default 10.
    public var usesUntilPrompt: Int?
    /// The time since the first use before the prompt is due (iPrompt's days). Default 10 days.
    public var daysUntilPrompt: Duration?
    /// The time a reminded prompt waits (iPrompt truncated it to whole days). Default 1 day.
    public var remindPeriod: Duration?
    /// After the action the prompt comes back every remind period, until cancelled. Default false.
    public var recurring: Bool?
    /// Show at every launch whatever the state, for trying a prompt out. Default false.
    public var previewMode: Bool?
    /// Explain every decision about this prompt. Default false.
    public var verboseLogging: Bool?

    /// Creates settings; every value left out is inherited.
    public init(
        title: String? = nil, message: String? = nil, actionButton: String? = nil, remindButton: String? = nil,
        cancelButton: String? = nil, actionURL: String? = nil, usesUntilPrompt: Int? = nil, daysUntilPrompt: Duration? = nil,
        remindPeriod: Duration? = nil, recurring: Bool? = nil, previewMode: Bool? = nil, verboseLogging: Bool? = nil
    ) {
        self.title = title
        self.message = message
        self.actionButton = actionButton
        self.remindButton = remindButton
        self.cancelButton = cancelButton
        self.actionURL = actionURL
        self.usesUntilPrompt = usesUntilPrompt
        self.daysUntilPrompt = daysUntilPrompt
        self.remindPeriod = remindPeriod
        self.recurring = recurring
        self.previewMode = previewMode
        self.verboseLogging = verboseLogging
    }

    /// These settings with every unset value taken from `defaults`.
    public func inheriting(from defaults: PromptSettings) -> PromptSettings {
        PromptSettings(
            title: title ?? defaults.title, message: message ?? defaults.message,
            actionButton: actionButton ?? defaults.actionButton, remindButton: remindButton ?? defaults.remindButton,
            cancelButton: cancelButton ?? defaults.cancelButton, actionURL: actionURL ?? defaults.actionURL,
            usesUntilPrompt: usesUntilPrompt ?? defaults.usesUntilPrompt, daysUntilPrompt: daysUntilPrompt ?? defaults.daysUntilPrompt,
            remindPeriod: remindPeriod ?? defaults.remindPeriod, recurring: recurring ?? defaults.recurring,
            previewMode: previewMode ?? defaults.previewMode, verboseLogging: verboseLogging ?? defaults.verboseLogging)
    }
}

/// A prompt ready to be counted and shown: a name (its state key) and complete settings.
public struct Prompt: Sendable, Equatable {
    /// The prompt's name; its state is kept under it.
    public var name: String
    /// The summary.
    public var title: String
    /// The body text.
    public var message: String
    /// The action button's label, or `nil` for the translated "OK".
    public var actionButton: String?
    /// The remind button's label, or `nil` for the translated "Remind Me Later"; "" hides it.
    public var remindButton: String?
    /// The cancel button's label; `nil` or "" hides it.
    public var cancelButton: String?
    /// A link the action button opens.
    public var actionURL: String?
    /// Uses before the prompt is due.
    public var usesUntilPrompt: Int
    /// The time since the first use before the prompt is due.
    public var daysUntilPrompt: Duration
    /// The time a reminded prompt waits.
    public var remindPeriod: Duration
    /// Whether it comes back after the action.
    public var recurring: Bool
    /// Whether it shows at every launch.
    public var previewMode: Bool
    /// Whether its decisions are explained.
    public var verboseLogging: Bool

    /// iPrompt's defaults object (ORIGINALS.md §2.2).
    public static let builtInDefaults = PromptSettings(
        usesUntilPrompt: 10, daysUntilPrompt: .days(10), remindPeriod: .days(1), recurring: false, previewMode: false, verboseLogging: false)

    /// A prompt from a name and settings, unset values from `defaults`, then iPrompt's own.
    public init(name: String, settings: PromptSettings, defaults: PromptSettings = PromptSettings()) {
        let resolved = settings.inheriting(from: defaults).inheriting(from: Self.builtInDefaults)
        self.name = name
        title = resolved.title ?? ""
        message = resolved.message ?? ""
        actionButton = resolved.actionButton
        remindButton = resolved.remindButton
        cancelButton = resolved.cancelButton
        actionURL = resolved.actionURL
        usesUntilPrompt = resolved.usesUntilPrompt ?? 10
        daysUntilPrompt = resolved.daysUntilPrompt ?? .days(10)
        remindPeriod = resolved.remindPeriod ?? .days(1)
        recurring = resolved.recurring ?? false
        previewMode = resolved.previewMode ?? false
        verboseLogging = resolved.verboseLogging ?? false
    }
}

/// The buttons of a prompt. Raw values are the notification's action ids.
public enum PromptButton: String, Sendable, Equatable, CaseIterable {
    /// The action button (also a click on the body).
    case action
    /// Remind me later.
    case remind
    /// Cancel: never again.
    case cancel
}

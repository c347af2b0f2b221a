/// `import Herald` is the one import an app writes, so the types Herald's public API takes and
/// returns come with it, one by one: a delegate's methods receive HeraldCore's values
/// (`FeedEntry`, `CheckSkipReason`, `CloseReason`), a delegate class is isolated to
/// `@MainContext`, and a program without a GLib loop of its own runs `MainLoop`. HeraldCore and
/// HeraldDesktop are no products of the package, so an app never imports them; what the rest of
/// the package shares among its modules has `package` access, out of an app's sight.
/// `Tests/scripts/public-types.sh` counts what this exposes.

// `Herald.Configuration`: the check's settings, which links may open, the buttons' words, and
// whom messages are for.
@_exported import struct HeraldCore.CheckConfiguration
@_exported import struct HeraldCore.URLRules
@_exported import struct HeraldCore.Labels
// A feed and its messages, as the delegate and `pendingMessages(in:)` see them.
@_exported import struct HeraldCore.Feed
@_exported import struct HeraldCore.FeedEntry
@_exported import enum HeraldCore.FeedValue
// `HeraldDelegate`'s reasons: why a check did not run (a mute among them), was deferred, left
// a message out, or how a notification closed; where an administrator's mirror sent the fetch.
@_exported import enum HeraldCore.CheckSkipReason
@_exported import struct HeraldCore.Mute
@_exported import enum HeraldCore.QuietReason
@_exported import enum HeraldCore.MessageSkipReason
@_exported import enum HeraldCore.CloseReason
@_exported import struct HeraldCore.FeedMirror
// The user's answers, read and recorded by `Herald.answers()` and `record(_:forMessage:)`.
@_exported import enum HeraldCore.Answer
@_exported import struct HeraldCore.MessageAnswers
// Prompts an app registers, and what the delegate hears about them.
@_exported import struct HeraldCore.Prompt
@_exported import struct HeraldCore.PromptSettings
@_exported import struct HeraldCore.PromptsFile
@_exported import enum HeraldCore.PromptButton
@_exported import enum HeraldCore.PromptDecision
// What keeping the answers throws (`HeraldError.state`, a test store's failure).
@_exported import enum HeraldCore.StateStoreError
// What a `MessagePresenter` is asked to show.
@_exported import struct HeraldCore.NotificationContent
@_exported import struct HeraldCore.NotificationAction
// `HeraldError`'s reasons, and where in which kind of document a feed is malformed.
@_exported import enum HeraldCore.FeedError
@_exported import enum HeraldCore.FeedFormat
@_exported import enum HeraldCore.DocumentPlace
@_exported import enum HeraldCore.FeedSignatureProblem
@_exported import enum HeraldDesktop.FetchError
@_exported import enum HeraldDesktop.CertificateProblem

// The global actor Herald and its delegate are isolated to (`@MainContext`).
@_exported import class HeraldDesktop.MainContext
// The GLib main loop for a program that has none (no GTK).
@_exported import class HeraldDesktop.MainLoop
// How a shown notification ended, as a `MessagePresenter` answers it.
@_exported import enum HeraldDesktop.NotificationResponse

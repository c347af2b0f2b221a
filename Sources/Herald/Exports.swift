/// `import Herald` is the one import an app writes, so the types Herald's public API takes and
/// returns come with it: a delegate's methods receive HeraldCore's values (`FeedEntry`,
/// `CheckSkipReason`, `CloseReason`), a delegate class is isolated to `@MainContext`, and a
/// program without a GLib loop of its own runs `MainLoop`. HeraldDesktop is no product of the
/// package, so an app should never have to import it.
///
/// Of HeraldDesktop only the types the public API mentions are re-exported, one by one; the rest
/// of the GLib side (notifications, the fetcher, the server's capabilities) stays Herald's own.
@_exported import HeraldCore

// The global actor Herald and its delegate are isolated to (`@MainContext`).
@_exported import class HeraldDesktop.MainContext
// The GLib main loop for a program that has none (no GTK).
@_exported import class HeraldDesktop.MainLoop
// How a shown notification ended, as a `MessagePresenter` answers it.
@_exported import enum HeraldDesktop.NotificationResponse
// `Herald.linkOpener`, and what its `open(_:)` throws.
@_exported import struct HeraldDesktop.LinkOpener
@_exported import struct HeraldDesktop.LinkOpenerError
// `HeraldError.fetch`'s reason, and why a certificate was refused.
@_exported import enum HeraldDesktop.FetchError
@_exported import enum HeraldDesktop.CertificateProblem
// `LoadedFeed.validators`.
@_exported import struct HeraldDesktop.FeedValidators
// `Herald.offSwitches`: the key files of the user's and the administrator's mutes, and what
// reading them throws.
@_exported import enum HeraldDesktop.OffSwitchFiles
@_exported import struct HeraldDesktop.OffSwitchFileError

import Herald
import HeraldCore
import HeraldDesktop

/// Opens nothing: records each link Herald would open, and can say that no application handles
/// links, as on a machine without a browser.
///
/// ```swift
/// let links = RecordingLinkOpener()
/// links.hasHandler = false   // a link message is then left out, as on a desktop without a browser
/// ```
public final class RecordingLinkOpener: LinkOpening {
    /// Whether an application would open links; `false` makes every link unopenable.
    public var hasHandler = true
    /// Every link Herald opened, in order.
    public private(set) var opened: [String] = []

    /// Creates an opener that has a handler for every link.
    public init() {}

    /// `hasHandler`.
    public func canOpen(_ url: String) -> Bool { hasHandler }

    /// Records the link, or throws "no handler" when `hasHandler` is false.
    package func open(_ url: String) throws(LinkOpenerError) {
        guard hasHandler else { throw LinkOpenerError(url: url, reason: "no application handles this link") }
        opened.append(url)
    }
}

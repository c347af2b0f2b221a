import FoundationEssentials

/// A state store in memory: the answers of a run that must not touch an app's state
/// (`herald feed preview`), and the store behind HeraldTesting's `InMemoryStateStore`.
///
/// An update changes a copy and keeps it only when `change` returns, so a change that throws
/// leaves the state as it was, as a locked update of the file does; it counts its writes (the
/// updates that changed the state), each of which would be one atomic write on disk.
package final class MemoryStateStore: StateStore {
    /// The state as it stands.
    package var state: HeraldState
    /// The cached feed, if any.
    package var cachedBytes: Data?
    /// Updates that changed the state.
    package private(set) var writes = 0

    /// A store holding `state` (by default a first launch) and no cached feed.
    package init(_ state: HeraldState = HeraldState()) {
        self.state = state
    }

    /// The state.
    package func load() throws -> HeraldState { state }

    /// Changes the state; counts a write when it changed.
    package func update<Result>(_ change: (inout HeraldState) throws -> Result) throws -> Result {
        var changed = state
        let result = try change(&changed)
        if changed != state {
            writes += 1
            state = changed
        }
        return result
    }

    /// Forgets the state and the cached feed.
    package func reset() throws {
        state = HeraldState()
        cachedBytes = nil
    }

    /// Whether a feed is cached.
    package var hasCachedFeed: Bool { cachedBytes != nil }

    /// The cached feed.
    package func cachedFeed() -> Data? { cachedBytes }

    /// Keeps the feed.
    package func storeCachedFeed(_ bytes: Data) throws { cachedBytes = bytes }
}

import FoundationEssentials
import HeraldCore

/// A state store in memory, for tests: nothing touches `$XDG_STATE_HOME`.
///
/// It counts its updates and its writes (updates that changed the state), so a test can hold
/// a check to the number of durable writes it would cost on disk.
public final class InMemoryStateStore: StateStore {
    /// The state as it stands.
    public var state: HeraldState
    /// The cached feed, if any.
    public var cachedBytes: Data?
    /// Calls of `update`: each would be one locked read-modify-write.
    public private(set) var updates = 0
    /// Calls of `snapshot`: reads without the lock.
    public private(set) var snapshots = 0
    /// Updates that changed the state: each would be one atomic write of the file.
    public private(set) var writes = 0
    /// When set, every update and cache write fails with it (a full disk, say).
    public var failure: StateStoreError?

    /// A store holding `state` (by default a first launch).
    public init(_ state: HeraldState = HeraldState()) {
        self.state = state
    }

    /// The state.
    public func load() throws -> HeraldState {
        if let failure { throw failure }
        return state
    }

    /// The state, read without a lock; counted apart from updates.
    public func snapshot() throws -> HeraldState {
        snapshots += 1
        if let failure { throw failure }
        return state
    }

    /// Changes the state; counts a write when it changed.
    public func update<Result>(_ change: (inout HeraldState) throws -> Result) throws -> Result {
        updates += 1
        if let failure { throw failure }
        var changed = state
        let result = try change(&changed)
        if changed != state {
            writes += 1
            state = changed
        }
        return result
    }

    /// Forgets everything.
    public func reset() throws {
        state = HeraldState()
        cachedBytes = nil
    }

    /// Whether a feed is cached.
    public var hasCachedFeed: Bool { cachedBytes != nil }

    /// The cached feed.
    public func cachedFeed() -> Data? { cachedBytes }

    /// Keeps the feed.
    public func storeCachedFeed(_ bytes: Data) throws {
        if let failure { throw failure }
        cachedBytes = bytes
    }
}

import FoundationEssentials
import HeraldCore

/// A state store in memory, for tests: nothing touches `$XDG_STATE_HOME`.
///
/// It counts its updates and its writes (updates that changed the state), so a test can hold
/// a check to the number of durable writes it would cost on disk.
public final class InMemoryStateStore: StateStore {
    /// Where the state and the cached feed are kept.
    private let memory: MemoryStateStore
    /// The state as it stands.
    public var state: HeraldState {
        get { memory.state }
        set { memory.state = newValue }
    }
    /// The cached feed, if any.
    public var cachedBytes: Data? {
        get { memory.cachedBytes }
        set { memory.cachedBytes = newValue }
    }
    /// Calls of `update`: each would be one locked read-modify-write.
    public private(set) var updates = 0
    /// Calls of `snapshot`: reads without the lock.
    public private(set) var snapshots = 0
    /// Updates that changed the state: each would be one atomic write of the file.
    public var writes: Int { memory.writes }
    /// When set, every update and cache write fails with it (a full disk, say).
    public var failure: StateStoreError?

    /// A store holding `state` (by default a first launch).
    public init(_ state: HeraldState = HeraldState()) {
        memory = MemoryStateStore(state)
    }

    /// The state.
    public func load() throws -> HeraldState {
        if let failure { throw failure }
        return try memory.load()
    }

    /// The state, read without a lock; counted apart from updates.
    public func snapshot() throws -> HeraldState {
        snapshots += 1
        if let failure { throw failure }
        return try memory.load()
    }

    /// Changes the state; counts a write when it changed.
    public func update<Result>(_ change: (inout HeraldState) throws -> Result) throws -> Result {
        updates += 1
        if let failure { throw failure }
        return try memory.update(change)
    }

    /// Forgets everything.
    public func reset() throws {
        try memory.reset()
    }

    /// Whether a feed is cached.
    public var hasCachedFeed: Bool { memory.hasCachedFeed }

    /// The cached feed.
    public func cachedFeed() -> Data? { memory.cachedFeed() }

    /// Keeps the feed.
    public func storeCachedFeed(_ bytes: Data) throws {
        if let failure { throw failure }
        try memory.storeCachedFeed(bytes)
    }
}

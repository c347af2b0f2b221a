/// Where a value every process of the person shares is kept (the attention ledger, the inbox):
/// read without the lock, changed under it. In a file (`SharedValueFile`), or in memory
/// (`MemoryValueStore`) for HeraldTesting's `TestDesktop` and runs that must not touch the
/// person's files.
package protocol SharedValueStore<Value> {
    /// What is kept.
    associatedtype Value
    /// The value as last written, without the lock: for questions that change nothing, and for
    /// a check to learn that it has nothing to add.
    func snapshot() throws -> Value
    /// Reads, changes and writes the value as one step no other process can interleave with;
    /// writes nothing when `change` leaves it as it was.
    func update<Result>(_ change: (inout Value) throws -> Result) throws -> Result
}

extension SharedValueFile: SharedValueStore {}

/// A shared value in memory, changed in place: HeraldTesting's `TestDesktop`'s, and that of
/// runs that must not touch the person's files (`herald feed preview`, a `Herald` given a state
/// store of its own).
package final class MemoryValueStore<Value>: SharedValueStore {
    /// The value as it stands.
    package var value: Value

    /// A store holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// The value.
    package func snapshot() throws -> Value { value }

    /// Changes the value; a change that throws leaves it as it was.
    package func update<Result>(_ change: (inout Value) throws -> Result) throws -> Result {
        var changed = value
        let result = try change(&changed)
        value = changed
        return result
    }
}

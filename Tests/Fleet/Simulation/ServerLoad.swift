/// The requests a feed host receives, counted per second of the simulated days.
package struct ServerLoad: Sendable, Equatable {
    /// Requests in each second, from the start of the simulated days.
    package private(set) var perSecond: [UInt32]

    /// An empty count over `seconds` seconds.
    package init(seconds: Int) {
        perSecond = Array(repeating: 0, count: seconds)
    }

    /// Counts one request at `time` (seconds from the start); one outside the span is not counted.
    package mutating func record(at time: Double) {
        guard time >= 0, time < Double(perSecond.count) else { return }
        perSecond[Int(time)] += 1
    }

    /// Adds another count of the same span.
    package mutating func add(_ other: ServerLoad) {
        precondition(other.perSecond.count == perSecond.count, "loads of different spans")
        for index in perSecond.indices { perSecond[index] += other.perSecond[index] }
    }

    /// All the requests counted.
    package var total: Int { perSecond.reduce(0) { $0 + Int($1) } }

    /// The busiest window of `width` seconds (sliding by one second): its first second and its
    /// requests. The first of equal windows wins.
    package func busiestWindow(width: Int) -> (start: Int, requests: Int) {
        guard perSecond.count >= width, width > 0 else { return (0, total) }
        var sum = perSecond[0..<width].reduce(0) { $0 + Int($1) }
        var best = (start: 0, requests: sum)
        for start in 1...(perSecond.count - width) {
            sum += Int(perSecond[start + width - 1]) - Int(perSecond[start - 1])
            if sum > best.requests { best = (start, sum) }
        }
        return best
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, fast, seeded random number generator (SplitMix64), so a run can be repeated.
///
/// Each install draws from its own generator, derived from the run's seed and the install's
/// number: the result does not depend on how the installs are split between tasks.
package struct FleetRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates the generator of one install of a seeded run.
    ///
    /// - Parameters:
    ///   - seed: the run's seed.
    ///   - install: the install's number; each gets an unrelated stream.
    package init(seed: UInt64, install: Int) {
        state = Self.mix(seed &+ Self.mix(UInt64(truncatingIfNeeded: install) &+ 0x632B_E59B_D9B4_E019))
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniform draw in 0..<1.
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A draw from the normal distribution with this mean and standard deviation (Box–Muller).
    package mutating func normal(mean: Double, deviation: Double) -> Double {
        let radius = (-2 * log(1 - unit())).squareRoot()
        return mean + deviation * radius * cos(2 * Double.pi * unit())
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

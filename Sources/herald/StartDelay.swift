/// The random wait before a login check (DESIGN.md D19): a fleet whose sessions all start at
/// 9:00 spreads its requests over the window instead of hitting the feed server at once.
enum StartDelay {
    /// The limit `herald autostart enable` writes into the login entry unless told otherwise:
    /// two minutes, so that a fleet logging in together reaches the feed host spread over them
    /// (desktop/docs/cli.md, "What your server will see").
    static let loginDefault = 120.0

    /// Seconds to wait, uniformly in 0...limit; no wait when the limit is 0 or less.
    static func seconds<Generator: RandomNumberGenerator>(upTo limit: Double, using generator: inout Generator) -> Double {
        limit > 0 ? Double.random(in: 0...limit, using: &generator) : 0
    }

    /// Seconds to wait, from the system's random source.
    static func seconds(upTo limit: Double) -> Double {
        var generator = SystemRandomNumberGenerator()
        return seconds(upTo: limit, using: &generator)
    }
}

/// The numbers a setting takes: from 0 (or more than 0) up to a limit, in a unit, and the
/// sentence that refuses any other, NaN and infinity included.
///
/// A number outside its range is a mistake, never a wish: an infinite or huge timeout crashed
/// the fetcher (it converts seconds to a 32-bit count), and an infinite start delay crashed the
/// random draw. The limits themselves belong to who sets them: `Herald.Configuration` for its
/// fields, the `herald` tool for its options.
package struct AllowedRange: Sendable, Equatable {
    /// The largest number taken.
    package let upper: Double
    /// What the number counts, in the plural: "seconds", "days".
    package let unit: String
    /// Whether 0 is taken; otherwise the number must be more than 0.
    package let zeroAllowed: Bool

    /// The numbers from 0 (or more than 0, unless `zeroAllowed`) to `upper` `unit`.
    package init(upTo upper: Double, _ unit: String, zeroAllowed: Bool) {
        self.upper = upper
        self.unit = unit
        self.zeroAllowed = zeroAllowed
    }

    /// Whether `value` is in the range; comparisons with NaN are false, so NaN is not.
    package func contains(_ value: Double) -> Bool {
        (zeroAllowed ? value >= 0 : value > 0) && value <= upper
    }

    /// What a setting out of the range must be, after its name, or `nil` when `value` is in
    /// it: "must be more than 0 and at most 3600 seconds, not 0".
    package func requirement(refusing value: Double) -> String? {
        if contains(value) { return nil }
        let range = zeroAllowed ? "from 0 to \(NumberText.plain(upper)) \(unit)" : "more than 0 and at most \(NumberText.plain(upper)) \(unit)"
        return "must be \(range), not \(NumberText.plain(value))"
    }
}

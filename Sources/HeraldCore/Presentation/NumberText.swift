/// How Herald writes a number for people, for an argument and in JSON: one rule, so a value
/// reads the same in an error, an explanation, an autostart entry and `--json` output.
package enum NumberText {
    /// A number as people write it: a whole number without ".0" (`3`, not `3.0`) while it is
    /// below 10¹⁵ (where `Int` still holds it exactly), otherwise as Swift prints it, the
    /// shortest text that reads back (`2.5`, `1e+15`); "inf", "-inf" and "nan" as such.
    package static func plain(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        return value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `plain` rounded to one decimal (`1.5 h`); a value too large to round is written whole.
    package static func oneDecimal(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return plain(rounded.isFinite && abs(rounded) < 1e15 ? rounded : value)
    }

    /// A count with its thousands grouped for reading: 100000 as "100,000".
    package static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var out = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// A size in MiB with one decimal, rounded half up ("4 MiB", "41.9 MiB").
    package static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024)
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }

    /// `plain` for JSON, which has no infinity or NaN: those are `null`.
    package static func json(_ value: Double) -> String {
        value.isFinite ? plain(value) : "null"
    }
}

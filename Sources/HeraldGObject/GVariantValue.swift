import FoundationEssentials
import Herald
import libherald

/// A feed's values as `GVariant`s, for `HeraldMessage:details`: strings s, whole numbers x,
/// other numbers d, booleans b, dates x (seconds since 1970), data ay, arrays av,
/// dictionaries a{sv}, and null an empty mv. Every value made is floating.
enum GVariantValue {
    /// An a{sv} of `fields`, in key order.
    static func dictionary(_ fields: [String: FeedValue]) -> OpaquePointer {
        var entries = fields.sorted { $0.key < $1.key }.map { key, value in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(make(value)))
        }
        return entries.withUnsafeMutableBufferPointer { g_variant_new_array(g_variant_type_checked_("{sv}"), $0.baseAddress, gsize($0.count)) }
    }

    /// The variant of one value.
    static func make(_ value: FeedValue) -> OpaquePointer {
        switch value {
        case .string(let text): return g_variant_new_string(text)
        case .integer(let number): return g_variant_new_int64(gint64(number))
        case .real(let number): return g_variant_new_double(number)
        case .bool(let flag): return g_variant_new_boolean(flag ? 1 : 0)
        case .date(let date): return g_variant_new_int64(gint64(date.timeIntervalSince1970.rounded(.down)))
        case .data(let bytes):
            return bytes.withUnsafeBytes { g_variant_new_fixed_array(g_variant_type_checked_("y"), $0.baseAddress, gsize($0.count), 1) }
        case .array(let values):
            var children = values.map { g_variant_new_variant(make($0)) }
            return children.withUnsafeMutableBufferPointer { g_variant_new_array(g_variant_type_checked_("v"), $0.baseAddress, gsize($0.count)) }
        case .dictionary(let fields): return dictionary(fields)
        case .null: return g_variant_new_maybe(g_variant_type_checked_("v"), nil)
        }
    }
}

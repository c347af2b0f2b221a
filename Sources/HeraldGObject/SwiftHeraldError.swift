import Herald

/// Herald's `HeraldError`, by a name of its own: libherald's C enum of the error codes is
/// `HeraldError` too (GI's Herald.Error, which the scanner pairs with herald_error_quark).
typealias SwiftHeraldError = HeraldError

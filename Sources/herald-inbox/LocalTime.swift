import CAdwaita
import FoundationEssentials
import HeraldCore

/// A moment as the person reads it in the window: in their time zone and language, to the
/// minute ("24 Nov 2026, 15:40"), where `herald inbox` writes ISO 8601 UTC for scripts.
enum LocalTime {
    /// `date` in the person's time zone (`TZ`, else the system's) and language; ISO 8601 UTC
    /// where GLib cannot write it.
    static func text(_ date: Date) -> String {
        guard let moment = g_date_time_new_from_unix_local(gint64(date.timeIntervalSince1970.rounded(.down))) else {
            return ISO8601Moment.text(date)
        }
        defer { g_date_time_unref(moment) }
        guard let text = g_date_time_format(moment, "%-d %b %Y, %H:%M") else { return ISO8601Moment.text(date) }
        defer { g_free(text) }
        return String(cString: text)
    }
}

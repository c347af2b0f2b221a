import FoundationEssentials
import Herald
import HeraldCore
import libherald

// The app's inbox (`Herald.inbox()`) for libherald's herald_client_get_inbox(), given one
// message at a time to the C side, which makes a HeraldInboxMessage of each.

@_cdecl("libherald_bridge_inbox")
func libheraldBridgeInbox(
    _ pointer: UnsafeMutableRawPointer, _ receive: LibheraldInboxReceiver, _ list: UnsafeMutableRawPointer,
    _ errorCode: UnsafeMutablePointer<Int32>, _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> gboolean {
    nonisolated(unsafe) let receive = receive
    nonisolated(unsafe) let list = list
    nonisolated(unsafe) let errorCode = errorCode
    nonisolated(unsafe) let errorMessage = errorMessage
    return withHerald(pointer) { herald -> gboolean in
        do {
            for message in try herald.inbox() {
                message.withEntry { receive(list, $0) }
            }
            return 1
        } catch {
            set(error, code: errorCode, message: errorMessage)
            return 0
        }
    }
}

extension InboxMessage {
    /// This message as libherald's entry, valid for the time of `body`.
    func withEntry(_ body: (UnsafePointer<LibheraldInboxEntry>) -> Void) {
        let seconds = { (date: Date) in gint64(date.timeIntervalSince1970.rounded(.down)) }
        withCStrings([id, title, message, link, button, category, state.description]) { texts in
            var entry = LibheraldInboxEntry(
                id: texts[0], title: texts[1], body: texts[2], link: texts[3], button_label: texts[4], category: texts[5],
                state_text: texts[6], reached: seconds(reached), has_last_shown: gboolean(lastShown != nil),
                last_shown: lastShown.map(seconds) ?? 0, state: Int32(state.code.rawValue), has_until: 0, until: 0,
                has_withdrawn_since: 0, withdrawn_since: 0, muted_by_administrator: 0)
            switch state {
            case .remindLater(let until), .waitingForRoom(.some(let until)):
                (entry.has_until, entry.until) = (1, seconds(until))
            case .withdrawn(let since):
                (entry.has_withdrawn_since, entry.withdrawn_since) = (1, seconds(since))
            case .categoryMuted(let byAdministrator), .appMuted(let byAdministrator):
                entry.muted_by_administrator = gboolean(byAdministrator)
            case .due, .shown, .viewed, .ignored, .waitingForRoom(nil), .deferredForQuiet:
                break
            }
            withUnsafePointer(to: entry, body)
        }
    }
}

extension InboxMessage.State {
    /// The `HeraldInboxState` of this state.
    var code: HeraldInboxState {
        switch self {
        case .due: HERALD_INBOX_STATE_DUE
        case .shown: HERALD_INBOX_STATE_SHOWN
        case .viewed: HERALD_INBOX_STATE_VIEWED
        case .ignored: HERALD_INBOX_STATE_IGNORED
        case .remindLater: HERALD_INBOX_STATE_REMIND_LATER
        case .waitingForRoom: HERALD_INBOX_STATE_WAITING_FOR_ROOM
        case .deferredForQuiet: HERALD_INBOX_STATE_DEFERRED_FOR_QUIET
        case .categoryMuted: HERALD_INBOX_STATE_CATEGORY_MUTED
        case .withdrawn: HERALD_INBOX_STATE_WITHDRAWN
        case .appMuted: HERALD_INBOX_STATE_APP_MUTED
        }
    }
}

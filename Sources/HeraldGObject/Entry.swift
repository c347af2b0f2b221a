import FoundationEssentials
import Herald
import libherald

// The C functions libherald's HeraldClient calls (Sources/libherald/herald-swift.h). The
// library exports none of them: its version script exports herald_* alone. Each is called on
// the GLib default main context, where Herald runs (`MainContext.assumeIsolated` traps elsewhere);
// the pointers they are given are the caller's, used on that thread alone.

@_cdecl("libherald_bridge_new")
func libheraldBridgeNew(
    _ configuration: UnsafePointer<LibheraldConfiguration>, _ callbacks: UnsafePointer<LibheraldCallbacks>,
    _ client: UnsafeMutableRawPointer, _ errorCode: UnsafeMutablePointer<Int32>,
    _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> UnsafeMutableRawPointer? {
    nonisolated(unsafe) let configuration = configuration
    nonisolated(unsafe) let callbacks = callbacks
    nonisolated(unsafe) let client = client
    nonisolated(unsafe) let errorCode = errorCode
    nonisolated(unsafe) let errorMessage = errorMessage
    return MainContext.assumeIsolated { () -> UnsafeMutableRawPointer? in
        do {
            let herald = try Herald(configuration: Herald.Configuration(configuration.pointee))
            let bridge = ClientBridge(herald: herald, callbacks: callbacks.pointee, client: client)
            herald.delegate = bridge
            return Unmanaged.passRetained(bridge).toOpaque()
        } catch {
            set(error, code: errorCode, message: errorMessage)
            return nil
        }
    }
}

@_cdecl("libherald_bridge_defaults")
func libheraldBridgeDefaults(_ defaults: UnsafeMutablePointer<LibheraldConfiguration>) {
    let herald = Herald.Configuration(feedURL: nil, appID: "", appVersion: nil, environment: [:])
    let seconds = { (duration: Duration) in duration / .seconds(1) }
    defaults.pointee.check_period = seconds(herald.check.checkPeriod)
    defaults.pointee.remind_period = seconds(herald.check.remindPeriod)
    defaults.pointee.timeout = seconds(herald.timeout)
    defaults.pointee.wait_limit = herald.waitLimit.map(seconds) ?? 0
    defaults.pointee.max_per_check = Int32(herald.check.maxNotificationsPerCheck)
    defaults.pointee.show_on_first_launch = gboolean(herald.check.showOnFirstLaunch)
    defaults.pointee.show_oldest_first = gboolean(herald.check.showOldestFirst)
    defaults.pointee.check_at_launch = gboolean(herald.checkAtLaunch)
    defaults.pointee.debug = gboolean(herald.check.debug)
    defaults.pointee.allow_critical_urgency = gboolean(herald.check.allowsCriticalUrgency)
    defaults.pointee.allow_plain_http_feed = gboolean(herald.urlRules.allowPlainHTTPFeed)
    defaults.pointee.whats_new = gboolean(herald.whatsNew)
}

@_cdecl("libherald_bridge_free")
func libheraldBridgeFree(_ pointer: UnsafeMutableRawPointer) {
    nonisolated(unsafe) let pointer = pointer
    MainContext.assumeIsolated {
        let bridge = Unmanaged<ClientBridge>.fromOpaque(pointer).takeRetainedValue()
        bridge.detach()
    }
}

@_cdecl("libherald_bridge_app_launched")
func libheraldBridgeAppLaunched(_ pointer: UnsafeMutableRawPointer) {
    withHerald(pointer) { $0.appLaunched() }
}

@_cdecl("libherald_bridge_check_now")
func libheraldBridgeCheckNow(_ pointer: UnsafeMutableRawPointer) {
    withHerald(pointer) { $0.checkNow() }
}

@_cdecl("libherald_bridge_app_will_quit")
func libheraldBridgeAppWillQuit(_ pointer: UnsafeMutableRawPointer) {
    withHerald(pointer) { $0.appWillQuit() }
}

@_cdecl("libherald_bridge_close_shown_messages")
func libheraldBridgeCloseShownMessages(_ pointer: UnsafeMutableRawPointer) {
    withHerald(pointer) { $0.closeShownMessages() }
}

@_cdecl("libherald_bridge_add_prompts")
func libheraldBridgeAddPrompts(
    _ pointer: UnsafeMutableRawPointer, _ bytes: UnsafePointer<CChar>, _ length: Int,
    _ errorCode: UnsafeMutablePointer<Int32>, _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> gboolean {
    nonisolated(unsafe) let bytes = bytes
    nonisolated(unsafe) let errorCode = errorCode
    nonisolated(unsafe) let errorMessage = errorMessage
    return withHerald(pointer) { herald -> gboolean in
        do {
            let file = try PromptsFile.decode(Data(bytes: bytes, count: length), rules: herald.configuration.urlRules)
            herald.register(file)
            return 1
        } catch {
            set(error, code: errorCode, message: errorMessage)
            return 0
        }
    }
}

@_cdecl("libherald_bridge_add_prompt")
func libheraldBridgeAddPrompt(
    _ pointer: UnsafeMutableRawPointer, _ name: UnsafePointer<CChar>, _ title: UnsafePointer<CChar>, _ body: UnsafePointer<CChar>,
    _ actionURL: UnsafePointer<CChar>?, _ usesUntilPrompt: UInt32, _ daysUntilPrompt: Double,
    _ errorCode: UnsafeMutablePointer<Int32>, _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> gboolean {
    nonisolated(unsafe) let name = name
    nonisolated(unsafe) let title = title
    nonisolated(unsafe) let body = body
    nonisolated(unsafe) let actionURL = actionURL
    nonisolated(unsafe) let errorCode = errorCode
    nonisolated(unsafe) let errorMessage = errorMessage
    return withHerald(pointer) { herald -> gboolean in
        let link = actionURL.map { String(cString: $0) }
        if let link, let refusal = herald.configuration.urlRules.actionURLRefusal(link) {
            set(SwiftHeraldError.configuration("the prompt's link \(link) cannot be offered: \(refusal)"), code: errorCode, message: errorMessage)
            return 0
        }
        let settings = PromptSettings(
            title: String(cString: title), message: String(cString: body), actionURL: link,
            usesUntilPrompt: Int(usesUntilPrompt), daysUntilPrompt: .seconds(daysUntilPrompt * 86_400))
        herald.register(Prompt(name: String(cString: name), settings: settings))
        return 1
    }
}

@_cdecl("libherald_bridge_record_answer")
func libheraldBridgeRecordAnswer(
    _ pointer: UnsafeMutableRawPointer, _ messageID: UnsafePointer<CChar>, _ answer: UnsafePointer<CChar>,
    _ errorCode: UnsafeMutablePointer<Int32>, _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> gboolean {
    nonisolated(unsafe) let messageID = messageID
    nonisolated(unsafe) let answer = answer
    nonisolated(unsafe) let errorCode = errorCode
    nonisolated(unsafe) let errorMessage = errorMessage
    return withHerald(pointer) { herald -> gboolean in
        let word = String(cString: answer)
        guard let given = Answer(rawValue: word) else {
            let answers = Answer.allCases.map(\.rawValue).joined(separator: ", ")
            set(SwiftHeraldError.configuration("the answer \(word) is none of Herald's: \(answers)"), code: errorCode, message: errorMessage)
            return 0
        }
        do {
            try herald.record(given, forMessage: String(cString: messageID))
            return 1
        } catch {
            set(error, code: errorCode, message: errorMessage)
            return 0
        }
    }
}

/// Runs `body` on Herald's context with the Herald of the bridge behind `pointer`, which the
/// client holds.
func withHerald<Result>(_ pointer: UnsafeMutableRawPointer, _ body: @MainContext (Herald) -> Result) -> Result {
    nonisolated(unsafe) let pointer = pointer
    return MainContext.assumeIsolated { body(Unmanaged<ClientBridge>.fromOpaque(pointer).takeUnretainedValue().herald) }
}

/// Sets a C caller's error code and message (to g_free) from `error`: a Herald error's kind,
/// or a prompts file's problem as HERALD_ERROR_FEED.
func set(_ error: any Error, code: UnsafeMutablePointer<Int32>, message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
    let heraldError = error as? SwiftHeraldError
    code.pointee = heraldError?.errorCode ?? Int32(HERALD_ERROR_FEED.rawValue)
    message.pointee = g_strdup(heraldError?.description ?? "the prompts file cannot be used: \(error)")
}

extension Herald.Configuration {
    /// The configuration a `HeraldClient`'s construct properties hold.
    init(_ given: LibheraldConfiguration) {
        let text = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } }
        var check = CheckConfiguration()
        if given.check_period > 0 { check.checkPeriod = .seconds(given.check_period) }
        if given.remind_period > 0 { check.remindPeriod = .seconds(given.remind_period) }
        check.maxNotificationsPerCheck = Int(given.max_per_check)
        check.showOnFirstLaunch = given.show_on_first_launch != 0
        check.showOldestFirst = given.show_oldest_first != 0
        check.debug = given.debug != 0
        check.allowsCriticalUrgency = given.allow_critical_urgency != 0
        self.init(
            feedURL: text(given.feed_url), appID: text(given.app_id) ?? "", appVersion: text(given.app_version),
            appName: text(given.app_name), check: check,
            urlRules: URLRules(allowedCustomSchemes: Set(strings(given.allowed_schemes)), allowPlainHTTPFeed: given.allow_plain_http_feed != 0),
            icon: text(given.icon), timeout: .seconds(given.timeout), caFile: text(given.ca_file),
            publicKeys: strings(given.public_keys), waitLimit: given.wait_limit > 0 ? .seconds(given.wait_limit) : nil,
            checkAtLaunch: given.check_at_launch != 0)
        whatsNew = given.whats_new != 0
    }
}

/// The strings of a NULL-terminated C array; none for `NULL`.
private func strings(_ array: UnsafePointer<UnsafePointer<CChar>?>?) -> [String] {
    guard var cursor = array else { return [] }
    var result: [String] = []
    while let string = cursor.pointee {
        result.append(String(cString: string))
        cursor += 1
    }
    return result
}

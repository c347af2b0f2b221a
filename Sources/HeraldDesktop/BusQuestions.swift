import CDesktopLibraries

/// Questions to the desktop that do not depend on each other, sent on the bus together and
/// answered together: they cost one round trip, not one each.
///
/// Each question is a method call with string arguments, never starting a service that is not
/// running. The replies are awaited on a main context of their own, made thread-default for the
/// wait, as a synchronous call waits: nothing else of the caller's loop runs meanwhile.
package enum BusQuestions {
    /// One method call.
    package struct Question: Sendable {
        let destination: String
        let path: String
        let interface: String
        let method: String
        let arguments: [String]
        let reply: String

        /// A call of `method` with string `arguments`, answered by a value of type `reply`.
        package init(_ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [String], reply: String) {
            self.destination = destination
            self.path = path
            self.interface = interface
            self.method = method
            self.arguments = arguments
            self.reply = reply
        }
    }

    /// Sends every question on `bus`, then waits for all the replies, each for at most
    /// `timeout` milliseconds. Returns the replies in the questions' order, each to be released
    /// with `g_variant_unref`; `nil` for a call that failed, timed out or went to a name without
    /// an owner.
    package static func ask(_ bus: OpaquePointer, _ questions: [Question], timeout: Int32 = 1000) -> [OpaquePointer?] {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        let answers = Answers(count: questions.count)
        for (index, question) in questions.enumerated() {
            let replyType = g_variant_type_new(question.reply)
            defer { g_variant_type_free(replyType) }
            var arguments: [OpaquePointer?] = question.arguments.map { g_variant_new_string($0) }
            let tuple = g_variant_new_tuple(&arguments, gsize(arguments.count))
            let slot = Unmanaged.passRetained(Slot(answers: answers, index: index)).toOpaque()
            g_dbus_connection_call(bus, question.destination, question.path, question.interface, question.method, tuple, replyType,
                                   G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout, nil, { source, result, pointer in
                let slot = Unmanaged<Slot>.fromOpaque(pointer!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                slot.answers.replies[slot.index] = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                g_clear_error(&error)
                slot.answers.pending -= 1
            }, slot)
        }
        // Each call ends by its timeout at the latest, and its callback runs on this context.
        while answers.pending > 0 { g_main_context_iteration(context, 1) }
        return answers.replies
    }

    /// The replies so far, and how many are still awaited.
    private final class Answers: @unchecked Sendable {
        var replies: [OpaquePointer?]
        var pending: Int

        init(count: Int) {
            replies = Array(repeating: nil, count: count)
            pending = count
        }
    }

    /// Where one call's reply goes: held by the call until its callback.
    private final class Slot: @unchecked Sendable {
        let answers: Answers
        let index: Int

        init(answers: Answers, index: Int) {
            self.answers = answers
            self.index = index
        }
    }
}

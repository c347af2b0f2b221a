import CDesktopLibraries

/// Counts the `NotifyNotification` objects this process creates and finalizes.
///
/// While a census runs, every notification is caught as it is constructed (the class's
/// `constructed` step is wrapped), whether or not any Swift code ever holds a handle to it,
/// and gets a weak reference whose notify counts its finalization. Main thread only.
public final class NotificationCensus {
    nonisolated(unsafe) private static var created = 0
    nonisolated(unsafe) private static var finalized = 0
    nonisolated(unsafe) private static var originalConstructed: (@convention(c) (UnsafeMutablePointer<GObject>?) -> Void)?
    private let notificationClass: UnsafeMutablePointer<GObjectClass>

    /// Notifications created since the census started.
    public var createdCount: Int { Self.created }
    /// Notifications finalized since the census started.
    public var finalizedCount: Int { Self.finalized }

    /// Starts counting.
    public init() {
        notificationClass = UnsafeMutableRawPointer(g_type_class_ref(notify_notification_get_type())!).assumingMemoryBound(to: GObjectClass.self)
        Self.created = 0
        Self.finalized = 0
        Self.originalConstructed = notificationClass.pointee.constructed
        notificationClass.pointee.constructed = { object in
            NotificationCensus.originalConstructed?(object)
            guard let object else { return }
            NotificationCensus.created += 1
            g_object_weak_ref(object, { _, _ in NotificationCensus.finalized += 1 }, nil)
        }
    }

    /// Stops counting; notifications made later are not caught.
    public func stop() {
        notificationClass.pointee.constructed = Self.originalConstructed
        g_type_class_unref(notificationClass)
    }
}

/// An object whose only job is to be freed: captured by a closure handed to C, a weak
/// reference to it says whether the closure, and so the box holding it, was released.
public final class Canary {
    /// Creates a canary.
    public init() {}
}

import FoundationEssentials
import Glibc
import HeraldCore

/// The state folder a handover names (`Handover.stateFolder(of:)`), as the agent accepts it
/// before it holds a message or records an answer there: the agent runs in the session bus's
/// environment, which may not be the check's, so it writes where the handover says, and only
/// there. It takes no caller's word for more than the path: the folder must be the user's own
/// `…/herald` folder, reached through no symbolic link, and the app's state file in it must hold
/// a handover of the message. Anything else is a `HandoverStateProblem`, and nothing is written.
struct HandoverStateFolder {
    /// The app's files in the folder.
    let paths: HeraldPaths
    /// The handover of the message the state held when the folder was checked.
    let handover: Handover

    /// The folder `path` for the handover of `key` by `appID`, checked.
    ///
    /// - Parameters:
    ///   - environment: the agent's own, for the paths that are not the state's.
    ///   - owner: the user the folder must belong to; this process's.
    /// - Throws: what keeps the agent from it.
    init(_ path: String, appID: String, key: String, environment: [String: String], owner: uid_t = getuid()) throws(HandoverStateProblem) {
        guard !path.contains("\0"), let paths = try? HeraldPaths(appID: appID, stateDirectory: path, environment: environment) else {
            throw .notAStateFolder(path)
        }
        let real = realpath(path, nil)
        guard let real else { throw .unreachable(path, RegularFile.reason(errno)) }
        let resolved = String(cString: real)
        free(real)
        guard resolved == path else { throw .unreachable(path, "it is reached through a symbolic link (to \(resolved))") }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .unreachable(path, RegularFile.reason(errno)) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .unreachable(path, "it is \(RegularFile.kind(of: info)), not a folder") }
        guard info.st_uid == owner else { throw .unreachable(path, "it belongs to user \(info.st_uid), not to this user (\(owner))") }
        guard lstat(paths.stateFile, &info) == 0 else { throw .noState(paths.stateFile, RegularFile.reason(errno)) }
        guard RegularFile.isRegular(info), info.st_uid == owner else { throw .noState(paths.stateFile, "it is not a file of this user") }
        let state: HeraldState?
        do { state = try FileStateStore(paths: paths).inspect() } catch { throw .unusable(StateStoreError(error, writing: paths.stateFile)) }
        guard let handover = state?.handedOver[key] else { throw .notHandedOver(paths.stateFile) }
        self.paths = paths
        self.handover = handover
    }

    /// The state folder the agent's own environment gives `appID`: what a click whose target
    /// names no folder (posted before handovers named theirs) is recorded in.
    static func own(appID: String, environment: [String: String]) -> String? {
        guard let paths = try? HeraldPaths(appID: appID, environment: environment) else { return nil }
        return Handover.stateFolder(of: FileStateStore(paths: paths)) ?? paths.stateDirectory
    }
}

/// Why the agent cannot hold or record a handed-over message in the folder its handover named.
enum HandoverStateProblem: Error, Equatable, CustomStringConvertible {
    /// The path is not a Herald state folder (an absolute `…/herald`).
    case notAStateFolder(String)
    /// The folder is not there, not a folder, reached through a link, or not the user's own.
    case unreachable(String, String)
    /// The app's state file is not there, or not a file of this user.
    case noState(String, String)
    /// The state file cannot be read.
    case unusable(StateStoreError)
    /// The state file holds no handover of the message: it was answered or withdrawn already,
    /// or handed over from another folder.
    case notHandedOver(String)
    /// The caller holds no capability for the handover: the token it presented is not the
    /// handover's own (`Handover.admits`).
    case notTheHolder

    /// The end of a sentence that names the message.
    var description: String {
        switch self {
        case .notAStateFolder(let path): return "'\(path)' is not a Herald state folder (an absolute path ending in /herald)"
        case .unreachable(let path, let reason): return "cannot use the state folder \(path): \(reason)"
        case .noState(let path, let reason): return "cannot use the state file \(path): \(reason)"
        case .unusable(let error): return error.description
        case .notHandedOver(let path): return "\(path) holds no handover of it: it was answered or withdrawn already, or handed over from another state folder"
        case .notTheHolder:
            return "the call does not hold its handover: only a click in the desktop's list or on the agent's notification, "
                + "or the check that handed it over (with the token it wrote in the state), may answer, hold or withdraw it"
        }
    }

    /// The D-Bus error the call is refused with.
    var errorName: String {
        switch self {
        case .notHandedOver: return "org.herald.Agent1.Error.NotHandedOver"
        case .notTheHolder: return "org.herald.Agent1.Error.NotTheHolder"
        default: return "org.herald.Agent1.Error.StateUnreachable"
        }
    }

    /// Whether the message still waits to be answered: its state could not be reached, so
    /// nothing was recorded, and the next check (or the app's own state) still has it.
    var messageWaits: Bool {
        if case .notHandedOver = self { return false }
        return true
    }
}

import Foundation

/// Polls `condition` every 50 ms until it holds or `seconds` pass; returns whether it held.
@discardableResult
public func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}

/// A child process whose output goes to files, so tests can read it while it runs.
public final class ChildProcess {
    /// The process.
    public let process = Process()
    /// Where its standard output goes.
    public let outputPath: String
    /// Where its standard error goes.
    public let errorPath: String

    /// Starts `executable` with `arguments` in `environment`, output in `directory`.
    ///
    /// - Parameters:
    ///   - standardInput: what it reads; nothing (`/dev/null`) unless given.
    ///   - workingDirectory: where it runs; this process's own unless given.
    public init(_ executable: String, _ arguments: [String], environment: [String: String], directory: URL, name: String,
                standardInput: FileHandle = FileHandle.nullDevice, workingDirectory: URL? = nil) throws {
        outputPath = directory.appendingPathComponent("\(name).out").path
        errorPath = directory.appendingPathComponent("\(name).err").path
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              FileManager.default.createFile(atPath: errorPath, contents: nil) else { throw TestSetupError("cannot create \(outputPath)") }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardInput = standardInput
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        try process.run()
    }

    /// What it has written to standard output so far.
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// What it has written to standard error so far.
    public var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Waits for the exit (killing it after `seconds`) and returns the exit status.
    @discardableResult
    public func wait(seconds: Double = 20) -> Int32 {
        if !eventually(within: seconds, { !process.isRunning }) {
            process.terminate()
            process.waitUntilExit()
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends a signal.
    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Stops it if it still runs.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The JSON objects printed one per line (`--json`).
    public var events: [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }
}

/// The process that owns `name` on the session bus of `environment`, or `nil` while nothing owns it.
public func processIDOwning(_ name: String, environment: [String: String]) -> Int32? {
    let reply = try? runToCompletion("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                        "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", name], environment: environment,
                                errorOutput: FileHandle.nullDevice)
    // "(uint32 1234,)": the digits after the type's name (whose own "32" is not the id's).
    guard let reply, reply.status == 0, let number = reply.output.components(separatedBy: "uint32 ").last else { return nil }
    return Int32(number.prefix { $0.isNumber })
}

/// Whether process `pid` runs (a zombie, ended but not yet waited for, does not).
public func processIsRunning(_ pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    return !status.contains(") Z ")
}

/// Whether the session bus started process `pid` by D-Bus activation: dbus-daemon gives what
/// it starts `DBUS_STARTER_BUS_TYPE=session`.
public func startedBySessionBus(_ pid: Int32) -> Bool {
    guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
    return environ.split(separator: 0).contains { Data($0) == Data("DBUS_STARTER_BUS_TYPE=session".utf8) }
}

/// Runs a command to completion and returns its status and standard output.
///
/// - Parameter errorOutput: where its standard error goes; this process's own unless given.
public func runToCompletion(_ executable: String, _ arguments: [String], environment: [String: String],
                            errorOutput: FileHandle? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    if let errorOutput { process.standardError = errorOutput }
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Waits until the screen is still: two screenshots in a row alike (ImageMagick's `compare`),
/// so a server's animations and redraws are done. Returns the path of the last screenshot
/// (`NAME.png` in `folder`), or nil when the screen kept changing for `seconds`.
public func stillScreen(within seconds: Double, environment: [String: String], folder: URL, name: String) throws -> String? {
    let latest = folder.appendingPathComponent(name + ".png").path
    let previous = folder.appendingPathComponent(name + "-previous.png").path
    func take(_ path: String) throws {
        guard try runToCompletion("/usr/bin/import", ["-window", "root", path], environment: environment).status == 0 else {
            throw TestSetupError("import failed")
        }
    }
    try take(previous)
    let settled = try eventually(within: seconds) {
        try take(latest)
        if try runToCompletion("/usr/bin/compare", ["-metric", "AE", previous, latest, "null:"], environment: environment).status == 0 { return true }
        try? FileManager.default.removeItem(atPath: previous)
        try FileManager.default.moveItem(atPath: latest, toPath: previous)
        return false
    }
    return settled ? latest : nil
}

import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `herald-fuzz`: Herald's libFuzzer targets (Tests/Fuzz/README.md; Tests/scripts/fuzz.sh).
//
// Built with `-DHERALD_FUZZING` (and `-sanitize=fuzzer,address`), `main` hands over to
// libFuzzer's driver and every input goes to the target named by `HERALD_FUZZ_TARGET`.
// In a normal build (`swift build`) it is a replay tool instead: it runs files through the
// same `FuzzTarget.run`, which is how `FuzzCorpusTests` replays the seeds and every saved crash.

/// Writes a line to standard error (unbuffered, so it is out before a crash or an exit).
func writeError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

#if HERALD_FUZZING

/// The target chosen for this process (read once, before libFuzzer starts).
nonisolated(unsafe) private var fuzzTarget = FuzzTarget.xml

/// libFuzzer calls this once per input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Data(UnsafeBufferPointer(start: $0, count: count)) } ?? Data()
    _ = fuzzTarget.run(bytes)
    return 0
}

/// libFuzzer's own driver, in libclang_rt.fuzzer (linked by `-sanitize=fuzzer`). Calling it
/// from our `main` keeps one entry point for both builds: SwiftPM links an executable's main
/// under a renamed symbol, so libFuzzer's `main` cannot be the program's.
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@main
enum HeraldFuzz {
    static func main() {
        let name = getenv("HERALD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            writeError("herald-fuzz: set HERALD_FUZZ_TARGET to one of: \(names) (got '\(name)')")
            exit(64)
        }
        fuzzTarget = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
    }
}

#else

@main
enum HeraldFuzz {
    static let usage = """
        usage: herald-fuzz [--target TARGET] PATH...
               herald-fuzz --list

        Replays inputs through a fuzz target, as the fuzzer does, and prints one line per file:
        whether the decoder returned or threw. A crash ends the process (it is the bug).
        A directory stands for the files under it. Without --target, each file goes to the target
        its directory is named after (Tests/Fuzz/corpus/<target>/…, Tests/Fuzz/crashes/<target>/…).
        Targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")).
        The fuzzers themselves are built with Tests/scripts/fuzz.sh.
        """

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var target: FuzzTarget?
        if arguments.first == "--list" {
            FuzzTarget.allCases.forEach { print($0.rawValue) }
            return
        }
        if arguments.first == "--target" {
            guard arguments.count >= 2, let chosen = FuzzTarget(rawValue: arguments[1]) else { fail(usage) }
            target = chosen
            arguments.removeFirst(2)
        }
        guard !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) else { fail(usage) }
        for path in arguments {
            for file in files(at: path) {
                let parent = URL(filePath: file).deletingLastPathComponent().lastPathComponent
                guard let fileTarget = target ?? FuzzTarget(rawValue: parent) else {
                    fail("herald-fuzz: \(file): its directory '\(parent)' names no target; use --target")
                }
                guard let bytes = try? Data(contentsOf: URL(filePath: file)) else { fail("herald-fuzz: cannot read \(file)") }
                // Said before the run, so that a crash's output names the file.
                print("\(fileTarget.rawValue) \(file): ", terminator: "")
                fflush(nil)
                switch fileTarget.run(bytes) {
                case .returned(let summary): print("returned: \(summary)")
                case .threw(let reason): print("threw: \(reason)")
                }
                fflush(nil)
            }
        }
    }

    /// The regular files at `path`: itself, or those under it at any depth (sorted by path),
    /// hidden files left out.
    static func files(at path: String) -> [String] {
        var status = stat()
        guard stat(path, &status) == 0 else { fail("herald-fuzz: no such file or directory: \(path)") }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        guard let directory = opendir(path) else { fail("herald-fuzz: cannot read \(path)") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().flatMap { name -> [String] in
            let child = path.hasSuffix("/") ? path + name : path + "/" + name
            var status = stat()
            guard stat(child, &status) == 0 else { return [] }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: return files(at: child)
            case S_IFREG: return [child]
            default: return []
            }
        }
    }

    static func fail(_ message: String) -> Never {
        writeError(message)
        exit(64)
    }
}

#endif

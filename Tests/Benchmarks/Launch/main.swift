import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

// herald-launch-bench: how long `Herald.appLaunched()` holds the caller's thread, for a check
// that is due (it reads the state and starts the fetch) and one that is not (it reads the
// state and stops). The call itself returns at once and leaves the work to the main loop, on
// the same thread; what is timed is the call and that work, up to an idle callback queued
// right after it (idle callbacks run in order). Each run uses a fresh `Herald` on a state file
// in a temporary folder, and the main loop runs until that check is over before the next one
// starts. Prints one JSON line per case with the median in microseconds and the gate its last
// run stopped at ("gate", null when it passed them all).
//
//   herald-launch-bench [--runs N]

/// Seconds on the monotonic clock.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Ends the loop when its check is over, and keeps the gate the check stopped at.
@MainContext
final class Finish: HeraldDelegate {
    let loop: MainLoop
    /// The name of the gate the check stopped at (check-period, failure-backoff…), if it did.
    var gate: String?
    init(_ loop: MainLoop) { self.loop = loop }
    func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .checkSkipped(let reason): gate = reason.name
        case .checkFinished: loop.quit()
        default: break
        }
    }
}

/// The microseconds `appLaunched()` took on this thread, for a state whose last check was
/// `lastChecked` (nil: never; past the first launch either way), and the gate it stopped at.
@MainContext
func measure(folder: String, lastChecked: Date?) throws -> (microseconds: Double, gate: String?) {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = folder
    environment["XDG_CACHE_HOME"] = folder + "/cache"
    let configuration = Herald.Configuration(
        feedURL: "http://127.0.0.1:9/feed.plist", appID: "org.example.LaunchBench", appVersion: "1.0",
        waitLimit: .seconds(1), environment: environment)
    let paths = try HeraldPaths(appID: configuration.appID, environment: environment)
    let store = FileStateStore(paths: paths)
    try store.update { state in
        state.ignored = []
        state.lastChecked = lastChecked
        state.failure = nil
    }
    let herald = try Herald(configuration: configuration, store: store)
    let loop = MainLoop()
    let finish = Finish(loop)
    herald.delegate = finish
    let start = now()
    var end = start
    herald.appLaunched()
    MainContext.idle { end = now() }
    loop.run()
    return ((end - start) * 1_000_000, finish.gate)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let runs = arguments.first == "--runs" && arguments.count > 1 ? max(Int(arguments[1]) ?? 25, 1) : 25
let folder = "/tmp/herald-launch-bench-\(getpid())"
defer { _ = try? FileManager.default.removeItem(atPath: folder) }
MainContext.assumeIsolated {
    for (name, lastChecked) in [("due", nil), ("not-due", Date())] as [(String, Date?)] {
        var times: [Double] = []
        var gate: String?
        do {
            // One run not counted, so the first measured one does not pay for first use.
            for run in 0...runs {
                let (time, stoppedAt) = try measure(folder: folder, lastChecked: lastChecked)
                if run > 0 { times.append(time) }
                gate = stoppedAt
            }
        } catch {
            print("herald-launch-bench: \(error)")
            exit(1)
        }
        times.sort()
        let gateJSON = gate.map { #""\#($0)""# } ?? "null"
        print(#"{"case": "\#(name)", "runs": \#(runs), "median_us": \#(times[times.count / 2]), "gate": \#(gateJSON)}"#)
    }
}

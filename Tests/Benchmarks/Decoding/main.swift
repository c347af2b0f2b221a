import FoundationEssentials
import Glibc
import HeraldCore

// herald-decode-bench: decodes and orders feed files in-process, as a check does between the
// fetched bytes and the plan (`FeedDecoder.decode`, then `CheckPolicy.order`), and prints one
// JSON line per file with the median wall time of its runs.
//
//   herald-decode-bench [--runs N] FILE...

/// Seconds on the monotonic clock.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Writes a line on standard error.
func complain(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// The middle of the values (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 15
if arguments.first == "--runs", arguments.count > 1, let count = Int(arguments[1]), count > 0 {
    runs = count
    arguments.removeFirst(2)
}
guard !arguments.isEmpty else {
    complain("usage: herald-decode-bench [--runs N] FILE...")
    exit(64)
}
for path in arguments {
    guard let handle = fopen(path, "rb") else {
        complain("herald-decode-bench: cannot open \(path)")
        exit(66)
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&chunk, 1, chunk.count, handle)
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    fclose(handle)
    let data = Data(bytes)
    var times: [Double] = []
    var ordered = 0
    // One run not counted, so the first measured one does not pay for first use.
    for run in 0...runs {
        let start = now()
        do {
            let feed = try FeedDecoder.decode(data)
            ordered = CheckPolicy.order(Array(feed.entries.values), oldestFirst: false).count
        } catch {
            complain("herald-decode-bench: \(path): \(error)")
            exit(65)
        }
        if run > 0 { times.append(now() - start) }
    }
    print(#"{"file": "\#(path)", "bytes": \#(bytes.count), "entries": \#(ordered), "runs": \#(runs), "median_ms": \#(median(times) * 1000)}"#)
}

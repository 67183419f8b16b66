import Dispatch
import Foundation

/// Wall-clock timing on the monotonic clock.
struct Stopwatch {
    private let start = DispatchTime.now().uptimeNanoseconds

    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}

/// Facts about this process from /proc.
enum ProcessStats {
    /// Peak resident set size in MiB (VmHWM).
    static func peakResidentMiB() -> Double {
        value(of: "VmHWM") / 1024
    }

    /// Current resident set size in MiB (VmRSS).
    static func residentMiB() -> Double {
        value(of: "VmRSS") / 1024
    }

    private static func value(of field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}

/// The total size in bytes of the regular files under `path`.
func directorySize(_ path: String) -> Int {
    guard let enumerator = FileManager.default.enumerator(atPath: path) else { return 0 }
    var total = 0
    for case let name as String in enumerator {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
        if attributes?[.type] as? FileAttributeType == .typeRegular {
            total += (attributes?[.size] as? Int) ?? 0
        }
    }
    return total
}

/// Percentiles of a list of samples.
func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}

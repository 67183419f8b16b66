import CLZ4
import Foundation

/// Each record compressed on its own with `LZ4_compress_default`, length-prefixed, written in
/// large buffered writes with one fsync at the end: what compression per record buys.
struct LZ4PerRecordPeer: AppendPeer {
    let name = "lz4-per-record"

    func record(_ records: [Workload.Record], into directory: String) throws -> Int {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/records.lz4r"
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        var scratch = [UInt8](repeating: 0, count: Int(LZ4_compressBound(4096)))
        for record in records {
            let raw = record.rawEncoding(previousTime: record.timestamp)
            let written = scratch.withUnsafeMutableBytes { out in
                raw.withUnsafeBytes { LZ4_compress_default($0.baseAddress, out.baseAddress, Int32(raw.count), Int32(out.count)) }
            }
            buffer.append(UInt8(truncatingIfNeeded: written))
            buffer.append(UInt8(truncatingIfNeeded: written >> 8))
            buffer.append(contentsOf: scratch[0..<Int(written)])
            if buffer.count >= 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
        try handle.synchronize()
        try handle.close()
        return directorySize(directory)
    }

    /// Walks the length prefixes: each must frame a whole compressed record.
    func storedRecords(in directory: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/records.lz4r")))
        var offset = 0
        var count = 0
        while offset + 2 <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            offset += 2 + length
            count += 1
        }
        return offset == bytes.count ? count : -1
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `Tests/ProviderServer/provider_server.py` running on 127.0.0.1: a local Open Library, Google
/// Books and NDL Search answering from fixtures, or with one fault (see the script's doc). Stopped
/// (SIGTERM) when released; never a request to the internet.
public final class ProviderServer {
    /// The folder of the script and its fixtures.
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ProviderServer").path

    public let port: Int
    private let process: Process
    /// Where the script writes each request it receives (its third argument).
    private let logFile = NSTemporaryDirectory() + "provider-server-\(UUID().uuidString).log"

    /// `http://127.0.0.1:<port>`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// Starts the server in `mode` (`normal`, `status 429:1`, `drip`…) and waits for its port.
    public init(_ mode: String = "normal", _ argument: String? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["\(Self.folder)/provider_server.py", logFile, mode] + (argument.map { [$0] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw ServerError(message: "provider_server.py printed no port")
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the test runner's threads block SIGTERM, and a child inherits that mask.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: logFile)
    }

    public struct ServerError: Error { public let message: String }

    /// The requests received: (monotonic seconds, path with query, User-Agent), in order.
    public func log() throws -> [(time: Double, path: String, userAgent: String)] {
        let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
            return (Double(fields[0]) ?? 0, fields[1], fields.count > 2 ? fields[2] : "")
        }
    }

    /// A port on 127.0.0.1 with nothing listening (bound, then closed): a provider that is down.
    public static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length)
                return getsockname(fd, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

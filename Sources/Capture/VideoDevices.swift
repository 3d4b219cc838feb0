// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Finds V4L2 device nodes.
public enum VideoDevices {
    /// The `video<N>` entries of `directory` (default `/dev`), as full paths sorted by N.
    ///
    /// The directory can be changed with the `ISBNSCAN_DEV_DIR` environment variable, a test
    /// hook (the fake device in the test suite cannot create nodes in `/dev`).
    public static func paths(in directory: String? = nil) -> [String] {
        let directory = directory ?? (getenv("ISBNSCAN_DEV_DIR").map { String(cString: $0) } ?? "/dev")
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var found: [(Int, String)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)), number >= 0 else { continue }
            found.append((number, directory.hasSuffix("/") ? directory + name : directory + "/" + name))
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

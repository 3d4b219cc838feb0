// SPDX-License-Identifier: Apache-2.0
import CV4L2
import FakeV4L2
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The fake V4L2 device loaded into this test process: CV4L2's system calls are routed
/// through it (`isc_v4l2_use_syscalls_from`), so library code runs against it without
/// LD_PRELOAD (which cannot be set once a process runs). Only CV4L2's calls go there; the
/// rest of the process uses libc as usual.
enum InProcessFake {
    static let routed: Result<String, FakeV4L2.BuildError> = {
        FakeV4L2.built.flatMap { path in
            var message = [CChar](repeating: 0, count: 512)
            guard isc_v4l2_use_syscalls_from(path, &message, message.count) == 0 else {
                return .failure(FakeV4L2.BuildError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
            }
            return .success(path)
        }
    }()

    /// Routes CV4L2 through the fake and gives it `settings` (names without the
    /// `FAKE_V4L2_` prefix) through `fake_v4l2_use_settings`, which replaces the environment:
    /// no setenv while other suites spawn processes. Serialized suites only.
    static func configure(_ settings: [String: String]) throws {
        let use = unsafeBitCast(try symbol("fake_v4l2_use_settings"), to: (@convention(c) (UnsafePointer<CChar>?) -> Void).self)
        let text = settings.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        text.withCString { use($0) }
    }

    /// A function the fake exports.
    static func symbol(_ name: String) throws -> UnsafeMutableRawPointer {
        let path = try routed.get()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD) else {
            throw FakeV4L2.BuildError(message: "\(path) is not loaded")
        }
        defer { dlclose(handle) }
        guard let symbol = dlsym(handle, name) else { throw FakeV4L2.BuildError(message: "no \(name) in \(path)") }
        return symbol
    }

    /// A counter the fake exports (`fake_v4l2_open_devices`, `fake_v4l2_live_mappings`).
    static func counter(_ name: String) throws -> Int {
        let function = unsafeBitCast(try symbol(name), to: (@convention(c) () -> Int32).self)
        return Int(function())
    }

    /// Descriptors of this process that belong to the fake (device and buffer memfds), from
    /// /proc/self/fd. Counting only these keeps the check exact while other suites open and
    /// close files in parallel.
    static func openFakeDescriptors() -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { entry in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry)) ?? ""
            return target.contains("fakev4l2")
        }.count
    }

    /// Mappings of the fake's buffers in /proc/self/maps.
    /// The fake's buffers mapped in this process, from /proc/self/maps. The kernel writes that
    /// file a page at a time, so while other tests' threads map or unmap memory one read can skip
    /// lines: it is read (with read(2), to its end) until two reads in a row agree.
    static func fakeMappings() -> Int {
        func count() -> Int? {
            let fd = open("/proc/self/maps", O_RDONLY)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { return nil }
                if n == 0 { break }
                bytes += chunk[0..<n]
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { $0.contains("fakev4l2-buffer") }.count
        }
        var last = count()
        for _ in 0..<50 {
            let now = count()
            if let now, now == last { return now }
            last = now
        }
        return last ?? -1
    }
}

import CV4L2
import FakeV4L2
import Foundation

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

    static let keys = ["DEVICE", "FRAMES", "FRAMES_PER_IMAGE", "LOOP", "FORMATS", "SIZES", "PAD", "FPS", "IO",
                       "CARD", "FAULT", "LOG"]

    /// Routes CV4L2 through the fake and sets its configuration (keys without the
    /// `FAKE_V4L2_` prefix); every other setting is cleared. Serialized suites only.
    static func configure(_ settings: [String: String]) throws {
        _ = try routed.get()
        for key in keys { unsetenv("FAKE_V4L2_" + key) }
        for (key, value) in settings { setenv("FAKE_V4L2_" + key, value, 1) }
    }

    /// A counter the fake exports (`fake_v4l2_open_devices`, `fake_v4l2_live_mappings`).
    static func counter(_ name: String) throws -> Int {
        let path = try routed.get()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD), let symbol = dlsym(handle, name) else {
            throw FakeV4L2.BuildError(message: "no \(name) in \(path)")
        }
        dlclose(handle)
        let function = unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)
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
    static func fakeMappings() -> Int {
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        return maps.split(separator: "\n").filter { $0.contains("fakev4l2-buffer") }.count
    }
}

let testImages = FakeV4L2.testImages

// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Imaging
public import Scanning
import Synchronization

/// One input's outcome, delivered in input order.
public enum BatchOutcome: Sendable {
    /// The file was read (``FileScanResult/report`` set) or could not be
    /// (``FileScanResult/error`` set).
    case scanned(FileScanResult)
    /// Found in a folder, and its bytes are no image while its name does not claim to be one
    /// (a `.txt` beside the photos): left out, only counted.
    case skipped(path: String)
}

/// Scans many files on several threads and hands the results back in input order.
///
/// Each worker thread builds its own ``FileScanner`` (zbar image scanners are not thread-safe)
/// and reuses it for every file it takes. Workers take the next input in order, so at most
/// about `jobs` results wait for an earlier, slower file: memory stays flat however many files
/// there are. ``stop()`` (e.g. from a SIGINT handler's flag) makes workers take no new file;
/// the ones in flight finish and are delivered, so what has been delivered is a contiguous
/// prefix of the inputs.
public final class BatchScanner: Sendable {
    /// The default worker count: the CPUs online (`sysconf(_SC_NPROCESSORS_ONLN)`, what
    /// Foundation's `ProcessInfo.activeProcessorCount` returns on a cgroup v2 system such as
    /// Debian 12; Foundation is not used, so the installed binary need not carry it).
    public static var defaultJobs: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Worker threads, ≥ 1.
    public let jobs: Int
    private let makeScanner: @Sendable () -> FileScanner
    private let stopped = Atomic<Bool>(false)

    /// - Parameters:
    ///   - jobs: worker threads (`-j`); clamped to 1…the number of inputs at run time.
    ///   - makeScanner: builds one worker's scanner; called once on each worker thread.
    public init(jobs: Int, makeScanner: @escaping @Sendable () -> FileScanner) {
        precondition(jobs >= 1, "BatchScanner: jobs must be at least 1")
        self.jobs = jobs
        self.makeScanner = makeScanner
    }

    /// Asks the workers to take no new input. Safe from any thread.
    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Scans `inputs` and calls `deliver` on the calling thread with each input's index and
    /// outcome, in index order. Between deliveries, at least every `tick` seconds, calls
    /// `idle` (progress redraws, polling an interruption flag); it may call ``stop()``. After a
    /// stop, files in flight get `grace` seconds to finish.
    ///
    /// - Returns: how many inputs were delivered (all of them unless stopped).
    @discardableResult
    public func run(_ inputs: [BatchInput], tick: Double = 0.1, grace: Double = 5, idle: () -> Void = {},
                    deliver: (Int, BatchOutcome) -> Void) -> Int {
        guard !inputs.isEmpty else { return 0 }
        let state = SharedState()
        let workers = min(jobs, inputs.count)
        let finished = DispatchGroup()
        var started = 0
        for _ in 0..<workers {
            finished.enter()
            let worker: @Sendable () -> Void = { [self] in
                defer { finished.leave() }
                let scanner = makeScanner()
                while !isStopped, let index = state.claim(limit: inputs.count) {
                    let outcome = Self.scan(inputs[index], with: scanner)
                    state.complete(index, outcome)
                }
            }
            if WorkerThread.start(stackSize: 8 << 20, worker) {
                started += 1
            } else if started == 0 {
                worker()  // no thread at all (EAGAIN): scan here, then deliver
                started += 1
            } else {
                finished.leave()  // fewer workers than asked for
            }
        }
        var next = 0
        while next < inputs.count {
            let ready = state.take(from: next)
            for outcome in ready {
                deliver(next, outcome)
                next += 1
            }
            if next == inputs.count || isStopped { break }
            if ready.isEmpty {
                _ = state.signal.wait(timeout: .now() + tick)
                idle()
            }
        }
        // Stopped: the files in flight finish (within `grace` seconds; a worker blocked reading
        // a FIFO or a terminal is left behind and its file dropped); deliver them too, a
        // contiguous prefix since inputs are taken in order.
        if isStopped {
            _ = finished.wait(timeout: .now() + grace)
        } else {
            finished.wait()
        }
        for outcome in state.take(from: next) {
            deliver(next, outcome)
            next += 1
        }
        return next
    }

    private static func scan(_ input: BatchInput, with scanner: FileScanner) -> BatchOutcome {
        if let error = input.error {
            return .scanned(FileScanResult(path: error.path, report: nil, error: error, imageSize: nil))
        }
        let result = scanner.scanFile(path: input.path)
        if input.foundInFolder, let error = result.error, isQuietlySkipped(error, name: input.path.lastComponent) {
            return .skipped(path: result.path)
        }
        return .scanned(result)
    }

    /// Whether `input` will be left out as a non-image (``BatchOutcome/skipped(path:)``),
    /// judged as ``run(_:tick:grace:idle:deliver:)`` judges it but from the first 16 bytes only:
    /// a file found in a folder, empty or without an image signature, whose name does not end
    /// like an image. Files so named are not even opened. For a progress total that counts only
    /// the files that will be scanned. Uses open(2) and read(2).
    public static func willBeLeftOut(_ input: BatchInput) -> Bool {
        guard input.foundInFolder, input.error == nil else { return false }
        let name = input.path.lastComponent
        guard isQuietlySkipped(.notAnImage(path: ""), name: name) else { return false }
        let fd = input.path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return false }  // reported as an error when scanned
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        var header = [UInt8](repeating: 0, count: 16)
        var count = 0
        while count < header.count {
            let got = header.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return false }
            if got == 0 { break }
            count += got
        }
        let bytes = header.prefix(count)
        guard !bytes.isEmpty else { return isQuietlySkipped(.empty(path: ""), name: name) }
        guard ImageFormat.sniff(bytes) == nil else { return false }
        let decoded = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageError) -> DecodedImage in try ImageLoader.decode(raw, path: "") }
        }
        guard case .failure(let error) = decoded else { return false }
        return isQuietlySkipped(error, name: name)
    }

    /// File-name endings of the formats isbnscan reads, and of common photo formats it does
    /// not: a file so named that is empty or no image is reported, not skipped. Lowercase, without the dot.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif", "png", "pgm", "ppm", "pnm",
                                                "gif", "bmp", "tif", "tiff", "webp", "heic", "heif", "avif"]

    static func isQuietlySkipped(_ error: ImageError, name: ArraySlice<UInt8>) -> Bool {
        switch error {
        case .notAnImage, .empty: break
        default: return false
        }
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return true }
        let suffix = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        return !imageExtensions.contains(suffix)
    }
}

/// The workers' queue position and finished results, behind one lock.
private final class SharedState: Sendable {
    private struct Queue {
        var claimed = 0
        var done: [Int: BatchOutcome] = [:]
    }
    private let queue = Mutex(Queue())
    /// Signalled once per completed input.
    let signal = DispatchSemaphore(value: 0)

    func claim(limit: Int) -> Int? {
        queue.withLock { queue in
            guard queue.claimed < limit else { return nil }
            defer { queue.claimed += 1 }
            return queue.claimed
        }
    }

    func complete(_ index: Int, _ outcome: BatchOutcome) {
        queue.withLock { $0.done[index] = outcome }
        signal.signal()
    }

    /// The finished outcomes from `start` on that have no gap before them, removed.
    func take(from start: Int) -> [BatchOutcome] {
        queue.withLock { queue in
            var out: [BatchOutcome] = []
            var index = start
            while let outcome = queue.done.removeValue(forKey: index) {
                out.append(outcome)
                index += 1
            }
            return out
        }
    }
}

/// A detached POSIX thread running one closure (`pthread_create(3)`), with a stack of a given
/// size: decoding large images recurses little but keeps big frames, 8 MiB like the main thread.
private enum WorkerThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread with `stackSize` bytes of stack; `false` when
    /// `pthread_create` fails (EAGAIN: too many threads), and then `body` is not run.
    static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if status != 0 { Unmanaged<Body>.fromOpaque(context).release() }
        return status == 0
    }
}

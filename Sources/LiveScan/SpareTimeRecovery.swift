// SPDX-License-Identifier: Apache-2.0
import Imaging
import ISBN
import Scanning
import Synchronization
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The recovery stages of the ``Effort/normal`` search plan (the full scan of the areas around
/// barcode-like regions, the recovery passes, the symbol fit: ``MultiPassDecoder/decode(_:around:)``)
/// run on camera frames in the time the cheap scan leaves over, so that a blurred book is read
/// with the default options while the frame rate holds.
///
/// A frame whose cheap scan read nothing but whose map found something barcode-like is handed
/// over (``offer(_:candidates:first:region:)``) when no attempt is under way and the last one's
/// report has been taken, else it is left: the next frame is as good. Its report comes back on a
/// later frame (``take(region:)``) and counts as that frame's sighting: one frame's pixels are
/// one piece of evidence, and the session's ``FrameConfirmer`` confirms a code only once enough
/// frames agree, as for any other reading.
///
/// ``Mode/background``: the attempts run on a thread of their own, 10 nice levels below the
/// process (setpriority(2); a per-thread value on Linux), so on a busy core the capture loop comes first and the attempt
/// takes what is left. ``Mode/inline``: each attempt runs at once on the calling thread, its
/// report ready on the same frame (tests: the same frames give the same readings).
///
/// Owns the thread (joined when the recovery is released; an attempt under way is finished
/// first) and, on it, its own ``MultiPassDecoder`` and zbar scanner.
final class SpareTimeRecovery {
    enum Mode: Sendable { case background, inline }

    /// One frame's region handed over: its pixels (a copy: the frame's buffer goes back to the
    /// camera) and where the map found something barcode-like in it.
    struct Attempt: Sendable {
        var width: Int
        var height: Int
        var pixels: [UInt8]
        /// The map's regions of this frame.
        var candidates: [Candidate]
        /// A region looked at before them: where an earlier attempt read a code
        /// (``FrameScanner/readPlace``).
        var first: Candidate?
        /// The region of the frame the pixels are (pixels of the frame): a report for another
        /// region is not handed back.
        var region: PixelRect
    }

    /// An attempt's report (polygons in pixels of the attempt's region).
    struct Outcome: Sendable {
        var report: ScanReport
        /// The map's regions the attempt was handed, and the region looked at before them
        /// (pixels of its region).
        var candidates: [Candidate]
        var first: Candidate?
        var region: PixelRect
        /// Wall-clock seconds the attempt took.
        var seconds: Double
    }

    private struct State {
        var next: Attempt?
        var busy = false
        var done: Outcome?
        var stop = false
        var lastSeconds = 0.0
    }

    /// What the caller's thread and the recovery's share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let wake = DispatchSemaphore(value: 0)
    }

    let mode: Mode
    private let shared: Shared
    /// The thread of ``Mode/background`` attempts.
    private let worker: Worker?
    /// The decoder of ``Mode/inline`` attempts (the thread makes its own).
    private let inlineDecoder: MultiPassDecoder?
    /// Attempts handed over so far.
    private(set) var attempts = 0

    /// - Parameter mode: ``Mode/background`` falls back to ``Mode/inline`` when its thread cannot
    ///   be started (pthread_create failed): slower frames, the same readings.
    init(mode: Mode, scannerOptions: ScannerOptions, accepting prefixes: ISBNPrefixes) {
        let policy = {
            var policy = DecodingPolicy(effort: .normal, accepting: prefixes)
            policy.registersBars = false
            policy.guessesActiveStretch = false
            return policy
        }()
        let shared = Shared()
        worker = mode == .inline ? nil : Worker {
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            _ = setpriority(which, 0, min(19, getpriority(which, 0) + 10))
            let decoder = MultiPassDecoder(scanner: BarcodeScanner(options: scannerOptions), policy: policy)
            while true {
                shared.wake.wait()
                guard let attempt = shared.state.withLock({ $0.stop ? nil : $0.next }) else { return }
                let outcome = Self.run(attempt, with: decoder)
                shared.state.withLock {
                    $0.next = nil
                    $0.done = outcome
                    $0.lastSeconds = outcome.seconds
                    $0.busy = false
                }
            }
        }
        self.mode = worker == nil ? .inline : .background
        self.shared = shared
        inlineDecoder = worker == nil ? MultiPassDecoder(scanner: BarcodeScanner(options: scannerOptions), policy: policy) : nil
    }

    /// Wall-clock seconds the last attempt finished took (0 before the first).
    var lastSeconds: Double { shared.state.withLock { $0.lastSeconds } }

    /// Whether an attempt is under way, or its report not yet taken (``Mode/background``): the
    /// next attempt is handed over only once the caller knows what the last one found.
    var isBusy: Bool { shared.state.withLock { $0.busy || $0.done != nil } }

    /// Hands `image` over when no attempt is under way; returns whether it was taken. The attempt
    /// looks at `first`, then at `candidates`.
    func offer(_ image: LuminanceImage, candidates: [Candidate], first: Candidate? = nil, region: PixelRect) -> Bool {
        let attempt = Attempt(width: image.width, height: image.height, pixels: image.pixels,
                              candidates: candidates, first: first, region: region)
        if let inlineDecoder {
            attempts += 1
            let outcome = Self.run(attempt, with: inlineDecoder)
            shared.state.withLock {
                $0.done = outcome
                $0.lastSeconds = outcome.seconds
            }
            return true
        }
        let taken = shared.state.withLock { s -> Bool in
            guard !s.busy, s.done == nil else { return false }
            s.busy = true
            s.next = attempt
            return true
        }
        if taken {
            attempts += 1
            shared.wake.signal()
        }
        return taken
    }

    /// The last attempt finished since the last call, if it was made on `region`.
    func take(region: PixelRect) -> Outcome? {
        guard let outcome = shared.state.withLock({ s -> Outcome? in defer { s.done = nil }; return s.done }),
              outcome.region == region else { return nil }
        return outcome
    }

    private static func run(_ attempt: Attempt, with decoder: MultiPassDecoder) -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let image = LuminanceImage(width: attempt.width, height: attempt.height, pixels: attempt.pixels)
        let report = decoder.decode(image, around: (attempt.first.map { [$0] } ?? []) + attempt.candidates)
        return Outcome(report: report, candidates: attempt.candidates, first: attempt.first, region: attempt.region,
                       seconds: start.duration(to: clock.now).seconds)
    }

    deinit {
        shared.state.withLock { $0.stop = true }
        shared.wake.signal()
        worker?.join()
    }
}

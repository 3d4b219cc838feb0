// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Catalog
import ISBN
import LiveScan
import Lookup
import Records
import Synchronization

/// `scan --lookup` and `camera --lookup`: books looked up on a thread of their own, after
/// they are recorded, so that no scan waits for the network.
///
/// The scanning thread hands over ISBNs (``submit(_:)``) and collects the answers
/// (``drain()``) between its own work; this thread asks the providers (a batch of up to 20
/// ISBNs at a time: what has come in while the previous request ran) and, with `--db`, keeps
/// the catalogue's lookup cache on a connection of its own: each ISBN is queued as pending
/// first, and each answer stored as it comes, so a lookup the run could not finish (network
/// down, Ctrl-C) is left to `catalog lookup`. A book the catalogue has an answer for is not
/// asked again; its cached answer is handed back (``Answer/cached``), for the preview.
///
/// Once the scan is done, the answers are awaited at most ``longestWait`` (one request's
/// timeout, 15 s by default) in all: a request sent as the last file was recorded gets its whole
/// time, while a provider that stalls (accepts and never answers, or drips) no longer holds the
/// end of the run for each provider's timeout in turn (3 × 15 s, more with retries). What is
/// left stays pending in the catalogue for `catalog lookup`.
final class BackgroundLookup: @unchecked Sendable {
    // @unchecked: `state` is Mutex-protected; `semaphore` is a POSIX semaphore, made for
    // threads; `worker` is touched only by the thread that made this object.

    /// One answer for the scanning thread.
    struct Answer: Sendable {
        var record: LookupRecord
        /// The catalogue's answer from an earlier run (not asked now).
        var cached: Bool
    }

    private struct State {
        var queue: [String] = []
        var asked: Set<String> = []
        var answers: [Answer] = []
        var closing = false
        var done = false
        /// Taken by the thread and not answered yet.
        var inFlight = 0
    }

    private let state = Mutex(State())
    private let semaphore: UnsafeMutablePointer<sem_t>
    private var worker: Worker?
    /// The answers drained so far (fresh ones only).
    private(set) var tally = LookupTally()
    /// Failures that left a book without an answer, each once, in the order met.
    private(set) var failures: [String] = []
    /// The longest ``finish(shouldStop:each:)`` waits for the answers: one request's timeout.
    let longestWait: Duration
    private let catalogPath: String?
    /// The ISBNs still unanswered when ``finish(shouldStop:each:)`` stopped waiting after
    /// ``longestWait``, or `nil` when it did not.
    private var leftAtCutoff: Int?

    /// Starts the thread. `catalogPath`: the `--db` catalogue (opened again on the thread), or `nil`.
    /// Returns `nil` when the thread cannot be made.
    init?(options: LookupOptions, catalogPath: String?) {
        longestWait = .milliseconds(Int64(options.timeout * 1000))
        self.catalogPath = catalogPath
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        worker = Worker { [self] in self.work(options: options, catalogPath: catalogPath) }
        guard worker != nil else {
            sem_destroy(semaphore)
            semaphore.deallocate()
            return nil
        }
    }

    deinit {
        worker?.join()
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Hands `isbn13s` to the thread; an ISBN already handed over in this run is not asked again.
    func submit(_ isbn13s: [String]) {
        guard !isbn13s.isEmpty else { return }
        let added = state.withLock { state in
            var added = false
            for isbn13 in isbn13s where state.asked.insert(isbn13).inserted {
                state.queue.append(isbn13)
                added = true
            }
            return added
        }
        if added { sem_post(semaphore) }
    }

    /// The answers that came in since the last call, counted in ``tally``.
    func drain() -> [Answer] {
        let answers = state.withLock { state in defer { state.answers = [] }; return state.answers }
        for answer in answers where !answer.cached {
            _ = tally.add(answer.record)
            if case .failed(let messages) = answer.record.outcome {
                for message in messages where !failures.contains(message) { failures.append(message) }
            }
        }
        return answers
    }

    /// ISBNs handed over and not answered yet (queued, or being asked).
    var unanswered: Int { state.withLock { $0.queue.count + $0.inFlight } }

    /// Waits for every ISBN handed over to be answered, at most ``longestWait``, calling `each`
    /// with the answers as they come; `shouldStop` is asked between waits (Ctrl-C). Returns
    /// `false` when it stopped before the end: the thread is then left to end with the process
    /// (an uncommitted transaction of its catalogue connection is lost, never half of one).
    func finish(shouldStop: () -> Bool, each: ([Answer]) -> Void) -> Bool {
        state.withLock { $0.closing = true }
        sem_post(semaphore)
        let deadline = ContinuousClock.now + longestWait
        while true {
            let answers = drain()
            if !answers.isEmpty { each(answers) }
            if state.withLock({ $0.done }) {
                let last = drain()
                if !last.isEmpty { each(last) }
                worker?.join()
                worker = nil
                return true
            }
            if shouldStop() {
                // Joining would wait for a request in flight (up to its timeout); the process ends instead.
                Self.abandoned.withLock { $0.append(self) }
                return false
            }
            if ContinuousClock.now >= deadline {
                leaveUnanswered()
                Self.abandoned.withLock { $0.append(self) }
                return false
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// Gives up waiting: the ISBNs the thread has not taken yet are taken from it and, with a
    /// catalogue, queued there as pending (those without an answer), so that `catalog lookup`
    /// does them; the ones being asked were queued by the thread before it asked.
    private func leaveUnanswered() {
        let (left, inFlight) = state.withLock { state in
            defer { state.queue = [] }
            return (state.queue, state.inFlight)
        }
        leftAtCutoff = left.count + inFlight
        if let catalogPath, !left.isEmpty, let catalog = try? Catalog(path: catalogPath, access: .write) {
            try? catalog.queueLookups(left.filter { (try? catalog.cachedLookup(of: $0)) == nil })
        }
    }

    /// Lookups left running when their run was interrupted: kept so that no `deinit` joins them.
    private static let abandoned = Mutex<[BackgroundLookup]>([])

    /// The thread: takes what is queued, asks for it, hands the answers back, until closed and empty.
    private func work(options: LookupOptions, catalogPath: String?) {
        defer { state.withLock { $0.done = true } }
        let lookup = try? BookLookup(options: options, version: ISBNScanCommand.version)
        var catalog: Catalog?
        var catalogError: String?
        var opened = false
        while true {
            while sem_wait(semaphore) != 0 && errno == EINTR {}
            let (taken, closing) = state.withLock { state in
                let taken = Array(state.queue.prefix(Provider.openLibrary.batchSize))
                state.queue.removeFirst(taken.count)
                state.inFlight = taken.count
                return (taken, state.closing)
            }
            if taken.isEmpty {
                if closing { return }
                continue
            }
            // More may be queued than one batch: come round again without a new post.
            if state.withLock({ !$0.queue.isEmpty }) { sem_post(semaphore) }
            // Opened at the first book: a camera that never reads one leaves a new catalogue unused (it is removed).
            if let catalogPath, !opened {
                opened = true
                do { catalog = try Catalog(path: catalogPath, access: .write) } catch { catalogError = "\(error)" }
            }
            var answers: [Answer] = []
            var toAsk: [String] = []
            // A book with an answer is not asked again, unless a lookup of it is pending (a refresh cut short).
            let pending = Set(((try? catalog?.pendingLookups()) ?? []).map(\.isbn13))
            for isbn13 in taken {
                if let cached = try? catalog?.cachedLookup(of: isbn13), !pending.contains(isbn13) {
                    let outcome: LookupRecord.Outcome = cached.metadata.map { .found($0) } ?? .notFound(providers: cached.providers)
                    answers.append(Answer(record: LookupRecord(isbn13: isbn13, outcome: outcome), cached: true))
                } else {
                    toAsk.append(isbn13)
                }
            }
            try? catalog?.queueLookups(toAsk)
            let isbns = toAsk.compactMap { ISBN.judge(ean: $0, accepting: .with979).isbn }
            var records: [LookupRecord] = []
            if let lookup {
                lookup.lookUp(isbns) { records.append($0) }
            } else {
                records = toAsk.map { LookupRecord(isbn13: $0, outcome: .failed(["lookup: libcurl could not be initialised"])) }
            }
            if let catalogError {
                records = records.map { LookupRecord(isbn13: $0.isbn13, outcome: .failed(["catalogue: \(catalogError)"])) }
            } else if let catalog {
                do { try catalog.store(records) } catch {
                    records = records.map { LookupRecord(isbn13: $0.isbn13, outcome: .failed(["catalogue: \(error)"])) }
                }
            }
            answers += records.map { Answer(record: $0, cached: false) }
            state.withLock { state in
                state.answers += answers
                state.inFlight = 0
            }
        }
    }

    /// A book's line among a scan's results (without `--db`): `lookup`'s text line, or
    /// `{"book": {…}}` with `json`; `nil` for a lookup that failed (said at the end, once).
    static func line(_ record: LookupRecord, json: Bool) -> String? {
        if case .failed = record.outcome { return nil }
        return json ? JSONValue.object(["book": record.json]).encoded + "\n" : record.text + "\n"
    }

    /// The summary line on stderr: `lookup: 3 books looked up: 2 found, 1 known to no provider, 0 failed`,
    /// or `nil` when no book was looked up.
    var summaryLine: String? { tally.total > 0 ? "lookup: " + tally.summary : nil }

    /// The one line on stderr for the lookups a run could not finish, or `nil` when there are none:
    /// `Warning: 3 book lookups pending (openlibrary: cannot connect to …); 'isbnscan catalog lookup
    /// --db books.db' goes on with them`, or without a catalogue `Warning: 3 book lookups failed (…)`.
    func unfinishedLine(db: String?) -> String? {
        let left = tally.failed + (leftAtCutoff ?? unanswered)
        guard left > 0 else { return nil }
        let books = "\(left) book lookup\(left == 1 ? "" : "s")"
        var causes = failures
        if let leftAtCutoff, leftAtCutoff > 0 {
            causes.append("\(leftAtCutoff) still unanswered \(Self.seconds(longestWait)) s after the scan ended")
        }
        let causeText = causes.isEmpty ? "" : " (\(escaped(causes.joined(separator: "; "), json: false)))"
        guard let db else { return "Warning: \(books) failed\(causeText)" }
        let name = escaped(db, json: false)
        return "Warning: \(books) pending\(causeText); 'isbnscan catalog lookup --db \(name)' goes on with them"
    }

    /// `15`, `1.5`: whole seconds without a fraction.
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}

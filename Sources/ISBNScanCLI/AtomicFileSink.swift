// SPDX-License-Identifier: Apache-2.0
import Records
#if canImport(Glibc)
import Glibc
#endif


/// Writes a result file atomically (`-o FILE`): into a temporary file beside it, then
/// `fsync` + `rename(2)` over `FILE` in ``commit()``. Until then `FILE` is untouched, so a run
/// that is killed or fails never leaves a half-written result file; a run that is not
/// committed removes its temporary file in ``discard()``; a second Ctrl-C or a SIGHUP removes
/// it too (``StopSignal/removeOnFatalSignal(_:)``). Only SIGKILL or a crash can leave it.
///
/// A destination that exists and is not a regular file (`/dev/null`, a FIFO, a terminal) is
/// written directly: it cannot be replaced by a rename, and must not be.
final class AtomicFileSink: TextSink {
    /// The destination as the user named it.
    let path: String
    /// The temporary file, or `nil` when writing directly to a device or FIFO.
    private let temporaryPath: [CChar]?
    private var fd: Int32
    /// The first `errno` a write failed with; ``commit()`` reports it.
    private var writeError: Int32 = 0
    var writeFailed: Bool { writeError != 0 }
    /// Set once the temporary file is renamed (or removed): nothing left to clean up.
    private var settled = false

    /// The file that is replaced: `path`, or the file a symbolic link at `path` points to (the
    /// link itself stays a link).
    private let target: String

    /// Creates the temporary file `.<name>.isbnscan-XXXXXX` in the folder of `path` (of the
    /// file it links to, if it is a symbolic link; just `.isbnscan-XXXXXX` when the name is
    /// too long for a suffix). Paths under `/dev/` and `/proc/` (`/dev/stdout`) and existing
    /// files that are not regular files are written directly.
    ///
    /// - Throws: ``OutputError`` when the folder cannot be written.
    init(path: String) throws(OutputError) {
        self.path = path
        var target = path
        var link = stat()
        let special = path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
        if !special, lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw OutputError(path: path, cause: "symbolic link to a missing file or folder")
            }
            target = String(cString: resolved)
            free(resolved)
        }
        self.target = target
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        guard !name.isEmpty else { throw OutputError(path: path, cause: "is a directory") }
        var existing = stat()
        let exists = stat(target, &existing) == 0
        if special || (exists && (existing.st_mode & S_IFMT) != S_IFREG) {
            guard !exists || (existing.st_mode & S_IFMT) != S_IFDIR else { throw OutputError(path: path, cause: "is a directory") }
            let fd = open(target, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw OutputError(path: path, cause: String(cString: strerror(errno))) }
            self.fd = fd
            self.temporaryPath = nil
            return
        }
        let prefix = name.utf8.count > 200 ? "" : "." + name
        var template = Array((folder + prefix + ".isbnscan-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw OutputError(path: path, cause: String(cString: strerror(errno))) }
        self.fd = fd
        self.temporaryPath = template
        StopSignal.removeOnFatalSignal(template)
    }

    deinit { discard() }

    func write(_ text: String) {
        guard fd >= 0, writeError == 0 else { return }
        writeError = writeAll(text, to: fd)
    }

    /// Bytes that are not text (the range message's compact table).
    func write(bytes: [UInt8]) {
        guard fd >= 0, writeError == 0 else { return }
        writeError = bytes.withUnsafeBufferPointer { writeAll($0, to: fd) }
    }

    /// Flushes to disk and renames the temporary file to ``path``; the file gets the mode a
    /// newly created file would (0666 minus the umask), or keeps the mode of the file it replaces.
    ///
    /// - Throws: ``OutputError`` when a write, `fsync` or `rename` failed (the temporary file is removed).
    func commit() throws(OutputError) {
        guard fd >= 0 else { return }
        defer { discard() }
        if writeError != 0 { throw OutputError(path: path, cause: "write failed: \(String(cString: strerror(writeError)))") }
        guard let temporaryPath else { return }
        var existing = stat()
        let mode: mode_t
        if stat(target, &existing) == 0 {
            mode = existing.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        fchmod(fd, mode)
        guard fsync(fd) == 0 else { throw OutputError(path: path, cause: "fsync failed: \(String(cString: strerror(errno)))") }
        close(fd)
        fd = -1
        guard rename(temporaryPath, target) == 0 else {
            throw OutputError(path: path, cause: String(cString: strerror(errno)))
        }
        settled = true
        StopSignal.removeOnFatalSignal(nil)
    }

    /// Closes and removes the temporary file, if still there. ``path`` is left as it was.
    func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        if !settled, let temporaryPath {
            unlink(temporaryPath)
            StopSignal.removeOnFatalSignal(nil)
        }
        settled = true
    }
}

/// The result file (`-o`) could not be written.
struct OutputError: Error, CustomStringConvertible {
    let path: String
    let cause: String
    var description: String { "\(escaped(path, json: false)): cannot write the output file: \(cause)" }
}

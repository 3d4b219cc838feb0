// SPDX-License-Identifier: Apache-2.0
import Batch
import Catalog
import Imaging
import Records
#if canImport(Glibc)
import Glibc
#endif

/// The files a scan reads: the paths given, then those `--files-from` lists, folders walked,
/// only `--shard`'s files kept, and the `--db` catalogue's own journal files left out.
struct ScanInputs {
    /// The walk of every path; its inputs are the files to read, in order.
    let walk: FolderWalk
    /// Results name their file (`<file>: <isbn13>`): several paths, a folder, a list or a shard given.
    let showNames: Bool

    /// The inputs `positionals` and the `--files-from` list of `settings` name, or the message
    /// saying why that list cannot be read.
    /// - Throws: ``UsageError`` for no path at all, '-' given twice (or as both the list and
    ///   an image), or a NUL in a line of the list.
    static func gather(_ positionals: [[UInt8]], settings: ScanCommand.Settings) throws(UsageError) -> Result<ScanInputs, ListError> {
        guard !positionals.isEmpty || settings.filesFrom != nil else { throw UsageError("no image file or folder given") }
        var paths = positionals.map(RawPath.init(bytes:))
        switch try listed(settings, after: paths) {
        case .success(let listed): paths += listed
        case .failure(let error): return .failure(error)
        }
        if paths.filter(\.isStandardInput).count > 1 { throw UsageError("'-' (standard input) can be given only once") }

        var walk = FolderWalker.walk(paths, options: settings.walk)
        if let shard = settings.shard { walk.inputs.removeAll { !shard.contains($0.path) } }
        // The --db catalogue's own journal files in a folder walked come and go as its writers
        // work (another scan of the same folder may be creating it): not inputs.
        if let db = settings.db { walk.inputs.removeAll { $0.foundInFolder && ScanCommand.isJournal($0.path.bytes, of: db) } }
        let showNames = paths.count > 1 || walk.foldersGiven > 0 || settings.filesFrom != nil || settings.shard != nil
        return .success(ScanInputs(walk: walk, showNames: showNames))
    }

    /// The inputs, files given and files found in folders.
    var count: Int { walk.inputs.count }

    /// The files that will be scanned (the progress bar's total): not the non-images left out.
    var toScan: Int { walk.inputs.count { !BatchScanner.willBeLeftOut($0) } }

    /// `Warning: <folder>: folder already walked …` (with its newline) for each folder the walk
    /// reached again, then `Warning: <file>: file already taken as <first> …` for each file.
    var revisitedWarnings: [String] {
        walk.revisitedFolders.map {
            "Warning: \(escaped($0.description, json: false)): folder already walked (named twice, or reached again through a symbolic link), not entered again\n"
        } + walk.revisitedFiles.map {
            "Warning: \(escaped($0.path.description, json: false)): file already taken as \(escaped($0.sameAs.description, json: false)) "
                + "(named twice, or the same file under another name), not scanned again\n"
        }
    }

    /// Refuses an `output` file (`-o`) that would overwrite one of the inputs, the `db` catalogue
    /// or its journal files.
    /// - Throws: ``UsageError`` naming the file it is.
    func refuseOverwriting(output: String?, db: String?) throws(UsageError) {
        if let output, let clash = input(sameFileAs: output) {
            throw UsageError("--output \(escaped(output, json: false)) is the input \(escaped(clash, json: false)); refusing to overwrite it")
        }
        if let output, let db { try Self.refuseOverwriting(catalogue: db, with: output) }
    }

    /// Refuses an `output` file (`scan -o`, `catalog export -o`) that is the catalogue `db`
    /// or one of its journal files (`-wal`, `-shm`, `-journal`) under any name: the results
    /// written over the catalogue would replace every book it holds, and over a journal would
    /// lose the writes it holds or corrupt the catalogue.
    ///
    /// A journal that does not exist yet is matched by path: SQLite names it after the
    /// catalogue's path with its symbolic links resolved, so both paths are resolved.
    /// - Throws: ``UsageError`` naming both.
    static func refuseOverwriting(catalogue db: String, with output: String) throws(UsageError) {
        if isSameFile(output, db) {
            throw UsageError("--output \(escaped(output, json: false)) is the --db catalogue \(escaped(db, json: false)); refusing to overwrite it")
        }
        let resolvedOutput = resolved(output), resolvedDB = resolved(db)
        for suffix in ["-wal", "-shm", "-journal"] where isSameFile(output, db + suffix) || resolvedOutput == resolvedDB + suffix {
            throw UsageError("--output \(escaped(output, json: false)) is \(escaped(db + suffix, json: false)), a journal file of the --db catalogue \(escaped(db, json: false)); refusing to overwrite it")
        }
    }

    /// The absolute path of the file `path` names, whether it exists or not: the symbolic
    /// links at `path` followed to the name they end at, then that name's folder resolved by
    /// realpath(3) (or, when the folder does not exist, with `.`, `..` and repeated slashes
    /// taken out).
    static func resolved(_ path: String) -> String {
        var path = path
        // 40 links at most, as the kernel follows (ELOOP beyond).
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count > 0 else { break }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") { path = target } else {
                path = (path.lastIndex(of: "/").map { String(path[...$0]) } ?? "") + target
            }
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if !name.isEmpty, name != ".", name != "..", let real = realpath(folder, nil) {
            defer { free(real) }
            let base = String(cString: real)
            return (base == "/" ? "" : base) + "/" + name
        }
        return absolute(path)
    }

    /// The paths `--files-from` lists (none without it), or the message saying why the list
    /// cannot be read.
    /// - Throws: ``UsageError`` for '-' given as both the list and an image, or a NUL in a line.
    static func listed(_ settings: ScanCommand.Settings, after paths: [RawPath]) throws(UsageError) -> Result<[RawPath], ListError> {
        guard let list = settings.filesFrom else { return .success([]) }
        if list == "-" && paths.contains(where: \.isStandardInput) {
            throw UsageError("--files-from - reads the list from standard input; '-' cannot also be an image")
        }
        switch FileList.read(list, nulSeparated: settings.nulSeparated) {
        case .success(let listed):
            if list == "-" && listed.contains(where: \.isStandardInput) {
                throw UsageError("the list on standard input names '-' (standard input) as an image")
            }
            return .success(listed)
        case .failure(.unreadable(let message)):
            return .failure(ListError(message: message))
        case .failure(.nulInLine(let message)):
            throw UsageError(message)
        }
    }

    /// Why the `--files-from` list cannot be read: the `Error:` line for stderr.
    struct ListError: Error { let message: String }

    /// Whether `a` and `b` name one file: the same device and inode, or, when neither exists
    /// yet, the same absolute path once `.`, `..` and repeated slashes are taken out.
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        if Catalog.sameFile(a, b) { return true }
        return access(a, F_OK) != 0 && access(b, F_OK) != 0 && absolute(a) == absolute(b)
    }

    /// `path` made absolute (from the working folder), with `.`, `..` and repeated slashes
    /// taken out by name alone.
    static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            full = String(cString: cwd) + "/" + path
            free(cwd)
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The input that is the same file as `output` (same device and inode), if any.
    func input(sameFileAs output: String) -> String? {
        var target = stat()
        guard stat(output, &target) == 0 else { return nil }
        for input in walk.inputs where !input.path.isStandardInput {
            var info = stat()
            if input.path.withCString({ stat($0, &info) }) == 0, info.st_dev == target.st_dev, info.st_ino == target.st_ino {
                return input.path.description
            }
        }
        return nil
    }
}

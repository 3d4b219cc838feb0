// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
public import Imaging

/// One thing to scan, in the order results are reported.
public struct BatchInput: Sendable, Equatable {
    /// The file, as given or as found (folder path + `/` + entry name).
    public var path: RawPath
    /// Found by walking a folder, rather than named on the command line. Such a file is
    /// skipped quietly when its bytes are no image and its name does not claim to be one.
    public var foundInFolder: Bool
    /// Set when the walk already knows the input cannot be read (an unreadable subfolder,
    /// a broken symbolic link); it is reported at its place in the order.
    public var error: ImageError?

    public init(path: RawPath, foundInFolder: Bool, error: ImageError? = nil) {
        self.path = path
        self.foundInFolder = foundInFolder
        self.error = error
    }
}

/// How ``FolderWalker`` descends.
public struct WalkOptions: Sendable, Equatable {
    /// Descend into subfolders (`-r`). Without it a folder's own files are taken, its
    /// subfolders counted in ``FolderWalk/skippedFolders``.
    public var recursive = false
    /// Take entries whose name starts with `.` (`--hidden`). Paths named on the command
    /// line are always taken.
    public var includeHidden = false

    public init(recursive: Bool = false, includeHidden: Bool = false) {
        self.recursive = recursive
        self.includeHidden = includeHidden
    }
}

/// What a walk found.
public struct FolderWalk: Sendable {
    /// Folders named on the command line (walked or not).
    public var foldersGiven = 0
    /// Files to scan (and walk errors), in report order.
    public var inputs: [BatchInput] = []
    /// Hidden entries left out (no `--hidden`).
    public var skippedHidden = 0
    /// Subfolders left out (no `-r`).
    public var skippedFolders = 0
    /// Folders not entered again because they were already walked: a symbolic link loop, or
    /// two links to one folder. Each is reported once as a warning.
    public var revisitedFolders: [RawPath] = []
    /// Files not taken again because they were taken already (by device and inode): a file
    /// named twice on the command line (under the same path or another, or through a link), or
    /// a file named that a folder walked also holds. Each is reported once as a warning.
    public var revisitedFiles: [RevisitedFile] = []
    /// Entries that are neither files nor folders (FIFOs, sockets, devices): left out.
    public var skippedSpecial = 0
    /// Folders of the kernel's file systems (`/proc`, `/sys`, `/dev`) or the root folder `/`
    /// reached while walking (a link such as `/proc/self/root`): not entered unless named.
    public var skippedSystem = 0
}

/// A file the walk did not take again (``FolderWalk/revisitedFiles``).
public struct RevisitedFile: Sendable, Equatable {
    /// The path as given or found this time.
    public var path: RawPath
    /// The path the same file was taken under first.
    public var sameAs: RawPath
}

/// Expands command-line paths into the files to scan: files as given, folders walked.
///
/// Order: command-line paths in the order given; inside a folder, entries sorted byte-wise by
/// name (as `ls` in the C locale), a subfolder's files at the subfolder's place. Symbolic links
/// are followed; a folder already walked (identified by device and inode) is not entered
/// again, so link loops end; a file named on the command line is taken once, at its first
/// place, however often it is named or also found in a folder walked (files found only in
/// folders are all taken, hard links included: they are the folder's content); `/proc`, `/sys`, `/dev` and `/` are not entered from another
/// folder (``FolderWalk/skippedSystem``), only when named or walked from inside themselves. Uses `stat(2)`, `opendir(3)`/`readdir(3)`.
public enum FolderWalker {
    public static func walk(_ paths: [RawPath], options: WalkOptions = WalkOptions()) -> FolderWalk {
        var walk = FolderWalk()
        var visited = Set<FileIdentity>()
        var files = TakenFiles()
        for path in paths {
            var info = stat()
            let found = !path.isStandardInput && path.withCString { stat($0, &info) } == 0
            if found && (info.st_mode & S_IFMT) == S_IFDIR {
                walk.foldersGiven += 1
                walkFolder(path, identity: FileIdentity(info), options: options, named: systemFolder(of: path),
                           visited: &visited, files: &files, into: &walk)
            } else if found && (info.st_mode & S_IFMT) == S_IFREG, let first = files.taken[FileIdentity(info)] {
                walk.revisitedFiles.append(RevisitedFile(path: path, sameAs: first))
            } else {
                if found && (info.st_mode & S_IFMT) == S_IFREG {
                    files.taken[FileIdentity(info)] = path
                    files.named.insert(FileIdentity(info))
                }
                // Files, `-`, and paths that do not exist: the loader reports what is wrong.
                walk.inputs.append(BatchInput(path: path, foundInFolder: false))
            }
        }
        return walk
    }

    /// The regular files taken so far, by identity, with the path each was taken under; and
    /// which of them were named on the command line.
    private struct TakenFiles {
        var taken: [FileIdentity: RawPath] = [:]
        var named = Set<FileIdentity>()
    }

    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Where the kernel's file systems live: walking into them reads every process's files
    /// (`/proc/<pid>/root` is the whole file system again) or devices.
    static let systemFolders: [[UInt8]] = ["/proc", "/sys", "/dev"].map { Array($0.utf8) }

    /// The system folder `path` lies in (by its canonical path, or the text of the symbolic
    /// link it is), `[]` for `/` itself, or `nil`. Uses realpath(3) and readlink(2).
    static func systemFolder(of path: RawPath) -> [UInt8]? {
        func within(_ bytes: [UInt8]) -> [UInt8]? {
            if bytes == [UInt8(ascii: "/")] { return [] }
            return systemFolders.first { bytes.starts(with: $0) && (bytes.count == $0.count || bytes[$0.count] == UInt8(ascii: "/")) }
        }
        var target = [CChar](repeating: 0, count: 4097)
        let length = path.withCString { readlink($0, &target, 4096) }
        if length > 0, let found = within(target[0..<length].map { UInt8(bitPattern: $0) }) { return found }
        guard let resolved = path.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return within(Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
    }

    private static func walkFolder(_ folder: RawPath, identity: FileIdentity, options: WalkOptions, named: [UInt8]?,
                                   visited: inout Set<FileIdentity>, files: inout TakenFiles, into walk: inout FolderWalk) {
        guard visited.insert(identity).inserted else {
            walk.revisitedFolders.append(folder)
            return
        }
        let names: [[UInt8]]
        switch listFolder(folder) {
        case .success(let list): names = list
        case .failure(let error):
            walk.inputs.append(BatchInput(path: folder, foundInFolder: true, error: error))
            return
        }
        for name in names {
            if name.first == UInt8(ascii: ".") && !options.includeHidden {
                walk.skippedHidden += 1
                continue
            }
            let path = folder.appending(name)
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0 else {
                let code = errno
                var linkInfo = stat()
                let error: ImageError
                if code == ENOENT && path.withCString({ lstat($0, &linkInfo) }) == 0 {
                    error = .brokenSymlink(path: path.description)
                } else if code == ENOENT {
                    continue  // vanished since the listing: nothing to report
                } else if code == ELOOP {
                    error = .readFailed(path: path.description, errno: code, detail: "symbolic link loop (the link leads back to itself)")
                } else if code == EACCES {
                    error = .permissionDenied(path: path.description)
                } else {
                    error = .readFailed(path: path.description, errno: code, detail: "stat: \(String(cString: strerror(code)))")
                }
                walk.inputs.append(BatchInput(path: path, foundInFolder: true, error: error))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if options.recursive, let system = systemFolder(of: path), system != named {
                    walk.skippedSystem += 1
                } else if options.recursive {
                    walkFolder(path, identity: FileIdentity(info), options: options, named: named, visited: &visited,
                               files: &files, into: &walk)
                } else {
                    walk.skippedFolders += 1
                }
            case S_IFREG:
                let identity = FileIdentity(info)
                if files.named.contains(identity), let first = files.taken[identity] {
                    walk.revisitedFiles.append(RevisitedFile(path: path, sameAs: first))
                    continue
                }
                if files.taken[identity] == nil { files.taken[identity] = path }
                walk.inputs.append(BatchInput(path: path, foundInFolder: true))
            default:
                walk.skippedSpecial += 1
            }
        }
    }

    /// The entry names of `folder` (without `.` and `..`), sorted byte-wise.
    private static func listFolder(_ folder: RawPath) -> Result<[[UInt8]], ImageError> {
        guard let directory = folder.withCString({ opendir($0) }) else {
            let code = errno
            switch code {
            case EACCES, EPERM: return .failure(.permissionDenied(path: folder.description))
            case ENOENT: return .failure(.notFound(path: folder.description))
            default:
                return .failure(.readFailed(path: folder.description, errno: code,
                                            detail: "opendir: \(String(cString: strerror(code)))"))
            }
        }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 {
                    let code = errno
                    return .failure(.readFailed(path: folder.description, errno: code,
                                                detail: "readdir: \(String(cString: strerror(code)))"))
                }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(name)
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        return .success(names)
    }
}

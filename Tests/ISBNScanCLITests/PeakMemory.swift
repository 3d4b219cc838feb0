// SPDX-License-Identifier: Apache-2.0
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A run of `isbnscan` with its peak resident memory, from the `rusage` that `wait4` gives for
/// that one child (not the whole test process's children, which run in parallel).
struct MeasuredRun {
    let run: Run
    /// Peak resident set size of the child (`ru_maxrss`), in KiB.
    let peakKiB: Int
    /// This test process's own peak resident set size when the child ended, in KiB.
    let ownKiB: Int

    /// Whether the child's peak stayed under `limitKiB`. posix_spawn starts the child sharing
    /// this process's memory (vfork), and Linux carries that memory's high-water mark into the
    /// child's `ru_maxrss` at exec: a reading no higher than this process's own peak says only
    /// that the child used at most that much. It counts as under the limit when that peak is
    /// itself well under the 300 MB a whole-file read of the tests' tails would need.
    func peak(isUnder limitKiB: Int) -> Bool {
        peakKiB < limitKiB || (peakKiB <= ownKiB && ownKiB < 280_000)
    }
}

/// Runs `isbnscan` with `arguments` through `posix_spawn`, stdout and stderr into files, standard
/// input from the descriptor `stdin` (default /dev/null), this process's environment with
/// `environment` added, and returns its output and peak memory.
func isbnscanMeasured(_ arguments: [String], stdin: Int32? = nil, environment: [String: String] = [:]) throws -> MeasuredRun {
    let base = NSTemporaryDirectory() + "isbnscan-measured-\(UUID().uuidString)"
    defer { unlink(base + ".out"); unlink(base + ".err") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
    else { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
    posix_spawn_file_actions_addopen(&actions, 1, base + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, base + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv: [UnsafeMutablePointer<CChar>?] = ([isbnscanBinary] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }
    let spawned = posix_spawn(&pid, isbnscanBinary, &actions, nil, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
    // WIFEXITED / WEXITSTATUS, spelled out (C macros).
    let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let out = (try? Data(contentsOf: URL(fileURLWithPath: base + ".out"))) ?? Data()
    let err = (try? Data(contentsOf: URL(fileURLWithPath: base + ".err"))) ?? Data()
    var own = rusage()
    getrusage(RUSAGE_SELF.rawValue, &own)
    return MeasuredRun(run: Run(status: code, stdout: String(decoding: out, as: UTF8.self),
                                stderr: String(decoding: err, as: UTF8.self)),
                       peakKiB: usage.ru_maxrss, ownKiB: own.ru_maxrss)
}

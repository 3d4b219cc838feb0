// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import ISBNScanCLI

// The Swift runtime on Linux takes the arguments from /proc/self/cmdline: in a chroot without
// /proc there are none, not even the program name. Say so rather than trap.
guard CommandLine.argc >= 1 else {
    FileDescriptorSink(fd: 2).write("Error: cannot read the command line: /proc is not mounted (the Swift runtime reads /proc/self/cmdline)\n")
    exit(ExitStatus.usage.rawValue)
}

// File names are bytes: keep argv's exact bytes beside the decoded strings.
let rawArguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
    let argument = CommandLine.unsafeArgv[index]!
    return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
// A reader that closes the pipe (`isbnscan scan … | head -n 1`) must not kill the process with
// SIGPIPE: the write fails with EPIPE instead, the run stops and ends with status 3, quietly.
signal(SIGPIPE, SIG_IGN)
let stdout = FileDescriptorSink(fd: 1), stderr = FileDescriptorSink(fd: 2)
var status = ISBNScanCommand.run(Array(CommandLine.arguments.dropFirst()), raw: rawArguments,
                                 stdout: stdout, stderr: stderr)
if stdout.failure != 0 {
    // Results that could not be written are lost: never report success. A closed pipe is the
    // reader's choice (`| head`): no message, as other Unix filters.
    if stdout.failure != EPIPE {
        stderr.write("Error: standard output: write failed: \(String(cString: strerror(stdout.failure)))\n")
    }
    if status != .usage && status != .interrupted { status = .outputError }
}
exit(status.rawValue)

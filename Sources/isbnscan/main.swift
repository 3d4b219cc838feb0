#if canImport(Glibc)
import Glibc
#endif
import ISBNScanCLI

let status = ISBNScanCommand.run(Array(CommandLine.arguments.dropFirst()),
                                 stdout: FileDescriptorSink(fd: 1), stderr: FileDescriptorSink(fd: 2))
exit(status.rawValue)

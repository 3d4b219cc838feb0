#if canImport(Glibc)
import Glibc
#endif
import ISBNScanCLI

// File names are bytes: keep argv's exact bytes beside the decoded strings.
let rawArguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
    let argument = CommandLine.unsafeArgv[index]!
    return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
let status = ISBNScanCommand.run(Array(CommandLine.arguments.dropFirst()), raw: rawArguments,
                                 stdout: FileDescriptorSink(fd: 1), stderr: FileDescriptorSink(fd: 2))
exit(status.rawValue)

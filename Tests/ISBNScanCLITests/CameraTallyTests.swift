// SPDX-License-Identifier: Apache-2.0
import Capture
@testable import ISBNScanCLI
import LiveScan
import Testing

/// What a camera session printed, and the exit status it ends with.
@Suite struct CameraTallyTests {
    @Test func exitStatusOfEachEnd() {
        var tally = CameraTally()
        #expect(tally.exitStatus(.timeout, catalogFailed: false) == .nothingFound)
        #expect(tally.exitStatus(.stopped(signal: 0), catalogFailed: false) == .nothingFound)
        tally.add("9780306406157", frame: 3, time: "t", recorded: false)
        #expect(tally.exitStatus(.confirmed, catalogFailed: false) == .found)
        // q in the preview is a normal end; a signal is an interruption.
        #expect(tally.exitStatus(.stopped(signal: 0), catalogFailed: false) == .found)
        #expect(tally.exitStatus(.stopped(signal: 2), catalogFailed: false) == .interrupted)
        #expect(tally.exitStatus(.stopped(signal: 2), catalogFailed: true) == .inputError)
        #expect(tally.exitStatus(.failed(.unplugged(device: "/dev/video0", operation: "VIDIOC_DQBUF")), catalogFailed: false)
                == .inputError)
        // An ISBN printed and undone was still printed.
        _ = tally.undoLast()
        #expect(tally.count == 0)
        #expect(tally.exitStatus(.maxFrames, catalogFailed: false) == .found)
    }
}

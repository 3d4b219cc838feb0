// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// The Makefile's quick parts, with nothing built: which Debian packages each target installs,
/// the .deb's maintainer, and make test's runner (Tests/quiet-run.sh).
@Suite struct MakefileTests {
    let repository = (testImages as NSString).deletingLastPathComponent

    func make(_ arguments: [String], environment: [String: String]? = nil) throws -> Run {
        try isbnscan(["--no-print-directory"] + arguments, environment: environment, in: repository, executable: "/usr/bin/make")
    }

    func scratch(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "isbnscan-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// make install (through deps) installs what the build and the features need, and none of
    /// the tests' tools; make test (through test-deps) installs both.
    @Test func installNeedsNoTestTool() throws {
        let install = try make(["-n", "install"])
        #expect(install.status == 0, "\(install.stderr)")
        for package in ["libzbar-dev", "libsdl2-dev", "libtesseract-dev", "tesseract-ocr-eng", "binutils"] {
            #expect(install.stdout.contains(" \(package)\""), "make install lacks \(package)")
        }
        let testTools = ["gcc", "util-linux", "zint", "python3-venv", "groff-base", "man-db", "zsh", "fish", "dpkg-dev", "xvfb", "xdotool", "x11-apps",
                         "netpbm", "libx11-dev"]
        for package in testTools { #expect(!install.stdout.contains(" \(package)\""), "make install installs \(package)") }
        let test = try make(["-n", "test"])
        #expect(test.status == 0, "\(test.stderr)")
        for package in testTools + ["libzbar-dev"] { #expect(test.stdout.contains(" \(package)\""), "make test lacks \(package)") }
    }

    /// SwiftPM passes a system library's `pkg-config --cflags` on and warns "prohibited flag(s)"
    /// for anything but -I (SDL2's -D_REENTRANT, when CSDL2 was one, made every build print
    /// it): each system library of Package.swift gives include folders only.
    @Test func systemLibrariesGiveOnlyIncludeFolders() throws {
        let manifest = try String(contentsOfFile: repository + "/Package.swift", encoding: .utf8)
        let modules = manifest.components(separatedBy: "pkgConfig: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(modules.count >= 7, "\(modules)")
        for module in modules {
            let flags = try isbnscan(["--cflags", module], executable: "/usr/bin/pkg-config")
            #expect(flags.status == 0, "\(module): \(flags.stderr)")
            let prohibited = flags.stdout.split(whereSeparator: \.isWhitespace).filter { !$0.hasPrefix("-I") }
            #expect(prohibited.isEmpty, "pkg-config --cflags \(module) gives \(prohibited)")
        }
    }

    /// make try-camera lists the fake camera with `devices`, then runs `camera` on it; with
    /// PREVIEW=1 and no display, under xvfb-run, keeping the window's last picture.
    @Test func tryCameraShowsTheFakeCameraAndWithoutADisplayKeepsThePicture() throws {
        let env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        // What make -n prints, continuation lines joined and spaces squeezed.
        func commands(_ arguments: [String], display: String? = nil) throws -> String {
            let run = try make(["-n", "try-camera"] + arguments, environment: env.merging(display.map { ["DISPLAY": $0] } ?? [:]) { $1 })
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.replacingOccurrences(of: "\\\n", with: " ").split(separator: " ", omittingEmptySubsequences: true)
                .joined(separator: " ").replacingOccurrences(of: " \n", with: "\n")
        }
        let fake = "LD_PRELOAD=\(repository)/.build/fakev4l2/libfakev4l2.so"
        // The binary make install installs; the fake's chroma neutral, so that the window is grey.
        let plain = try commands([])
        #expect(plain.contains("\(fake) .build/static/release/isbnscan devices\n"), "\(plain)")
        #expect(plain.contains("\(fake) FAKE_V4L2_FRAMES=TestImages/roi/band-inside.png FAKE_V4L2_CHROMA=neutral "
                               + ".build/static/release/isbnscan camera\n"), "\(plain)")
        let preview = try commands(["PREVIEW=1"])
        #expect(preview.contains("FAKE_V4L2_CHROMA=neutral xvfb-run -a .build/static/release/isbnscan camera --preview --continuous "
                                 + "--max-frames 300 --preview-snapshot .build/try-camera-preview.ppm\n"), "\(preview)")
        #expect(preview.contains("its last picture is .build/try-camera-preview.ppm (PPM)"))
        let display = try commands(["PREVIEW=1"], display: ":7")
        #expect(display.contains("band-inside.png FAKE_V4L2_CHROMA=neutral .build/static/release/isbnscan camera --preview "
                                 + "--continuous --max-frames 300\n"), "\(display)")
        #expect(!display.contains("xvfb-run") && !display.contains("snapshot"))
    }

    /// A binary newer than the sources (and no commit stamp: ISBNSCAN_COMMIT empty) is run as it
    /// is: no swift build, which would wait for any other build of the checkout; an older one is
    /// built again. make install, make scan and make try-camera share one binary, so that the
    /// Quick start builds once.
    @Test func aCurrentBinaryIsRunWithoutBuildingAndTheQuickStartBuildsOnce() throws {
        let folder = try scratch("bin")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let staticBin = folder + "/static-isbnscan", releaseBin = folder + "/release-isbnscan"
        for bin in [staticBin, releaseBin] { #expect(FileManager.default.createFile(atPath: bin, contents: Data())) }
        let env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let binaries = ["STATIC_BIN=\(staticBin)", "RELEASE_BIN=\(releaseBin)", "ISBNSCAN_COMMIT="]
        func commands(_ target: String) throws -> String {
            let run = try make(["-n", target] + binaries, environment: env)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        let staticBuild = "swift build -c release --product isbnscan --static-swift-stdlib"
        for target in ["try-camera", "scan", "install", releaseBin] {
            #expect(!(try commands(target)).contains("swift build"), "make \(target) builds a current binary")
        }
        #expect(try commands("scan").contains("\(staticBin) scan TestImages/isbn TestImages/formats"))
        #expect(try commands("try-camera").contains("\(staticBin) camera"))
        // Older than the sources: built again, by the one build each of them shares.
        for bin in [staticBin, releaseBin] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 946_684_800)], ofItemAtPath: bin)
        }
        for target in ["try-camera", "scan", "install"] {
            let run = try commands(target)
            #expect(run.components(separatedBy: staticBuild).count == 2, "make \(target): \(run)")
            #expect(!run.contains("swift build -c release --product isbnscan\n"), "make \(target) builds a second binary")
        }
        #expect(try commands(releaseBin).contains("swift build -c release --product isbnscan\n"))
    }

    /// The .deb's maintainer: DEB_MAINTAINER, else DEBFULLNAME and DEBEMAIL, else the git
    /// identity of whoever builds it; a placeholder Debian rejects, or none, stops make deb
    /// before anything is built.
    @Test func debMaintainerIsARealAddressOrMakeDebStops() throws {
        let home = try scratch("home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        try "[user]\n\tname = Ada Lovelace\n\temail = ada@example.org\n".write(toFile: home + "/.gitconfig", atomically: true, encoding: .utf8)
        let base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home,
                    "XDG_CONFIG_HOME": home, "GIT_CONFIG_NOSYSTEM": "1"]
        func maintainer(_ extra: [String: String]) throws -> String {
            let run = try make(["-s", "--eval", "show-maintainer: ; @echo '$(DEB_MAINTAINER)'", "show-maintainer"],
                               environment: base.merging(extra) { $1 })
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        #expect(try maintainer([:]) == "Ada Lovelace <ada@example.org>\n")
        #expect(try maintainer(["DEBFULLNAME": "Grace Hopper", "DEBEMAIL": "grace@example.org"]) == "Grace Hopper <grace@example.org>\n")
        #expect(try maintainer(["DEB_MAINTAINER": "Alan Turing <alan@example.org>"]) == "Alan Turing <alan@example.org>\n")

        let advice = "give DEB_MAINTAINER='Your Name <you@example.org>' (or DEBFULLNAME and DEBEMAIL, or git config user.name and user.email)\n"
        let placeholder = try make(["deb", "DEB_MAINTAINER=isbnscan developers <isbnscan@localhost>"], environment: base)
        #expect(placeholder.status == 2)
        #expect(placeholder.stderr.hasPrefix("deb.sh: the package needs a maintainer 'Name <address@domain>', not "
                                             + "'isbnscan developers <isbnscan@localhost>': " + advice), "\(placeholder.stderr)")
        #expect(!placeholder.stdout.contains("swift build"), "\(placeholder.stdout)")
        try FileManager.default.removeItem(atPath: home + "/.gitconfig")
        let none = try make(["deb"], environment: base)
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("deb.sh: the package needs a maintainer 'Name <address@domain>': " + advice), "\(none.stderr)")
    }

    /// make test's runner keeps the whole output in its log and prints the counts; on a failure,
    /// every line but the progress ones too, so that each failure keeps its details; meanwhile,
    /// a line of progress now and then.
    @Test func makeTestPrintsCountsAndFailuresInFull() throws {
        let folder = try scratch("quiet-run")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = ["[1/3] Compiling Scanning Arbiter.swift", "\t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds",
                     "◇ Test run started.", "◇ Test a() started.", "✔ Test a() passed after 0.1 seconds.",
                     "✔ Test b(x:) with 3 test cases passed after 0.1 seconds.", "➜ Test c() skipped: \"set X=1\""]
        func runner(_ output: [String], status: Int32) throws -> Run {
            let script = folder + "/output.txt"
            try (output.joined(separator: "\n") + "\n").write(toFile: script, atomically: true, encoding: .utf8)
            return try isbnscan([repository + "/Tests/quiet-run.sh", folder + "/logs/test.log", "swift test",
                                 "/bin/sh", "-c", "cat '\(script)'; exit \(status)"], executable: "/bin/sh")
        }
        let passed = try runner(lines + ["✔ Test run with 3 tests in 1 suite passed after 0.2 seconds."], status: 0)
        #expect(passed.status == 0)
        #expect(passed.stdout == """
            swift test: running /bin/sh -c cat '\(folder)/output.txt'; exit 0 (whole output: \(folder)/logs/test.log)
            swift test: 2 passed, 0 failed, 1 skipped (3 tests in 1 suite passed after 0.2 seconds.)

            """)
        #expect(try String(contentsOfFile: folder + "/logs/test.log", encoding: .utf8).hasPrefix(lines[0] + "\n" + lines[1] + "\n"))

        let failure = ["✘ Test d() recorded an issue at DTests.swift:12:9: Expectation failed: (run.status → 1) == 0",
                       "Error: a message the test printed", "✘ Test d() failed after 0.3 seconds with 1 issue.",
                       "✘ Test run with 4 tests in 1 suite failed after 0.4 seconds with 1 issue."]
        let failed = try runner(lines + failure, status: 1)
        #expect(failed.status == 1)
        #expect(failed.stdout.split(separator: "\n").dropFirst().map(String.init) == [lines[6]] + failure
                + ["swift test: 2 passed, 1 failed, 1 skipped (4 tests in 1 suite failed after 0.4 seconds with 1 issue.)"])

        // A long run prints progress (every QUIET_RUN_EVERY seconds), the build's step first.
        let slow = try isbnscan([repository + "/Tests/quiet-run.sh", folder + "/logs/slow.log", "swift test", "/bin/sh", "-c",
                                 "echo '[2/9] Compiling Scanning Arbiter.swift'; sleep 3; echo '✔ Test run with 0 tests in 0 suites passed after 3 seconds.'"],
                                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "QUIET_RUN_EVERY": "1"],
                                executable: "/bin/sh")
        #expect(slow.status == 0)
        #expect(slow.stdout.contains(" s: building (step 2/9: Compiling Scanning)\n"), "\(slow.stdout)")
        #expect(slow.stdout.hasSuffix("swift test: 0 passed, 0 failed, 0 skipped (0 tests in 0 suites passed after 3 seconds.)\n"))

        let broken = try runner(["[1/3] Compiling Scanning Arbiter.swift", "Arbiter.swift:3:1: error: expected declaration"], status: 1)
        #expect(broken.status == 1)
        #expect(broken.stdout.split(separator: "\n").dropFirst().map(String.init) == [
            "Arbiter.swift:3:1: error: expected declaration",
            "swift test: no test ran (exit status 1); the output above, whole in \(folder)/logs/test.log"])
    }

    /// A stand-in for the test binary (Python): `--list-tests` lists M.Quick/a(), M.Quick/b(),
    /// M.Cases/c(x:) (two cases) and M.SlowLongTests/d(); a `--filter '^Suite/'` run writes that
    /// suite's event stream with made-up instants (a() 1.5 s, b() 0.25 s, the cases 2 s and 1 s,
    /// d() 7 s; SECONDS_IN=N waits N seconds in the first test, so that a run can be caught
    /// mid-way) and Swift Testing's lines; FAIL=b makes b() fail.
    static let fakeTestBinary = #"""
        import json, os, re, sys, time
        tests = {"M.Quick": [("a()", [1.5]), ("b()", [0.25])], "M.Cases": [("c(x:)", [2.0, 1.0])],
                 "M.SlowLongTests": [("d()", [7.0])]}
        arguments = sys.argv[1:]
        if "--list-tests" in arguments:
            for suite, functions in tests.items():
                for name, _ in functions: print(f"{suite}/{name}")
            sys.exit(0)
        suite = re.sub(r"\\(.)", r"\1", arguments[arguments.index("--filter") + 1][1:-1])
        stream = open(arguments[arguments.index("--event-stream-output-path") + 1], "w")
        def record(kind, payload):
            stream.write(json.dumps({"kind": kind, "payload": payload, "version": 0}) + "\n"); stream.flush()
        clock = [100.0]
        def event(kind, test_id=None, **more):
            record("event", dict(kind=kind, testID=test_id, instant={"absolute": clock[0], "since1970": time.time()}, **more))
        for name, cases in tests[suite]:
            record("test", {"id": f"{suite}/{name}/F.swift:1:1", "kind": "function", "name": name,
                            "isParameterized": len(cases) > 1, "_testCases": [{}] * len(cases) if len(cases) > 1 else None})
        print("◇ Test run started.")
        event("runStarted")
        failed = False
        for name, cases in tests[suite]:
            test_id = f"{suite}/{name}/F.swift:1:1"
            print(f"◇ Test {name} started.")
            event("testStarted", test_id)
            for seconds in cases:
                if len(cases) > 1: event("testCaseStarted", test_id)
                time.sleep(float(os.environ.pop("SECONDS_IN", "0")))
                clock[0] += seconds
                if len(cases) > 1: event("testCaseEnded", test_id)
            if os.environ.get("FAIL") == name.rstrip("()"):
                failed = True
                event("issueRecorded", test_id, issue={"isKnown": False})
                print(f"✘ Test {name} recorded an issue at F.swift:1:1: Expectation failed")
                print(f"✘ Test {name} failed after {sum(cases):.3f} seconds with 1 issue.")
            else:
                print(f"✔ Test {name} passed after {sum(cases):.3f} seconds.")
            event("testEnded", test_id)
        event("runEnded")
        print(f"{'✘' if failed else '✔'} Test run with {len(tests[suite])} tests in 1 suite {'failed' if failed else 'passed'} after 1.000 seconds.")
        sys.exit(1 if failed else 0)
        """#

    /// make test's runner of suites (Tests/run-suites.py): one process a suite, long suites left
    /// out or alone, each suite's output whole, the counts; and what Tests/test-events.py reads
    /// from their event streams: the tests' own times, and the progress line mid-way.
    @Test func suitesRunOneProcessEachAndTheSlowestAreListed() throws {
        let folder = try scratch("run-suites")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = folder + "/fake-tests"
        try ("#!/usr/bin/env python3\n" + Self.fakeTestBinary + "\n").write(toFile: binary, atomically: true, encoding: .utf8)
        chmod(binary, 0o755)
        let path = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        func runSuites(_ options: [String], environment: [String: String] = [:]) throws -> Run {
            try isbnscan([repository + "/Tests/run-suites.py", "--jobs", "2"] + options + [folder + "/events", binary],
                         environment: path.merging(environment) { $1 }, executable: "/usr/bin/python3")
        }

        let quick = try runSuites(["--skip-matching", "LongTests$", "--first", "M.Quick"])
        #expect(quick.status == 0, "\(quick.stdout)\(quick.stderr)")
        let lines = quick.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last?.hasPrefix("✔ Test run with 3 tests in 2 suites, 2 at a time, passed after ") == true, "\(quick.stdout)")
        #expect(!quick.stdout.contains("d()"))
        // Each suite's lines together: b() right after a().
        let a = try #require(lines.firstIndex(of: "✔ Test a() passed after 1.500 seconds."))
        #expect(lines[a + 1] == "◇ Test b() started.")
        #expect(try String(contentsOfFile: folder + "/events/plan.txt", encoding: .utf8)
                == "M.Quick/a()\nM.Quick/b()\nM.Cases/c(x:)\n")
        let slowest = try isbnscan([repository + "/Tests/test-events.py", "slowest", folder + "/events", "2"], executable: "/usr/bin/python3")
        #expect(slowest.stdout == "     3.0 s  M.Cases/c(x:) (2 cases)\n     1.5 s  M.Quick/a()\n", "\(slowest.stderr)")

        let long = try runSuites(["--only-matching", "LongTests$"])
        #expect(long.status == 0)
        #expect(long.stdout.contains("✔ Test d() passed after 7.000 seconds.\n"))
        #expect(!long.stdout.contains("a()"))

        let failing = try runSuites(["--skip", "M.SlowLongTests"], environment: ["FAIL": "b"])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("✘ Test b() failed after 0.250 seconds with 1 issue.\n"))
        #expect(failing.stdout.split(separator: "\n").last.map(String.init)?.hasSuffix(" seconds: M.Quick.") == true, "\(failing.stdout)")
        let unknown = try runSuites(["--only", "M.Nothing"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout == "run-suites.py: no suite named M.Nothing in \(binary)\n")

        // Through make test's runner: progress mid-way (the first test waits 3 s), then the
        // slowest tests and the counts.
        let quiet = try isbnscan([repository + "/Tests/quiet-run.sh", folder + "/logs/tests.log", "tests", "/usr/bin/python3",
                                  repository + "/Tests/run-suites.py", "--jobs", "1", "--skip-matching", "LongTests$",
                                  folder + "/events", binary],
                                 environment: path.merging(["QUIET_RUN_EVERY": "1", "QUIET_RUN_EVENTS": folder + "/events",
                                                            "QUIET_RUN_SLOWEST": "2", "SECONDS_IN": "3"]) { $1 },
                                 executable: "/bin/sh")
        #expect(quiet.status == 0, "\(quiet.stdout)")
        let printed = quiet.stdout.split(separator: "\n").map(String.init)
        let midway = #"^tests: [0-9]+ s: 0 of 3 tests done, 0 failed; running M\.Cases/c\(x:\) \(case 1 of 2\) [0-9]+ s$"#
        #expect(printed.contains { $0.range(of: midway, options: .regularExpression) != nil }, "\(quiet.stdout)")
        #expect(Array(printed.suffix(4).dropLast()) == [
            "tests: the slowest tests (seconds each ran; \(folder)/events):",
            "     3.0 s  M.Cases/c(x:) (2 cases)", "     1.5 s  M.Quick/a()"], "\(quiet.stdout)")
        #expect(printed.last?.hasPrefix("tests: 3 passed, 0 failed, 0 skipped (3 tests in 2 suites, 1 at a time, passed after ") == true)
    }
}

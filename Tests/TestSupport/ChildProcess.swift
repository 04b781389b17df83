import Foundation

/// Runs a child program from a test with its standard streams in files, never in pipes.
///
/// Why files: Foundation's `FileHandle.readDataToEndOfFile()` on Linux wraps `read(2)` in a `try!`, so a
/// signal that lands while a test thread waits on a pipe (`EINTR`) kills the whole test bundle. That crashed
/// CI once. A file cannot fill up and block the child either, so one code path serves small and large
/// outputs alike.
public final class ChildProcess: @unchecked Sendable {
    /// What a finished child printed and how it ended.
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: Data

        public var standardOutput: String { String(decoding: stdout, as: UTF8.self) }
        public var standardError: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// A child that would not start or did not say what was awaited.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    private let process = Process()
    private let folder: URL
    private let outputFile: URL
    private let errorFile: URL
    private let handles: [FileHandle]

    /// Starts `executable arguments…`; `input`, when given, is the child's whole standard input.
    public init(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String]? = nil, input: Data? = nil
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        outputFile = folder.appendingPathComponent("stdout")
        errorFile = folder.appendingPathComponent("stderr")
        let inputFile = folder.appendingPathComponent("stdin")
        try (input ?? Data()).write(to: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let stdin = try FileHandle(forReadingFrom: inputFile)
        let stdout = try FileHandle(forWritingTo: outputFile)
        let stderr = try FileHandle(forWritingTo: errorFile)
        handles = [stdin, stdout, stderr]
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            cleanUp()
            throw Failure(description: "could not start \(executable.path): \(error)")
        }
    }

    /// A child still running when its test lets go of it is ended as `stop` ends it: SIGTERM alone left a child
    /// that blocks it (see `stop`) running past the test, and past the test run.
    deinit {
        stop(grace: 1)
        cleanUp()
    }

    /// Runs `executable arguments…` to the end and returns what it printed.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String]? = nil, input: Data? = nil
    ) throws -> Outcome {
        try ChildProcess(executable, arguments, in: directory, environment: environment, input: input).finish()
    }

    /// The environment of this test process with `overrides` applied and `removing` taken out.
    public static func environment(_ overrides: [String: String], removing: [String] = []) -> [String: String] {
        var merged = ProcessInfo.processInfo.environment
        for key in removing { merged.removeValue(forKey: key) }
        for (key, value) in overrides { merged[key] = value }
        return merged
    }

    /// python3 on this machine (Debian's, which `make test` installs, else a local one), or nil: the tests that run
    /// Python (independent parsers, the second Graph) are then skipped with a message.
    public static let python3: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    public var isRunning: Bool { process.isRunning }
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGTERM.
    public func terminate() { if process.isRunning { process.terminate() } }

    /// Ends a child that does not end by itself (a server a test started): SIGTERM, then SIGKILL if it is still
    /// there after `grace` seconds, and waits for it. Why the SIGKILL: a child inherits the signal mask of the thread
    /// that starts it, and the test process's threads block SIGTERM, so a child that does not unblock it never sees it
    /// (Python servers left running after their tests showed `SigBlk` with SIGTERM set).
    public func stop(grace: TimeInterval = 2) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the child to end and returns everything it printed.
    public func finish() throws -> Outcome {
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: try Data(contentsOf: outputFile),
            stderr: try Data(contentsOf: errorFile))
    }

    /// Waits at most `seconds` for the child to end; past that it gets SIGTERM, then SIGKILL after a short grace,
    /// so a hung child (a browser waiting on something that never comes) fails its test instead of the run.
    /// `timedOut` says whether the deadline was what ended it.
    public func finish(within seconds: TimeInterval) throws -> (outcome: Outcome, timedOut: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                stop(grace: 5)
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return (try finish(), timedOut)
    }

    /// Waits for the child to end, on a thread of its own so the caller's cooperative thread stays free
    /// (a sandbox served from this same test process may be what the child is talking to).
    public func finished() async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    continuation.resume(returning: try self.finish())
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    /// The first line the child prints on standard output, without its newline; polls the output file.
    public func firstLine(within seconds: TimeInterval = 60) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self)
            if let end = text.firstIndex(of: "\n") { return String(text[..<end]) }
            if !process.isRunning {
                throw Failure(description: "child ended (status \(process.terminationStatus)) before a line: '\(text)'")
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        terminate()
        throw Failure(description: "child printed no line within \(seconds) s")
    }

    private func cleanUp() {
        for handle in handles { try? handle.close() }
        try? FileManager.default.removeItem(at: folder)
    }
}

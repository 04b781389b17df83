import Foundation
import TestSupport
import Testing

/// The test helper that starts servers and tools: a child its test lets go of must not outlive it.
@Suite("A child process a test starts")
struct ChildProcessTests {
    @Test("a child let go of while it runs is ended, one that ignores SIGTERM too (SIGKILL after the grace)")
    func childLetGoOfIsEnded() throws {
        var child: ChildProcess? = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "trap '' TERM; exec sleep 60"])
        let pid = try #require(child?.processIdentifier)
        // Give the shell time to set its trap and become `sleep`, which keeps ignoring SIGTERM.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(child?.isRunning == true)
        child = nil
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "process \(pid) is still there")
    }
}

import Foundation
import TestSupport

/// Debian's chromium in headless mode, for browser tests. Every run gets its own profile folder.
struct SiteChromium {
    let executable: String

    /// The installed chromium, or nil (browser tests then skip with a message).
    static let installed: SiteChromium? = {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return SiteChromium(executable: path)
        }
        return nil
    }()

    /// What one run printed.
    struct Output {
        var dom: String
        /// Console messages (our pages log nothing, so any is an error or a CSP violation).
        var console: [String]
    }

    /// Loads `url`, lets scripts run for `budget` ms of virtual time and returns the DOM and console lines.
    func dumpDOM(_ url: String, budget: Int = 4000, windowSize: String = "1280,900") throws -> Output {
        try run(["--dump-dom", "--virtual-time-budget=\(budget)", "--window-size=\(windowSize)", url])
    }

    /// Saves a PNG screenshot of `url` at `windowSize` (`width,height`).
    func screenshot(_ url: String, to file: URL, windowSize: String) throws -> Output {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try run([
            "--screenshot=\(file.path)", "--window-size=\(windowSize)", "--hide-scrollbars",
            "--virtual-time-budget=4000",
            url,
        ])
    }

    /// Chromium gets two minutes: a page that never settles ends the test with a message, not the run.
    private func run(_ arguments: [String]) throws -> Output {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "orgdir-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let child = try ChildProcess(
            URL(fileURLWithPath: executable),
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0",
            ] + arguments)
        let (outcome, timedOut) = try child.finish(within: 120)
        if timedOut {
            throw ChildProcess.Failure(description: "chromium did not finish within 120 s: \(arguments.last ?? "")")
        }
        let console = outcome.standardError.split(separator: "\n")
            .filter { $0.contains(":CONSOLE") }.map(String.init)
        return Output(dom: outcome.standardOutput, console: console)
    }
}

import ArgumentParser
import Foundation
import OrgDirectory

/// `orgdir fetch`: the first half of `orgdir build` — sign in, fetch and normalize everyone, write a snapshot file.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Sign in, fetch every user and write them as a snapshot file, without building the site.",
        discussion: """
            Always a full listing with the settings' filter, select and local rules. The file has the snapshot \
            format ('orgdir diff' reads it); the snapshot history and delta link of 'orgdir build' are left alone.
            Exit codes: as 'orgdir build' (4 locked, 69 Graph refused, 73 cannot write, 75 try again later, \
            77 sign-in failed, 78 invalid settings).
            """)

    @OptionGroup var run: RunOptions

    @Option(name: .shortAndLong, help: "Write the snapshot here (default: fetched.json in the state folder).")
    var snapshot: String?

    @Flag(help: "Print a machine-readable summary on stdout.")
    var json = false

    func validate() throws {
        if run.verbose && run.quiet { throw ValidationError("--verbose and --quiet cannot be used together") }
    }

    func run() async throws {
        let progress = ProgressReporter.automatic(quiet: run.quiet || json && !run.verbose)
        let settings: Settings
        do {
            settings = try Settings.load(from: run.configURL)
        } catch {
            throw fail(error.errorDescription ?? "\(error)", code: ExitStatus.config)
        }
        let destination =
            snapshot.map { URL(fileURLWithPath: $0).standardizedFileURL }
            ?? BuildPipeline.defaultFetchDestination(for: settings)
        let pipeline = BuildPipeline(
            settings: settings, environment: ProcessInfo.processInfo.environment, logger: run.makeLogger(),
            progress: progress)
        let summary: FetchSummary
        do {
            summary = try await pipeline.fetch(to: destination)
        } catch {
            throw fail(error.errorDescription ?? "\(error)", code: error.exitCode)
        }
        if json { print(try JSONOutput.encode(summary)) }
    }
}

import ArgumentParser
import Foundation
import GraphSandbox
import OrgDirectory

/// `orgdir build`: the whole pipeline, against a real tenant or (`--demo`) the built-in sandbox.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Sign in, fetch every user, render the site and publish it atomically.",
        discussion: """
            Exit codes: 0 success, 3 the mass-removal guard stopped the run (see --accept-removals), 4 another run
            holds the lock, 64 bad command line, 69 Graph refused the query, 73 cannot write output or state,
            75 network/throttling/outage (try again later), 77 sign-in failed, 78 invalid settings.
            """)

    @OptionGroup var run: RunOptions

    @Option(name: .shortAndLong, help: "Publish into this folder instead of the settings' output.")
    var output: String?

    @Option(help: "A folder of Mustache templates overriding any of the built-in ones.")
    var templates: String?

    @Flag(help: "Run against the built-in sandbox tenant (500 people, no Azure account needed).")
    var demo = false

    @Option(help: "With --demo: how many people the sandbox tenant has.")
    var demoUsers = 500

    @Flag(help: "Print a machine-readable run summary on stdout.")
    var json = false

    @Flag(help: "Publish even if more people would be removed than maxRemovals / maxRemovalPercent allow.")
    var acceptRemovals = false

    func validate() throws {
        if run.verbose && run.quiet { throw ValidationError("--verbose and --quiet cannot be used together") }
        if demoUsers < 0 { throw ValidationError("--demo-users must not be negative") }
    }

    func run() async throws {
        let logger = run.makeLogger()
        logger.debug("memory allocator: \(ProcessAllocator.description)")
        let progress = ProgressReporter.automatic(quiet: run.quiet || json && !run.verbose)
        var environment = ProcessInfo.processInfo.environment
        var sandbox: GraphSandbox?
        let settings: Settings
        do {
            if demo {
                let demoSetup = try await DemoTenant.start(users: demoUsers, output: output)
                sandbox = demoSetup.sandbox
                settings = demoSetup.settings
                environment[ClientSecret.environmentVariable] = demoSetup.secret
                progress.say("demo: sandbox tenant with \(demoUsers) people at \(demoSetup.baseURL.absoluteString)")
            } else {
                settings = try Settings.load(from: run.configURL)
            }
        } catch let error as ConfigError {
            throw fail(error.errorDescription ?? "\(error)", code: ExitStatus.config)
        }
        var effective = settings
        if let output { effective.outputDirectory = URL(fileURLWithPath: output).standardizedFileURL }
        if let templates { effective.templatesDirectory = URL(fileURLWithPath: templates).standardizedFileURL }

        var pipeline = BuildPipeline(settings: effective, environment: environment, logger: logger, progress: progress)
        pipeline.acceptRemovals = acceptRemovals
        let outcome: Result<RunSummary, BuildError>
        do {
            outcome = .success(try await pipeline.run())
        } catch {
            outcome = .failure(error)
        }
        await sandbox?.stop()
        switch outcome {
        case .success(let summary):
            if json {
                print(try JSONOutput.encode(summary))
            } else if demo {
                progress.say("open \(effective.outputDirectory.appendingPathComponent("index.html").path) in a browser")
            }
        case .failure(let error):
            throw fail(error.errorDescription ?? "\(error)", code: error.exitCode)
        }
    }
}

/// Stable, pretty JSON for stdout.
enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

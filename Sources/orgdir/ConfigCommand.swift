import ArgumentParser
import Foundation
import OrgDirectory

/// `orgdir config …`: work with settings files.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Work with settings files.", subcommands: [ConfigCheckCommand.self])
}

/// `orgdir config check`: validate a settings.plist without touching the network.
struct ConfigCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Validate a settings file without any network request.")

    @Option(name: .shortAndLong, help: "The settings file (an XML property list).")
    var config: String = "settings.plist"

    func run() async throws {
        let url = URL(fileURLWithPath: config).standardizedFileURL
        let settings: Settings
        do {
            settings = try Settings.load(from: url)
        } catch {
            throw fail(error.errorDescription ?? "\(error)", code: ExitStatus.config)
        }
        // The templates a build would render with are parsed and checked too, as `orgdir build` does first, and the
        // output folder is looked at as a build's publish would (a file, a mount point, someone else's files).
        do {
            _ = try SiteRenderer(options: settings.siteOptions)
            _ = try SitePublisher(output: settings.outputDirectory).inspectOutput()
        } catch {
            throw fail(error.localizedDescription, code: ExitStatus.output)
        }
        var lines = [
            "\(config): OK",
            "  tenant      \(settings.tenant)",
            "  client      \(settings.clientId)",
            "  token URL   \(settings.tokenEndpoint.absoluteString)",
            "  Graph       \(settings.graphBase.absoluteString)users",
            "  filter      \(settings.filter ?? "(none)")",
            "  output      \(settings.outputDirectory.path)",
            "  state       \(settings.stateDirectory.path)",
            "  templates   \(settings.templatesDirectory?.path ?? "built-in")",
        ]
        let environment = ProcessInfo.processInfo.environment
        if environment[ClientSecret.environmentVariable] == nil && settings.clientSecretFile == nil {
            lines.append(
                "  note: no secret yet: set \(ClientSecret.environmentVariable) or clientSecretFile before 'orgdir build'"
            )
        }
        print(lines.joined(separator: "\n"))
    }
}

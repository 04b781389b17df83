import ArgumentParser
import Foundation
import OrgDirectory

/// `orgdir logout`: forget the saved sign-in (the refresh token) of this authority, tenant and app.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Delete the saved sign-in (refresh token) for the settings' tenant and app.")

    @OptionGroup var run: RunOptions

    func run() async throws {
        let settings: Settings
        do {
            settings = try Settings.load(from: run.configURL)
        } catch {
            throw fail(error.errorDescription ?? "\(error)", code: ExitStatus.config)
        }
        let cache = TokenCache(settings: settings, environment: ProcessInfo.processInfo.environment)
        let removed: Bool
        do {
            removed = try cache.delete()
        } catch {
            throw fail(error.errorDescription ?? "\(error)", code: ExitStatus.output)
        }
        if !run.quiet {
            CredentialFactory.standardError(
                removed
                    ? "orgdir: signed out; removed \(cache.file.path)" : "orgdir: no saved sign-in (\(cache.file.path))"
            )
        }
    }
}

import ArgumentParser
import Foundation
import OrgDirectory

/// `orgdir login`: sign in as a person (device code, or the browser with `--browser`) and keep the refresh
/// token in the token cache for later `orgdir build` runs.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in as a person and save the refresh token for delegated builds (auth deviceCode or browser).",
        discussion: """
            Device code by default: the URL and code are printed on stderr; sign in on any device. With --browser \
            the system browser ($BROWSER, xdg-open or open) opens the sign-in page and the answer comes back to a \
            loopback port. The refresh token is kept in $XDG_CACHE_HOME/orgdir/ (else ~/.cache/orgdir/), mode 0600.
            Exit codes: 0 signed in, 75 network trouble, 77 sign-in failed or declined, 78 invalid settings.
            """)

    @OptionGroup var run: RunOptions

    @Flag(help: "Sign in with the system browser (authorization code with PKCE) instead of a device code.")
    var browser = false

    @Flag(help: "Sign in with a device code even when auth is browser.")
    var deviceCode = false

    func validate() throws {
        if browser && deviceCode { throw ValidationError("--browser and --device-code cannot be used together") }
    }

    func run() async throws {
        let settings: Settings
        do {
            settings = try Settings.load(from: run.configURL)
        } catch {
            throw fail(error.errorDescription ?? "\(error)", code: ExitStatus.config)
        }
        if !settings.authMethod.isDelegated && !run.quiet {
            CredentialFactory.standardError(
                "orgdir: note: auth is \(settings.authMethod.rawValue) in \(settings.sourcePath), so `orgdir build` "
                    + "will not use this sign-in; set auth to deviceCode or browser")
        }
        let flow: InteractiveLogin.Flow =
            browser ? .browser : deviceCode ? .deviceCode : InteractiveLogin.defaultFlow(forMethod: settings.authMethod)
        let login = InteractiveLogin(
            settings: settings, environment: ProcessInfo.processInfo.environment, say: CredentialFactory.standardError)
        do {
            try await login.run(flow, using: HTTPTransport(timeout: settings.requestTimeout))
        } catch {
            throw fail(error.errorDescription ?? "\(error)", code: error.exitCode)
        }
        if !run.quiet { CredentialFactory.standardError("orgdir: signed in; saved to \(login.cacheFile.path)") }
    }
}

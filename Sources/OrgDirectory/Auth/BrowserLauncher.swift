import Foundation

/// Opens a URL in the person's browser: `$BROWSER` when set (the convention of xdg-utils and git), else
/// `xdg-open` on Linux or `open` on macOS. Failing to open is not an error: the URL is printed as well.
enum BrowserLauncher {
    /// Starts the browser on `url` without waiting for it.
    static func open(_ url: URL, environment: [String: String]) {
        let process = Process()
        if let browser = environment["BROWSER"]?.split(separator: ":").first.map(String.init), !browser.isEmpty {
            // `$BROWSER` may carry arguments and a %s placeholder; the URL is passed as "$1", never interpolated.
            let command =
                browser.contains("%s")
                ? browser.replacingOccurrences(of: "%s", with: "\"$1\"") : browser + " \"$1\""
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command, "sh", url.absoluteString]
        } else {
            #if os(macOS)
                process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
                process.arguments = [url.absoluteString]
            #else
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["xdg-open", url.absoluteString]
            #endif
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        // Reap the child on a thread of its own so the flow never blocks on the browser.
        Thread { process.waitUntilExit() }.start()
    }
}

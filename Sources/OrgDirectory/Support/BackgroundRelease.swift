/// Frees large values on another thread.
///
/// Why: at the end of a build the site directory and a first build's prerender records (100,000 people: about
/// 0.2 s of `free`) would be freed on the thread that goes on to publish. Handed here as the caller's last use,
/// the caller's own reference goes as its scope ends, normally before the detached task runs, so the task holds
/// the last one. If the task runs first, the value is simply freed by the caller, as before: only the timing
/// depends on the race, never the result.
enum BackgroundRelease {
    static func drop(_ value: some Sendable) {
        Task.detached(priority: .background) { withExtendedLifetime(value) {} }
    }
}

import Synchronization

/// Frees large values on another thread, or not at all in a process that ends with its run.
///
/// Why: at the end of a build the site directory and a first build's prerender records (100,000 people: about
/// 0.1–0.2 s of `free`) would be freed on the thread that goes on to publish and save. The value is moved into a
/// `HandOff` that only the detached task takes from, so the caller holds no reference of its own that could turn out to
/// be the last. (Capturing the value in the task's closure, as this did before, lost the race whenever the task
/// ran at once on an idle core: the task let go of its copy first, and the caller's copy, released as its scope
/// ended, freed everything on the caller's thread. A profile of a 100,000-person build showed it as 150 ms of
/// `swift_release` under `BuildPipeline.run` at the very end.) Callers hand values over with `consume` or as a
/// temporary, so no binding of theirs keeps a copy.
///
/// The `orgdir` command exits as soon as its run is over, and the kernel takes the whole address space back at
/// once. Freeing a hundred thousand people's strings and dictionaries one object at a time first is work for
/// nothing: in a 100,000-person nightly run's profile it was about 4 % of the samples, taken while the state files
/// were saved on both cores (`Benchmarks/ab-nightly.sh OLD NEW 6`: the nightly faster in 5 of 6 pairs, medians
/// 2.06 → 2.00 s, for 27 MiB more at its peak; a first build's peak unchanged). Such a process calls
/// `keepUntilExit()`, and from then on handed-over values are kept instead (tests, which run many builds in one
/// process, keep the default).
enum BackgroundRelease {
    /// Whether values handed over are kept to the end of the process (`keepUntilExit()`).
    private static let keeping = Atomic<Bool>(false)
    /// The values kept, never read: they only have to stay referenced.
    private static let kept = Mutex<[any Sendable]>([])

    /// From now on, values handed to `drop` or `keepIfExiting` are kept until the process exits.
    static func keepUntilExit() {
        keeping.store(true, ordering: .relaxed)
    }

    /// Whether `keepUntilExit()` was called.
    static var keepsUntilExit: Bool { keeping.load(ordering: .relaxed) }

    static func drop<Value: Sendable>(_ value: consuming sending Value) {
        if keepsUntilExit {
            keep(value)
            return
        }
        let handOff = HandOff(value)
        Task.detached(priority: .background) { withExtendedLifetime(handOff.take()) {} }
    }

    /// Keeps a reference to `value` to the end of the process when it ends with its run, so that whichever other
    /// reference goes last frees nothing; does nothing otherwise. For values the caller cannot hand over whole
    /// (a parameter, the result of an `async let`).
    static func keepIfExiting<Value: Sendable>(_ value: Value) {
        if keepsUntilExit { keep(value) }
    }

    private static func keep(_ value: some Sendable) {
        let boxed: any Sendable = value
        kept.withLock { $0.append(boxed) }
    }
}

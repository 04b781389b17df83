import Logging

/// Times the stages of one run for `--verbose`: where a slow nightly spends its time is the first thing an
/// admin (or the next engineer) asks, and a profiler is rarely at hand on the machine that runs cron.
struct StageClock {
    private let logger: Logger
    private var last = ContinuousClock.now

    init(logger: Logger) {
        self.logger = logger
    }

    /// Logs how long the stage that just ended took (since the previous lap).
    mutating func lap(_ stage: String) {
        let now = ContinuousClock.now
        logger.debug("stage \(stage) took \((now - last).formattedMilliseconds)")
        last = now
    }
}

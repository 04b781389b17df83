import Foundation
import Synchronization
import Testing

@testable import OrgDirectory

/// A parallel pass started inside another runs on one core; in the debug builds tests run, it stops the process so
/// the mistake fails the tests (it cannot be seen otherwise, short of a per-thread profile).
@Suite("Parallel work")
struct ParallelWorkTests {
    @Test("passes one after the other run every iteration, and a thread is inside a pass only while it runs one")
    func passesInSequenceRunEveryIteration() {
        for _ in 0..<3 {
            let seen = ChunkResults<Bool>(count: 64)
            ParallelWork.perform(iterations: 64) { iteration in
                seen.set(iteration, .success(ParallelWork.isInsidePass))
            }
            var marks: [Bool] = []
            seen.drain { marks.append($0) }
            #expect(marks == Array(repeating: true, count: 64))
        }
        #expect(!ParallelWork.isInsidePass)
        let (first, second) = BothAtOnce.run({ 1 }, { 2 })
        #expect(first == 1 && second == 2)
    }

    @Test("a pass on threads of its own runs every iteration once, none to many, each inside the pass")
    func ownThreadsRunEveryIterationOnce() {
        for iterations in [0, 1, 2, 3, 97] {
            let seen = ChunkResults<Bool>(count: iterations)
            ParallelWork.performOnOwnThreads(iterations: iterations) { iteration in
                seen.set(iteration, .success(ParallelWork.isInsidePass))
            }
            var marks: [Bool] = []
            seen.drain { marks.append($0) }
            #expect(marks == Array(repeating: true, count: iterations))
            #expect(!ParallelWork.isInsidePass)
        }
        let made: [Int]? = ParallelArray.make(count: 6, ranges: [0..<2, 2..<4, 4..<6], onOwnThreads: true) {
            chunk, slots in
            for slot in slots.indices { slots.initializeElement(at: slot, to: chunk * 2 + slot) }
            return (slots.count, true)
        }
        #expect(made == [0, 1, 2, 3, 4, 5])
    }

    @Test("a pass whose threads cannot be started runs every iteration once on the caller's thread")
    func ownThreadsRefusedLeaveTheWorkToTheCaller() {
        for iterations in [1, 2, 97] {
            let seen = ChunkResults<Bool>(count: iterations)
            let caller = pthread_self()
            let refused = Mutex(0)
            ParallelWork.performOnOwnThreads(
                iterations: iterations,
                launchingThreadsWith: { _ in
                    refused.withLock { $0 += 1 }
                    return nil
                }
            ) { iteration in
                seen.set(iteration, .success(ParallelWork.isInsidePass && pthread_equal(pthread_self(), caller) != 0))
            }
            var marks: [Bool] = []
            seen.drain { marks.append($0) }
            #expect(marks == Array(repeating: true, count: iterations))
            #expect(!ParallelWork.isInsidePass)
            // One thread asked for per core beyond the caller's, none for a single iteration.
            let asked = min(iterations, ProcessInfo.processInfo.activeProcessorCount) - 1
            #expect(refused.withLock { $0 } == asked)
        }
    }

    @Test("a thread that cannot be launched releases the work it was given and never runs it; one launched runs it")
    func refusedLaunchReleasesTheWork() {
        let ran = Mutex(0)
        weak var released: ThreadWork?
        do {
            let work = ThreadWork { ran.withLock { $0 += 1 } }
            released = work
            var offered: UnsafeMutableRawPointer?
            #expect(
                work.start(launchingWith: { context in
                    offered = context
                    return nil
                }) == nil)
            #expect(offered == Unmanaged.passUnretained(work).toOpaque(), "the launcher got the work as its context")
            let thread = work.start()
            #expect(thread != nil)
            if let thread { pthread_join(thread, nil) }
        }
        #expect(released == nil, "neither the refused launch nor the finished thread keeps the work")
        #expect(ran.withLock { $0 } == 1)
    }

    @Test("a pass started inside another pass stops the process, whichever of BothAtOnce and ParallelArray nests")
    func nestedPassesStopTheProcess() async {
        await #expect(processExitsWith: .failure) {
            _ = BothAtOnce.run({ BothAtOnce.run({ 1 }, { 2 }).0 }, { 3 })
        }
        await #expect(processExitsWith: .failure) {
            _ = BothAtOnce.run(
                {
                    ParallelArray.make(count: 2, ranges: [0..<1, 1..<2]) { chunk, slots in
                        slots.initializeElement(at: 0, to: chunk)
                        return (1, true)
                    }
                }, { 3 })
        }
        await #expect(processExitsWith: .failure) {
            ParallelWork.performOnOwnThreads(iterations: 4) { _ in _ = BothAtOnce.run({ 1 }, { 2 }) }
        }
        await #expect(processExitsWith: .failure) {
            _ = BothAtOnce.run(
                {
                    ParallelWork.performOnOwnThreads(iterations: 4) { _ in }
                    return 1
                }, { 2 })
        }
    }
}

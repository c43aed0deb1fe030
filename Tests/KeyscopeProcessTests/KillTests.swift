import Foundation
import KeyscopeCore
import KeyscopeTesting
import Testing

/// kill -9 a writer at random moments: the store file must always hold a whole state, old or new, never a torn one.
///
/// Each round starts `KeyscopeTestChild loop-file`, which reads `counter` from the file and then forever prints
/// `counter + 1`, writes `counter` and a `blob` derived from it in one change, and (by default) flushes. The test
/// waits for the first printed line, sleeps 5–80 ms, sends SIGKILL, reads every line the child printed up to its
/// death (the pipe's end), and checks the file. What is asserted after each kill, and why:
/// - the file parses with the strict reader and is a store document at version 1.0.0: the rename in
///   `AtomicFile` replaces the whole file or nothing;
/// - `blob` matches `counter`: the two were written in one change, and a torn write would break the match;
/// - `previous ≤ counter ≤ lastPrinted`: never older than what a previous round left (no lost or rolled-back
///   save), never newer than what the child announced (it prints before it writes);
/// - with a flush after every write, also `counter ≥ lastPrinted − 1`: a flushed change is durable before the next
///   one is printed, so at most the announced, in-flight one is missing;
/// - the first counter of a round is `previous + 1`: the child continues from the file's content;
/// - at most one temporary (`.store.json.tmp-<pid>-…`) is left, and only one of the killed child's pid: a save
///   killed between creating and renaming its temporary leaves it behind (nothing cleans it up later), but a
///   writer never has more than one save in flight. Each round removes such a left-over so the next round's
///   check sees only its own.
/// The rounds are bounded in number (and each wait in time); nothing asserts how fast anything happens.
@Suite("kill -9 during writes", .serialized)
struct KillTests {
    @Test("a flushing writer killed at random moments leaves the old or the new state", .timeLimit(.minutes(10)))
    func killFlushingWriter() throws {
        try killRepeatedly(rounds: 40, flushEachWrite: true)
    }

    @Test(
        "a coalescing writer (background saves) killed at random moments leaves a whole state",
        .timeLimit(.minutes(10)))
    func killCoalescingWriter() throws {
        try killRepeatedly(rounds: 30, flushEachWrite: false)
    }

    private func killRepeatedly(rounds: Int, flushEachWrite: Bool) throws {
        // KEYSCOPE_KILL_SEED replays the delays of a failed run (its seed is in every failure message).
        let seed =
            ProcessInfo.processInfo.environment["KEYSCOPE_KILL_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        try withChildSandbox { sandbox in
            let path = sandbox.storeFile.path
            var previous: Int64 = 0
            var killedMidRun = 0
            for round in 1...rounds {
                let context = Comment(rawValue: "round \(round), seed \(seed)")
                let running = try sandbox.child.start(
                    ["loop-file", path] + (flushEachWrite ? [] : ["--no-flush"]), environment: sandbox.environment)
                let first = try #require(try running.nextLine(timeout: .seconds(60)), context)
                #expect(Int64(first) == previous + 1, "the child did not continue from the file; \(context)")
                Thread.sleep(forTimeInterval: Double(random.next(in: 5...80)) / 1000)
                running.kill()
                let outcome = try running.wait(timeout: .seconds(60))
                try #require(outcome.signaled && outcome.status == SIGKILL, "\(context): \(outcome)")
                let printed = outcome.lines.compactMap { Int64($0) }
                try #require(printed.count == outcome.lines.count, "stray output; \(context): \(outcome)")
                let lastPrinted = try #require(printed.last, context)

                let data = try Data(contentsOf: sandbox.storeFile)
                let document = try #require(
                    try? StoreValue(jsonData: data),
                    "torn file: \(String(decoding: data.prefix(200), as: UTF8.self))…; \(context)")
                #expect(document["version"] == "1.0.0", context)
                let counter = document["root"]?["counter"]?.integerValue ?? 0
                if counter > 0 {
                    #expect(
                        document["root"]?["blob"]?.stringValue == expectedBlob(counter), "blob ≠ counter; \(context)")
                }
                #expect(counter >= previous, "the file went back from \(previous) to \(counter); \(context)")
                #expect(counter <= lastPrinted, "the file holds \(counter), printed only \(lastPrinted); \(context)")
                if flushEachWrite {
                    #expect(
                        counter >= lastPrinted - 1, "flushed \(lastPrinted - 1) is not on disk: \(counter); \(context)")
                }

                let temporaries = try sandbox.strayTemporaries()
                #expect(temporaries.count <= 1, "\(temporaries); \(context)")
                for name in temporaries {
                    #expect(name.hasPrefix(".store.json.tmp-\(running.processIdentifier)-"), "\(name); \(context)")
                    try FileManager.default.removeItem(
                        at: sandbox.storeFile.deletingLastPathComponent()
                            .appendingPathComponent(name))
                }
                killedMidRun += temporaries.count
                previous = counter
            }
            let names = try FileManager.default.contentsOfDirectory(
                atPath: sandbox.storeFile.deletingLastPathComponent().path)
            #expect(names == ["store.json"])
            // Not an assertion on timing: just how often a kill landed mid-save, for whoever reads the log.
            print("KillTests: \(rounds) rounds, counter \(previous), \(killedMidRun) kills left a temporary")
        }
    }

    /// The child's `LoopCommand.blob(for:)`: `"<counter>:"` repeated, cut to 6 KiB.
    private func expectedBlob(_ counter: Int64) -> String {
        let unit = "\(counter):"
        let repeated = String(repeating: unit, count: 6 * 1024 / unit.utf8.count + 1)
        return String(repeated.utf8.prefix(6 * 1024))!
    }
}

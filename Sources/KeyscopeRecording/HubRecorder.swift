import Dispatch
public import Foundation
import KeyscopeCodec
import KeyscopeCore
public import KeyscopeInspector
public import Logging
import Synchronization

/// Records an ``KeyscopeInspector/InspectorHub``'s log into a file, inside the process (the embedding API; the
/// `POST /api/recordings` route through ``RecordingLibrary``).
///
/// ```swift
/// let recorder = try HubRecorder(
///     hub: inspector.server.hub, to: URL(fileURLWithPath: "/tmp/bug-1234.kslog"),
///     options: HubRecorder.Options(duration: .seconds(60), mute: try MuteRules(patterns: ["user.card"])))
/// // … reproduce the bug …
/// let status = recorder.stop()        // everything up to now is in the file
/// print(status.events, status.bytes, status.endReason!)
/// ```
/// It takes a snapshot and a cursor from the hub (``KeyscopeInspector/InspectorHub/makeCursor()``), writes the
/// header at once (so `init` throws when the file cannot be made), then follows the cursor on a timer of its own
/// (``Options/pollInterval``): the hub's one append-signal hook belongs to its server, and the hub never waits for
/// a reader anyway. Every entry after the snapshot is written, in order, renumbered from 1 (``RecordingWriter``).
///
/// It ends on ``stop()`` (after writing every entry up to that moment), after ``Options/duration``, before
/// ``Options/maxBytes`` would be passed, when the hub's log dropped entries it had not read (`fell-behind`: the file
/// keeps every event before them) or when writing fails. Releasing the recorder stops it. Thread-safe.
public final class HubRecorder: Sendable {
    /// The hub it records; `nil` when it records another ``RecorderFeed``.
    public let hub: InspectorHub?
    public let url: URL
    public let options: Options

    private let writer: RecordingWriter
    private let feed: any RecorderFeed
    /// Where a recording that ends for a failure (a full disk, the log outrunning it) says so.
    private let logger: Logger
    private let deadline: ContinuousClock.Instant?

    /// Held while reading the log and writing (the timer's ticks and ``stop()``); taken before `shared`.
    private let work = Mutex(false)

    private struct Shared {
        var status: Status
        var timer: (any DispatchSourceTimer)?
        var waiters: [CheckedContinuation<Status, Never>] = []
    }

    /// The status and the waiters; never held while reading the log or calling out.
    private let shared: Mutex<Shared>

    /// Starts recording `hub` into `url`: the header is written when this returns.
    ///
    /// - Throws: ``RecordingError``: ``RecordingError/Code/io`` when the file exists (without
    ///   ``Options/overwrite``) or cannot be written, ``RecordingError/Code/tooLarge`` when the header alone passes
    ///   ``Options/maxBytes``.
    /// - Parameter logger: where an end for `failed` (error) or `fell-behind` (warning) is logged, with its reason.
    public convenience init(
        hub: InspectorHub, to url: URL, options: Options = Options(),
        logger: Logger = Logger(label: "keyscope.recording")
    ) throws(RecordingError) {
        try self.init(feed: HubFeed(hub: hub), to: url, options: options, logger: logger)
    }

    /// Starts recording what `feed` gives into `url` (another process's log, as a fleet dashboard mirrors it):
    /// the header is written when this returns. Throws as ``init(hub:to:options:logger:)`` does.
    public init(
        feed: any RecorderFeed, to url: URL, options: Options = Options(),
        logger: Logger = Logger(label: "keyscope.recording")
    ) throws(RecordingError) {
        self.hub = (feed as? HubFeed)?.hub
        self.url = url
        self.options = options
        self.logger = logger
        let start = feed.begin()
        let startedAt = LogTime.now
        self.feed = feed
        self.writer = try RecordingWriter(
            url: url, createdAt: startedAt, source: options.source, stores: start.stores,
            liveSeq: start.liveSeq, subscriptions: start.subscriptions,
            options: RecordingWriter.Options(
                maxBytes: options.maxBytes, mute: options.mute, overwrite: options.overwrite))
        self.deadline = options.duration.map { ContinuousClock.now + $0 }
        self.shared = Mutex(
            Shared(
                status: Status(
                    name: url.lastPathComponent, url: url, state: .recording, events: 0,
                    bytes: writer.counts.bytes, startedAt: startedAt, headerLiveSeq: start.liveSeq,
                    lastLiveSeq: start.liveSeq)))
        shared.withLock { $0.timer = makeTimer() }
    }

    deinit { stop() }

    /// Where the recording stands now.
    public var status: Status { shared.withLock { $0.status } }

    /// Writes every entry the hub has logged up to now, then ends the recording (``EndReason/stopped``, unless it
    /// ended otherwise first) and returns the final status. Idempotent: once ended, returns the final status.
    @discardableResult
    public func stop() -> Status {
        work.withLock { ended in advance(&ended, endingWith: .stopped) }
        return status
    }

    /// Writes every entry the hub has logged up to now without ending the recording (the timer does the same on
    /// its own), and returns the status: for a caller about to read the file.
    @discardableResult
    public func catchUp() -> Status {
        work.withLock { ended in advance(&ended, endingWith: nil) }
        return status
    }

    /// Waits until the recording has ended (stopped, or for one of its bounds) and returns the final status.
    public func ended() async -> Status {
        await withCheckedContinuation { (waiter: CheckedContinuation<Status, Never>) in
            let done = shared.withLock { shared -> Status? in
                if shared.status.state == .ended { return shared.status }
                shared.waiters.append(waiter)
                return nil
            }
            if let done { waiter.resume(returning: done) }
        }
    }

    // MARK: Following the log

    /// The timer: writes what the log has; ends the recording at its deadline. Skipped while ``stop()`` works.
    private func tick() {
        _ = work.withLockIfAvailable { ended in
            let due = deadline.map { ContinuousClock.now >= $0 } ?? false
            advance(&ended, endingWith: due ? .duration : nil)
        }
    }

    /// Writes every entry the hub has logged up to now, then ends the recording for `end` (unless writing ended it
    /// first), or with `end` `nil` publishes the new counts. Up to what the log holds now, not beyond: a tick ends
    /// even when the stores never rest, so that ``stop()`` and the deadline get their turn. Called with `work` held;
    /// does nothing once ended.
    private func advance(_ ended: inout Bool, endingWith end: EndReason?) {
        guard !ended else { return }
        if let failure = drain(through: feed.lastSeq) {
            finish(&ended, failure.reason, failure.message)
        } else if let end {
            finish(&ended, end, nil)
        } else {
            publishCounts()
        }
    }

    /// Writes the cursor's entries until the entry after `target` is next (or the cursor has none left). Returns
    /// why the recording must end, with what happened, or `nil` to go on. Called with `work` held.
    private func drain(through target: Int) -> (reason: EndReason, message: String)? {
        do {
            while feed.nextSeq <= target {
                if let list = feed.subscriptionsUpdate() { writer.noteSubscriptions(list) }
                guard let read = feed.next(maxEntries: 4096, maxBytes: 8 << 20) else { return nil }
                switch read {
                case .events(let events):
                    for event in events {
                        let outcome = try writer.append(
                            event.event, time: event.time, liveSeq: event.liveSeq, encoded: event.encoded)
                        guard outcome != .full else {
                            let bound = options.maxBytes.map { "the bound of \($0) bytes" } ?? "the bound"
                            return (.maxBytes, "the event of live seq \(event.liveSeq) would have passed \(bound)")
                        }
                    }
                case .lost(let from, let to):
                    return (
                        .fellBehind,
                        "the log dropped entries \(from)…\(to) before the recorder read them; the file holds every "
                            + "event up to live seq \(from - 1)"
                    )
                case .lostThread:
                    return (.fellBehind, "the log no longer follows the recorder's position")
                }
            }
            return nil
        } catch {
            return (.failed, error.description)
        }
    }

    /// Closes the file, stops the timer and wakes the waiters; `message` says what ended it when ``drain(through:)``
    /// did. Called with `work` held.
    private func finish(_ ended: inout Bool, _ reason: EndReason, _ message: String?) {
        ended = true
        writer.close()
        let counts = writer.counts
        let (timer, waiters, status) = shared.withLock { shared in
            shared.status.state = .ended
            shared.status.endedAt = .now
            shared.status.endReason = reason
            shared.status.message = message
            shared.status.events = counts.events
            shared.status.bytes = counts.bytes
            shared.status.lastLiveSeq = counts.lastLiveSeq ?? shared.status.lastLiveSeq
            defer {
                shared.timer = nil
                shared.waiters = []
            }
            return (shared.timer, shared.waiters, shared.status)
        }
        timer?.cancel()
        // A failed write (ENOSPC, EIO) ends the recording, never the service: the service's log says so.
        let summary = "recording \(url.path) ended (\(reason)) after \(counts.events) events"
        if let message, reason == .failed {
            logger.error("\(summary): \(message); the file keeps every complete line before")
        } else if let message, reason == .fellBehind {
            logger.warning("\(summary): \(message)")
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    /// The running timer that calls ``tick()`` every ``Options/pollInterval``.
    private func makeTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "keyscope.recorder", qos: .utility))
        // A duration shorter than the poll interval still ends on time.
        let poll = min(options.pollInterval, options.duration ?? options.pollInterval)
        let interval = DispatchTimeInterval.nanoseconds(Self.nanoseconds(poll))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(5))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        return timer
    }

    private func publishCounts() {
        let counts = writer.counts
        shared.withLock { shared in
            shared.status.events = counts.events
            shared.status.bytes = counts.bytes
            shared.status.lastLiveSeq = counts.lastLiveSeq ?? shared.status.lastLiveSeq
        }
    }

    /// The recording's event for a hub entry.
    static func event(_ entry: HubLogEntry) -> KeyscopeCodec.LogEvent {
        switch entry.event {
        case .change(let change): .change(change)
        case .registered(let version, let root): .registered(entry.storeID, version: version, root: root)
        case .reset(let version): .reset(entry.storeID, version: version)
        case .removed: .removed(entry.storeID)
        }
    }

    /// A subscription list in the docs/protocol.md shape (one object per subscription and path).
    static func list(_ subscriptions: [SubscriptionInfo]) -> StoreValue {
        .array(subscriptions.flatMap(HubMessages.subscriptionObjects))
    }

    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}

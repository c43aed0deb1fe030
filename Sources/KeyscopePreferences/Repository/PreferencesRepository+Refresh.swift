import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeSecrets
import Logging
import Synchronization

/// Rescans: which containers exist, what they hold, and one mirror change per container that changed.
extension PreferencesRepository {
    /// One container as a scan read it.
    private enum Scan {
        case found(location: String, entries: [String: MirrorEntry], modified: Date?)
        /// Gone, or not to be mirrored (a suite that holds a Keyscope store): its mirror is unregistered.
        case absent
        /// Could not be read now: its mirror is left as it is.
        case failed
    }

    /// Scans every source and brings the mirrors up to date.
    func rescan() {
        guard !isStopped else { return }
        var problems: [String] = []
        let wanted = discover(&problems)
        let gone = state.withLock { state -> [StoreID] in
            let names = state.containers.keys.filter { !wanted.contains($0) }
            return names.compactMap { state.containers.removeValue(forKey: $0)?.store.id }
        }
        for id in gone { registry.unregister(id) }
        for name in wanted.sorted() { refreshContainer(name, problems: &problems) }
        for problem in problems { logger.warning("\(problem)") }
        state.withLock { $0.problems = problems }
    }

    /// The containers the configuration selects among those the sources have.
    private func discover(_ problems: inout [String]) -> Set<ContainerName> {
        var names = Set<ContainerName>()
        let suites: [String]
        if configuration.discoverUserDefaults {
            do {
                suites = try userDefaults.suiteNames()
            } catch {
                problems.append(error.message)
                suites = state.withLock { $0.containers.keys.filter { $0.source == .userDefaults }.map(\.name) }
            }
        } else {
            suites = PreferenceNames.plainNames(configuration.includeSuites)
        }
        for suite in suites
        where PreferenceNames.isSelected(
            suite, include: configuration.includeSuites, exclude: configuration.excludeSuites)
        {
            names.insert(ContainerName(source: .userDefaults, name: suite))
        }
        guard let secrets else { return names }
        var services: [String]
        if configuration.discoverSecrets {
            do {
                services = try secrets.services()
            } catch {
                problems.append(error.message)
                services = state.withLock { $0.containers.keys.filter { $0.source == .secrets }.map(\.name) }
            }
        } else {
            services = PreferenceNames.plainNames(configuration.includeServices)
        }
        services = services.filter { service in
            do throws(PreferenceSourceError) {
                try PreferenceNames.check(service, source: .secrets)
                return true
            } catch {
                problems.append(error.message + "; the service is left out")
                return false
            }
        }
        for service in services
        where PreferenceNames.isSelected(
            service, include: configuration.includeServices, exclude: configuration.excludeServices)
        {
            names.insert(ContainerName(source: .secrets, name: service))
        }
        return names
    }

    /// Reads one container and applies what changed to its mirror (registering it when new), retrying when a
    /// write through the mirror overtook the read.
    private func refreshContainer(_ name: ContainerName, problems: inout [String]) {
        for _ in 0..<4 {
            // The generation is read before the source, so that a write carried to the source after this read
            // shows as a newer generation when the change is committed (see MirrorWrite.Kind.refresh).
            let known = state.withLock { state in state.containers[name] }
            switch scan(name, problems: &problems) {
            case .failed:
                return
            case .absent:
                let removed = state.withLock { state in state.containers.removeValue(forKey: name) }
                if let removed { registry.unregister(removed.store.id) }
                return
            case .found(let location, let scanned, let modified):
                if let known {
                    let entries = Self.nextEntries(old: known.entries, scanned: scanned, now: Date())
                    if apply(entries, location: location, to: known, problems: &problems) { return }
                } else {
                    let entries = scanned.mapValues { entry in
                        var entry = entry
                        entry.timestamp = modified ?? entry.timestamp
                        return entry
                    }
                    if register(name, location: location, entries: entries, problems: &problems) { return }
                }
            }
        }
        problems.append("\(name) kept changing while it was rescanned; its mirror may lag until the next refresh")
    }

    /// Makes and registers the mirror of a new container; `false` when another rescan made it meanwhile.
    private func register(
        _ name: ContainerName, location: String, entries: [String: MirrorEntry], problems: inout [String]
    ) -> Bool {
        let store = KeyValueStore(
            id: name.storeID, root: entries.mapValues(\.value), gate: MirrorGate(repository: self, container: name))
        let added = state.withLock { state -> Bool in
            guard !state.stopped, state.containers[name] == nil else { return false }
            state.containers[name] = MirrorContainer(name: name, store: store, location: location, entries: entries)
            return true
        }
        guard added else { return isStopped }
        do {
            try registry.register(store)
        } catch {
            state.withLock { state in
                if state.containers[name]?.store === store { state.containers[name] = nil }
            }
            problems.append("\(name) cannot be mirrored: \(error.message)")
        }
        return true
    }

    /// Applies a rescan's entries to a known mirror as one change; `false` when a write went through meanwhile.
    private func apply(
        _ entries: [String: MirrorEntry], location: String, to container: MirrorContainer, problems: inout [String]
    ) -> Bool {
        let marker = MirrorWrite(
            repository: ObjectIdentifier(self), container: container.name,
            kind: .refresh(generation: container.generation, entries: entries))
        do {
            try MirrorWrite.$current.withValue(marker) {
                try container.store.transaction { tx in
                    let shown = tx.get(.root)?.objectValue ?? [:]
                    for (key, entry) in entries where shown[key] != entry.value {
                        try tx.set(StoreKeyPath(segments: [.key(key)]), entry.value)
                    }
                    for key in shown.keys where entries[key] == nil {
                        try tx.remove(StoreKeyPath(segments: [.key(key)]))
                    }
                }
            }
        } catch let error as StoreError where error.code == .conflict {
            return false
        } catch {
            problems.append("\(container.name) could not be updated from its source: \(error)")
            return true
        }
        // Without a change (values the same) the gate did not run: record the entries' other details here.
        state.withLock { state in
            guard var current = state.containers[container.name] else { return }
            current.location = location
            if current.generation == container.generation { current.entries = entries }
            state.containers[container.name] = current
        }
        return true
    }

    /// A rescan's entries with the timestamps of the values that did not change kept.
    private static func nextEntries(old: [String: MirrorEntry], scanned: [String: MirrorEntry], now: Date)
        -> [String: MirrorEntry]
    {
        scanned.reduce(into: [:]) { entries, pair in
            var entry = pair.value
            if let previous = old[pair.key], previous.sameValue(as: entry) {
                entry.timestamp = previous.timestamp
            } else {
                entry.timestamp = now
            }
            entries[pair.key] = entry
        }
    }

    /// Reads one container from its source.
    private func scan(_ name: ContainerName, problems: inout [String]) -> Scan {
        switch name.source {
        case .userDefaults: scanSuite(name.name, problems: &problems)
        case .secrets: scanService(name.name, problems: &problems)
        }
    }

    private func scanSuite(_ suite: String, problems: inout [String]) -> Scan {
        let scanned: ScannedSuite?
        do {
            scanned = try userDefaults.read(suite: suite)
        } catch {
            problems.append("suite \(PreferenceNames.quoted(suite)) cannot be read: \(error.message)")
            return .failed
        }
        guard let scanned else {
            // An included suite (discovery off) is shown even before it has a file.
            if configuration.discoverUserDefaults { return .absent }
            return .found(location: userDefaults.fileURL(forSuite: suite).path, entries: [:], modified: nil)
        }
        guard !scanned.holdsKeyscopeStore else { return .absent }
        problems += scanned.problems.map { "suite \(PreferenceNames.quoted(suite)): \($0); the key is left out" }
        let now = Date()
        var entries: [String: MirrorEntry] = [:]
        for (key, value) in scanned.values {
            let system = PreferenceNames.isSystemKey(key)
            guard !system || configuration.showSystemKeys, let type = scanned.types[key] else { continue }
            entries[key] = MirrorEntry(value: value, type: type, timestamp: now, system: system)
        }
        return .found(location: scanned.fileURL.path, entries: entries, modified: scanned.modified)
    }

    private func scanService(_ service: String, problems: inout [String]) -> Scan {
        guard let secrets else { return .absent }
        do {
            let items = try secrets.items(service: service)
            if items.isEmpty && configuration.discoverSecrets { return .absent }
            let now = Date()
            var entries: [String: MirrorEntry] = [:]
            for item in items {
                let shown = SecretsScanner.shown(item.value, reveal: configuration.revealSecrets)
                entries[item.account] = MirrorEntry(
                    value: shown.value, type: shown.type, timestamp: item.modified ?? now, length: shown.length,
                    redacted: shown.redacted, fingerprint: Self.fingerprint(item.value))
            }
            return .found(location: secrets.store.backendName, entries: entries, modified: nil)
        } catch {
            problems.append("secret service \(PreferenceNames.quoted(service)) cannot be read: \(error.message)")
            return .failed
        }
    }
}

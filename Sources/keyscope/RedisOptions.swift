import ArgumentParser
import Foundation
import KeyscopeCore
import KeyscopeFleet
import KeyscopeRedis

/// `serve --demo`'s options for Redis (docs/fleet.md): the demo's backend store then lives in Redis and is shared
/// live by every instance given the same URL and fleet, and the instance joins the fleet (a `keyscope fleet`
/// dashboard shows it).
struct RedisOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Join the fleet in this Redis and keep the demo's backend store there, shared with other instances "
                + "(redis://[user:password@]host:port[/db]; default $KEYSCOPE_REDIS_URL).",
            valueName: "URL"))
    var redis: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Fleet name: the Redis key prefix the instances share (default keyscope).", valueName: "NAME"))
    var fleet: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "This instance's id in the fleet, the origin of its changes elsewhere (default <host>-<pid>).",
            valueName: "ID"))
    var instance: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Entries of this instance's log the fleet keeps in Redis (approximately; default 100000).",
            valueName: "N"))
    var fleetLog: Int?

    func validate() throws {
        if let fleetLog, fleetLog < 1000 {
            throw ValidationError("--fleet-log must be at least 1000 entries; got \(fleetLog).")
        }
    }

    /// `--redis`, else `$KEYSCOPE_REDIS_URL` when set and not empty.
    func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        redis ?? environment["KEYSCOPE_REDIS_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The backend for the demo's backend store: Redis when a URL is given, else an in-process one.
    /// - Throws: `ValidationError` naming what is wrong (never the password).
    func makeBackend(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> any BackendAdapter
    {
        guard let text = url(environment: environment) else {
            guard fleet == nil, instance == nil else {
                throw ValidationError("--fleet and --instance need --redis URL (or KEYSCOPE_REDIS_URL).")
            }
            return InMemoryBackend()
        }
        do {
            return try RedisBackend(url: text, fleet: fleet ?? "keyscope", instance: instance)
        } catch {
            throw ValidationError("--redis: \(error.message)")
        }
    }

    /// The instance's membership of the fleet when a URL is given (`nil` without one).
    /// - Throws: `ValidationError` naming what is wrong (never the password).
    func makeFleetMember(
        name: String, readOnly: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FleetMember? {
        guard let text = url(environment: environment) else { return nil }
        do {
            var options = try FleetOptions(
                redis: text, fleet: fleet ?? "keyscope", instance: instance, name: name, readOnly: readOnly)
            if let fleetLog { options.logLength = fleetLog }
            return FleetMember(options)
        } catch {
            throw ValidationError("--redis: \(error.message)")
        }
    }

    /// `redis://host:port/db (fleet F, instance I)` for a Redis backend (never credentials), `nil` for others.
    static func describe(_ backend: any BackendAdapter) -> String? {
        guard let redis = backend as? RedisBackend else { return nil }
        return "\(redis.url) (fleet \(redis.fleet), instance \(redis.instance))"
    }
}

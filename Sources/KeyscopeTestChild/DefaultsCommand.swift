import Foundation
import KeyscopeCore

/// `defaults-set SUITE KEY PLIST-JSON`, `defaults-remove SUITE KEY`, `defaults-get SUITE KEY`, `defaults-dump SUITE`:
/// raw UserDefaults keys, written the way an app writes them (no Keyscope store), for the preference tests.
///
/// Values are property-list values in JSON text (docs/store.md): strings, integers, numbers, booleans, arrays and
/// objects as they are, and two escaped forms for the rest: `{"$$date": "2026-11-21T10:00:00Z"}` is a date and
/// `{"$$data": "AQID"}` is data (base64); inside JSON an object key `$$date` is the key `$date`, per docs/store.md.
/// Output uses the same forms: `defaults-get` prints the value on one line (or `missing`), `defaults-dump` the whole
/// suite as one object, keys sorted; booleans and numbers are told apart as Foundation stores them.
///
/// Every write calls `synchronize()` and fails (exit 70) when it returns false; every read calls it first, so that
/// the suite is read from its file as it is now.
struct DefaultsCommand {
    let arguments: Arguments

    func run() -> Never {
        let suite = arguments.positionals[0]
        let defaults = suite == "-" ? UserDefaults.standard : UserDefaults(suiteName: suite)
        guard let defaults else {
            Output.fail("UserDefaults refused the suite name \"\(suite)\"", code: ExitCode.usage)
        }
        _ = defaults.synchronize()
        switch arguments.command {
        case .defaultsSet:
            let text = arguments.positionals[2]
            let value: StoreValue
            do {
                value = try StoreValue(jsonText: text)
            } catch {
                Output.fail("PLIST-JSON \(text) is not JSON: \(error)", code: ExitCode.dataError)
            }
            defaults.set(Self.plist(value), forKey: arguments.positionals[1])
            save(defaults)
        case .defaultsRemove:
            defaults.removeObject(forKey: arguments.positionals[1])
            save(defaults)
        case .defaultsGet:
            let domain = defaults.persistentDomain(forName: domainName(suite)) ?? [:]
            let value = domain[arguments.positionals[1]].flatMap(Self.unwrap)
            Output.line(value.map { Self.json($0).jsonText(sortedKeys: true) } ?? "missing")
        case .defaultsDump:
            let domain = defaults.persistentDomain(forName: domainName(suite)) ?? [:]
            Output.line(
                StoreValue.object(domain.compactMapValues { Self.unwrap($0).map(Self.json) }).jsonText(sortedKeys: true)
            )
        default:
            Output.fail("\(arguments.command.rawValue) is not a defaults command", code: ExitCode.usage)
        }
        exit(0)
    }

    private func save(_ defaults: UserDefaults) {
        guard defaults.synchronize() else {
            Output.fail("UserDefaults could not save suite \(arguments.positionals[0])", code: ExitCode.software)
        }
        Output.line("ok")
    }

    private func domainName(_ suite: String) -> String {
        suite == "-" ? (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName) : suite
    }

    /// The property-list object for `value`; null has none and ends the child with exit 65.
    static func plist(_ value: StoreValue) -> Any {
        switch value {
        case .string(let text): return text
        case .integer(let integer): return Int(truncatingIfNeeded: integer)
        case .number(let number): return number
        case .bool(let flag): return flag
        case .array(let elements): return elements.map(plist)
        case .object(let members):
            if members.count == 1, let text = members["$date"]?.stringValue {
                guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                    Output.fail("\(text) is not an ISO 8601 time", code: ExitCode.dataError)
                }
                return date
            }
            if members.count == 1, let text = members["$data"]?.stringValue {
                guard let data = Data(base64Encoded: text) else {
                    Output.fail("\(text) is not base64", code: ExitCode.dataError)
                }
                return data
            }
            return members.mapValues(plist)
        case .color(let color): return color.description
        case .url(let url): return url.absoluteString
        case .null: Output.fail("a suite cannot hold null", code: ExitCode.dataError)
        }
    }

    /// `object` in the command's JSON form.
    static func json(_ object: Any) -> StoreValue {
        switch object {
        case let text as String: return .string(text)
        case let date as Date: return ["$date": .string(date.formatted(.iso8601))]
        case let data as Data: return ["$data": .string(data.base64EncodedString())]
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": return .bool(number.boolValue)
            case "d", "f": return .number(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        case let elements as [Any]: return .array(elements.map { unwrap($0).map(json) ?? .null })
        case let members as [String: Any]: return .object(members.compactMapValues { unwrap($0).map(json) })
        case let members as [AnyHashable: Any]:
            var object: [String: StoreValue] = [:]
            for (key, member) in members { object["\(key.base)"] = unwrap(member).map(json) }
            return .object(object)
        default: return .string("<\(type(of: object))>")
        }
    }

    /// `object` without corelibs Foundation's `Optional` boxes.
    static func unwrap(_ object: Any) -> Any? {
        let mirror = Mirror(reflecting: object)
        guard mirror.displayStyle == .optional else { return object }
        guard let wrapped = mirror.children.first?.value else { return nil }
        return unwrap(wrapped)
    }
}

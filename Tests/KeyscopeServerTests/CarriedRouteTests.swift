import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeServer
import KeyscopeTunables
import Testing

/// `CarriedRoute`: a feature route called without HTTP, as a fleet instance answers one its dashboard carried.
@Suite struct CarriedRouteTests {
    func setUp(readOnly: Bool = false) throws -> (InspectorHub, FakeTunables) {
        let hub = InspectorHub(registry: StoreRegistry(), options: HubOptions(readOnly: readOnly))
        hub.start()
        let tunables = try FakeTunables(registry: hub.registry, values: TuneHarness.initial, schema: TuneHarness.schema)
        hub.tunablesFeature.endpoint = tunables
        return (hub, tunables)
    }

    private func body(_ result: Result<(status: Int, body: [UInt8]), HubError>) throws -> (Int, StoreValue) {
        let answer = try result.get()
        return (answer.status, try StoreValue(jsonBytes: answer.body))
    }

    @Test func aRouteIsFoundByThePathAsSentAndAnswersAsOverHTTP() throws {
        let (hub, tunables) = try setUp()
        let (status, reply) = try body(
            CarriedRoute(method: "PUT", path: "/tune/title/Hello%2C%20world%2F2").call(on: hub, readOnly: false))
        #expect(status == 200)
        #expect(reply["value"] == "Hello, world/2")
        #expect(reply["seq"]?.integerValue == Int64(hub.lastSeq))
        #expect(tunables.store.snapshot()["title"] == "Hello, world/2")
        let (_, values) = try body(CarriedRoute(method: "GET", path: "/tune").call(on: hub, readOnly: false))
        #expect(values["title"] == "Hello, world/2")
    }

    @Test func aRouteWithABodyGetsIt() throws {
        let (hub, tunables) = try setUp()
        let route = CarriedRoute(method: "POST", path: "/tune", body: .object(["height": 60]))
        let (status, reply) = try body(route.call(on: hub, readOnly: false))
        #expect(status == 200 && reply["count"] == 1)
        #expect(tunables.store.snapshot() == ["height": 60])
    }

    @Test func writesAreRefusedOnAReadOnlyInstanceAndReadsAreNot() throws {
        let (hub, tunables) = try setUp()
        let before = tunables.store.snapshot()
        let refused = CarriedRoute(method: "PUT", path: "/tune/height/64").call(on: hub, readOnly: true)
        #expect(throws: HubError.self) { try refused.get() }
        if case .failure(let error) = refused { #expect(error.code == .readOnly) }
        #expect(tunables.store.snapshot() == before)
        #expect((try? CarriedRoute(method: "GET", path: "/tune").call(on: hub, readOnly: true).get()) != nil)
        let (readOnlyHub, _) = try setUp(readOnly: true)
        if case .failure(let error) = CarriedRoute(method: "DELETE", path: "/tune/height").call(
            on: readOnlyHub, readOnly: false)
        {
            #expect(error.code == .readOnly)
        } else {
            Issue.record("a read-only hub took a carried write")
        }
    }

    @Test func unknownPathsMethodsAndTheServersOwnRoutesAreRefused() throws {
        let (hub, _) = try setUp()
        let cases: [(CarriedRoute, HubError.Code)] = [
            (CarriedRoute(method: "GET", path: "/api/nothing"), .notFound),
            (CarriedRoute(method: "GET", path: "/api/snapshot"), .notFound),  // the server's own: not carried
            (CarriedRoute(method: "PATCH", path: "/tune"), .badRequest),
            (CarriedRoute(method: "DELETE", path: "/api/tunables"), .methodNotAllowed),
            (CarriedRoute(method: "PUT", path: "/tune/bad%ZZ/1"), .badRequest),
        ]
        for (route, code) in cases {
            switch route.call(on: hub, readOnly: false) {
            case .success(let answer): Issue.record("\(route.method) \(route.path) answered \(answer.status)")
            case .failure(let error): #expect(error.code == code, "\(route.method) \(route.path): \(error)")
            }
        }
    }

    @Test func aRouteThatAnswersLaterIsWaitedFor() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        hub.start()
        hub.add(LaterFeature())
        let (status, reply) = try body(CarriedRoute(method: "GET", path: "/api/later").call(on: hub, readOnly: false))
        #expect(status == 202 && reply["answered"] == "later")
    }

    @Test func aRouteThatMayNotCrossTheFleetIsRefused() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        hub.start()
        hub.add(SecretFeature())
        guard case .failure(let error) = CarriedRoute(method: "GET", path: "/api/secret").call(on: hub, readOnly: false)
        else {
            Issue.record("a route that may not cross the fleet was carried")
            return
        }
        #expect(error.message.contains("not carried through the fleet"))
    }
}

/// A feature whose one route answers later, from another thread.
private final class LaterFeature: InspectorFeature {
    let name = "later"
    var routes: [FeatureRoute] {
        [
            FeatureRoute(.get, "/api/later") { _ in
                .later { respond in
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: 0.05)
                        respond(.json(["answered": "later"], status: 202))
                    }
                }
            }
        ]
    }
}

/// A feature whose one route may not cross a fleet.
private final class SecretFeature: InspectorFeature {
    let name = "secret"
    var routes: [FeatureRoute] {
        [FeatureRoute(.get, "/api/secret", crossesFleet: false) { _ in .json("hidden") }]
    }
}

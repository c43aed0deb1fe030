import Foundation
import KeyscopeCore

/// The signed-in shopper (`user`) and their visit (`session`) in `app/memory`: page views move the route and the
/// count with a merge, `user.lastSeen` ticks with single writes, flags flip, the profile is edited, and now and then
/// the shopper signs out (the `user` key is removed) and someone signs in with a fresh session.
extension DemoScript {
    private static let user: StoreKeyPath = "user"
    private static let session: StoreKeyPath = "session"
    private static let flags: StoreKeyPath = "session.flags"
    private static let pageViews: StoreKeyPath = "session.pageViews"
    private static let lastSeen: StoreKeyPath = "user.lastSeen"
    private static let tier: StoreKeyPath = "user.tier"
    static let userName: StoreKeyPath = "user.name"

    func stepSession() throws {
        guard let user = app.get(Self.user)?.objectValue else { return try signIn() }
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<40:
            let views = app.get(Self.pageViews)?.integerValue ?? 0
            try app.apply(.merge(Self.session, ["route": .string(nextRoute()), "pageViews": .integer(views + 1)]))
        case 40..<62:
            try app.apply(.set(Self.lastSeen, .string(clock.timestamp)))
        case 62..<76:
            let flag = random.pick(DemoCatalog.sessionFlags)
            let path = Self.flags.appending(key: flag)
            try app.apply(.set(path, .bool(!(app.get(path)?.boolValue ?? false))))
        case 76..<88:
            let names = DemoCatalog.shoppers.first { $0.id == user["id"]?.stringValue }?.names ?? ["Guest"]
            let others = names.filter { $0 != user["name"]?.stringValue }
            let name = random.pick(others.isEmpty ? names : others)
            try app.apply(.merge(Self.user, ["name": .string(name), "lastSeen": .string(clock.timestamp)]))
        case 88..<96:
            let tier = random.pick(DemoCatalog.tiers.filter { $0 != user["tier"]?.stringValue })
            try app.apply(.set(Self.tier, .string(tier)))
        default:
            try app.apply(.remove(Self.user))
        }
    }

    /// One transaction: a shopper signs in and a new session starts.
    private func signIn() throws {
        let user = user(random.pick(DemoCatalog.shoppers))
        let session = newSession()
        try app.transaction { tx in
            try tx.set(Self.user, user)
            try tx.set(Self.session, session)
        }
    }

    /// `user` for a shopper who has just signed in, with their first display name.
    func user(_ shopper: DemoCatalog.Shopper) -> StoreValue {
        [
            "id": .string(shopper.id),
            "name": .string(shopper.names[0]),
            "email": .string(shopper.email),
            "avatar": URL(string: "https://cdn.example.com/avatars/\(shopper.id).png").map(StoreValue.url) ?? .null,
            "tier": .string(random.pick(DemoCatalog.tiers)),
            "lastSeen": .string(clock.timestamp),
        ]
    }

    /// A new `session`: on the home page, one page view, the flags as a first visit has them.
    func newSession() -> StoreValue {
        [
            "id": .string(identifier("sess")),
            "startedAt": .string(clock.timestamp),
            "pageViews": 1,
            "route": "/",
            "flags": .object(
                Dictionary(uniqueKeysWithValues: DemoCatalog.sessionFlags.map { ($0, StoreValue.bool(false)) })),
        ]
    }

    /// A page of the shop, or one of its products.
    private func nextRoute() -> String {
        random.chance(40) ? "/product/" + random.pick(DemoCatalog.products).sku : random.pick(DemoCatalog.routes)
    }
}

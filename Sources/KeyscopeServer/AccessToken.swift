/// The secret a client presents (`Authorization: Bearer T` or `?token=T`) to use anything but the static files.
///
/// ```swift
/// let token = AccessToken.random()                 // 256 bits, URL-safe
/// token.matches(presented)                         // constant time in the presented text's length
/// ```
package struct AccessToken: Sendable, Hashable {
    let value: String
    private let bytes: [UInt8]

    /// The fewest characters a token given with `--token` may have (16 URL-safe characters carry ~96 bits; random
    /// tokens have 43).
    static let minimumLength = 16

    /// A token given by the user; `nil` with a reason when it is too short or has characters a URL would mangle.
    package static func validated(_ text: String) -> Result<AccessToken, ServerError> {
        guard text.utf8.count >= minimumLength else {
            return .failure(.invalidOption("the token must have at least \(minimumLength) characters"))
        }
        guard text.utf8.allSatisfy(isURLSafe) else {
            return .failure(.invalidOption("the token may contain only letters, digits and - . _ ~"))
        }
        return .success(AccessToken(value: text))
    }

    private init(value: String) {
        self.value = value
        self.bytes = Array(value.utf8)
    }

    /// 32 bytes from the system's secure generator, base64url without padding (43 characters), never starting with
    /// `-`: such a token reads as an option on a command line (`keyscope tail --token -x…` fails), so one in 64 is
    /// drawn again (it keeps more than 255 bits).
    static func random() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        while true {
            let raw = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = base64URL(raw)
            if !text.hasPrefix("-") { return AccessToken(value: text) }
        }
    }

    /// Compares without an early exit, so the time taken does not tell how much of a guess was right.
    func matches(_ presented: some Collection<UInt8>) -> Bool {
        var difference = UInt8(truncatingIfNeeded: presented.count ^ bytes.count)
        var index = 0
        for byte in presented {
            difference |= byte ^ bytes[index % bytes.count]
            index += 1
        }
        return difference == 0 && presented.count == bytes.count
    }

    private static func isURLSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func base64URL(_ raw: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < raw.count {
            let chunk = raw[index..<min(index + 3, raw.count)]
            var bits = 0
            for (offset, byte) in chunk.enumerated() { bits |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { out.append(alphabet[(bits >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

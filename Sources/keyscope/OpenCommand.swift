import ArgumentParser
import Foundation
import KeyscopeClient

/// `keyscope open`: the dashboard URL of a running inspector on this machine, with its token.
///
/// ```
/// $ keyscope open
/// http://127.0.0.1:8091/?token=…
/// ```
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Print the dashboard URL of a running inspector server, with its token.",
        discussion: """
            Finds the server as the other client commands do (its server record on this machine, or --port, --url \
            and --token) and prints its dashboard URL, http://HOST:PORT/?token=T, on stdout. An embedding service \
            logs its dashboard address without the token (logs are copied to places a token must not go); this \
            command is how you get the whole URL. With --browser it also opens the URL (xdg-open, or open on \
            macOS). The token is a secret: keep the URL out of shared logs and tickets.

            Examples:
              keyscope open
              keyscope open --port 8091 --browser
            """
    )

    @OptionGroup(title: "Server")
    var server: ClientOptions

    @Flag(name: .long, help: "Also open the URL in the default browser.")
    var browser = false

    func run() throws {
        let endpoint = try server.endpoint()
        // Server tokens are URL-safe already; a token given by hand may not be.
        let safe = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&+=#"))
        let token = endpoint.token.addingPercentEncoding(withAllowedCharacters: safe) ?? endpoint.token
        let url = "\(endpoint.origin)/?token=\(token)"
        print(url)
        guard browser else { return }
        #if os(macOS)
        let opener = "/usr/bin/open"
        #else
        let opener = "/usr/bin/xdg-open"
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        do {
            try process.run()
        } catch {
            throw CommandFailure("could not start \(opener) to open the URL (\(error)); open it by hand")
        }
    }
}

import Foundation
import Testing

@testable import KeyscopeServer

/// Static paths resolve only to regular files inside the root, whatever the spelling.
@Suite struct StaticFilesTests {
    /// A root with index.html, app.mjs, a subdirectory, a dotfile, and symlinks in and out of it; beside it a
    /// secret file that must never be served.
    func makeRoot() throws -> (files: StaticFiles, base: URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ks-static-\(UUID().uuidString)")
        let root = base.appendingPathComponent("Public")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("docs"), withIntermediateDirectories: true)
        for (name, text) in [
            ("index.html", "<h1>hi</h1>"), ("app.mjs", "export {}"), ("docs/index.html", "docs"),
            (".secret", "dot"), ("x.wasm", "w"), ("x.map", "{}"),
        ] {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        try Data("secret".utf8).write(to: base.appendingPathComponent("outside.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("escape.txt").path, withDestinationPath: "../outside.txt")
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("inside.mjs").path, withDestinationPath: "app.mjs")
        return (try #require(StaticFiles(root: root)), base)
    }

    @Test func servesFilesAndIndexesWithTheirMimeTypes() throws {
        let (files, base) = try makeRoot()
        defer { try? FileManager.default.removeItem(at: base) }
        guard case .file(let index, let html) = files.resolve("/") else {
            Issue.record("/ did not resolve")
            return
        }
        #expect(index.hasSuffix("/Public/index.html") && html.hasPrefix("text/html"))
        guard case .file(_, let js) = files.resolve("/app.mjs"), case .file(_, let wasm) = files.resolve("/x.wasm"),
            case .file(_, let map) = files.resolve("/x.map"), case .file(let docs, _) = files.resolve("/docs"),
            case .file = files.resolve("/inside.mjs")
        else {
            Issue.record("a file inside the root did not resolve")
            return
        }
        #expect(js == "text/javascript; charset=utf-8")
        #expect(wasm == "application/wasm")
        #expect(map == "application/json")
        #expect(docs.hasSuffix("/docs/index.html"))
    }

    @Test(arguments: [
        "/../outside.txt", "/docs/../../outside.txt", "/escape.txt", "/.secret", "/%2e%2e/outside.txt",
        "/..%2foutside.txt", "/a\\..\\outside.txt", "/index.html\0.txt", "/missing.html", "//outside.txt",
        "/docs/./index.html", "relative.html", "/%252e%252e/outside.txt",
    ])
    func nothingOutsideTheRootOrOddlySpelledResolves(path: String) throws {
        let (files, base) = try makeRoot()
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(files.resolve(path) == .notFound)
    }
}

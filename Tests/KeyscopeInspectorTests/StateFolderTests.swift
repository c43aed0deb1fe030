import Foundation
import KeyscopeInspector
import KeyscopeProtocol
import Testing

/// The state folder: $KEYSCOPE_HOME, else $XDG_STATE_HOME/keyscope, else $HOME/.local/state/keyscope; server records
/// in $XDG_RUNTIME_DIR/keyscope/servers when that is set.
@Suite struct StateFolderTests {
    @Test func keyscopeHomeWinsThenXDGStateHomeThenHome() {
        let all = ["KEYSCOPE_HOME": "/k", "XDG_STATE_HOME": "/s", "HOME": "/h"]
        #expect(KeyscopeStateFolder.url(environment: all).path == "/k")
        #expect(KeyscopeStateFolder.url(environment: all.merging(["KEYSCOPE_HOME": ""]) { $1 }).path == "/s/keyscope")
        #expect(
            KeyscopeStateFolder.url(environment: ["XDG_STATE_HOME": "", "HOME": "/h"]).path
                == "/h/.local/state/keyscope")
        #expect(KeyscopeStateFolder.named("demo", environment: ["HOME": "/h"]).path == "/h/.local/state/keyscope/demo")
    }

    @Test func withoutHomeTheAccountsHomeFolderIsUsed() {
        let folder = KeyscopeStateFolder.url(environment: [:])
        #expect(
            folder.path
                == FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/keyscope").path)
    }

    @Test func serverRecordsPreferTheRuntimeFolderElseTheStateFolder() {
        #expect(
            ServerRecord.directory(environment: ["KEYSCOPE_HOME": "/k", "XDG_RUNTIME_DIR": "/r"]).path == "/k/servers")
        #expect(
            ServerRecord.directory(environment: ["XDG_RUNTIME_DIR": "/r", "XDG_STATE_HOME": "/s"]).path
                == "/r/keyscope/servers")
        #expect(ServerRecord.directory(environment: ["XDG_STATE_HOME": "/s"]).path == "/s/keyscope/servers")
        #expect(ServerRecord.directory(environment: ["HOME": "/h"]).path == "/h/.local/state/keyscope/servers")
    }

    @Test func serversStartedInTheSameSecondStillOrderByStartTime() {
        let second = Date(timeIntervalSince1970: 1_790_000_000)
        let first = ServerRecord(host: "127.0.0.1", port: 1, token: "t", name: "a", started: second)
        let later = ServerRecord(host: "127.0.0.1", port: 2, token: "t", name: "b", started: second + 0.25)
        #expect(later.startDate > first.startDate)
        #expect(abs(later.startDate.timeIntervalSince(second) - 0.25) < 0.002)
        var old = first
        old.started = "2026-11-27T10:29:27Z"
        #expect(old.startDate == Date(timeIntervalSince1970: 1_795_775_367), "a record without milliseconds reads too")
    }
}

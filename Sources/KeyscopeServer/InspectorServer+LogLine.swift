import Foundation

extension InspectorServer {
    /// The line an embedding service logs once the server listens: the dashboard's address **without** its token
    /// (a service's log is copied by log shippers, and the token opens every store to whoever reads it), and where
    /// the token is: the server record file (mode 0600), which the `keyscope` CLI reads by itself (`keyscope open`
    /// prints the whole URL).
    ///
    /// `keyscope serve` prints ``dashboardURL`` (with the token) to its own terminal instead: that is its job.
    /// ```
    /// Keyscope dashboard: http://127.0.0.1:8081/ (`keyscope open` prints it with its token; the token is in …)
    /// ```
    public var dashboardLogLine: String {
        let address = dashboardAddress ?? "(not running)"
        if let file = serverRecordFile {
            return "Keyscope dashboard: \(address) (`keyscope open` prints it with its token; the token is in "
                + "\(file.path), readable only by this user, where the keyscope CLI finds it)"
        }
        return "Keyscope dashboard: \(address) (open it with ?token=TOKEN; the token is the one in "
            + "ServerOptions.token, or InspectorHandle.dashboardURL in the process)"
    }
}

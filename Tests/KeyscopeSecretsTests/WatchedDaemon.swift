#if canImport(Glibc)
import Foundation
import Glibc

/// A daemon that never outlives the test process. A small Perl watchdog (perl-base is Essential in Debian, so it is
/// always there) starts it and then reads its own stdin, a pipe whose writing end only this process holds: at EOF
/// (from ``stop()``, or from the kernel when the test process dies in any way) it SIGKILLs the daemon, reaps it
/// and removes `cleanup`.
///
/// Not a shell: a child that Foundation's `Process` starts from a Swift concurrency thread inherits that thread's
/// signal mask, in which SIGTERM and SIGCHLD are blocked, and `sh`'s `wait` then sleeps forever. The watchdog
/// clears the mask before it starts the daemon and reaps with a blocking `waitpid`.
final class WatchedDaemon: @unchecked Sendable {  // @unchecked: fields are set in init; stop() is called once.
    let name: String
    private let watchdog: Process
    private let lifeline: FileHandle
    private let pidFile: URL

    private static let script = #"""
        use strict;
        use warnings;
        use POSIX ();
        POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new());
        my ($input, $log, $pidfile, $cleanup, @command) = @ARGV;
        my $pid = fork();
        die "fork: $!" unless defined $pid;
        if ($pid == 0) {
            open(STDIN, '<', $input) or die "$input: $!";
            open(STDOUT, '>>', $log) or die "$log: $!";
            open(STDERR, '>&', \*STDOUT) or die "stderr: $!";
            opendir(my $fds, '/proc/self/fd');
            for my $fd (grep { /^\d+$/ && $_ > 2 } readdir($fds)) { POSIX::close($fd); }
            exec { $command[0] } @command or die "exec $command[0]: $!";
        }
        open(my $out, '>', $pidfile) or die "$pidfile: $!";
        print $out "$pid\n";
        close($out);
        while (sysread(STDIN, my $buffer, 4096)) {}
        kill('KILL', $pid);
        waitpid($pid, 0);
        system('rm', '-rf', '--', $cleanup) if length $cleanup;
        """#

    /// Starts `executable` with `arguments`, its stdin read from `input` (or /dev/null), its output appended to
    /// `log`; `cleanup` (a path) is removed by the watchdog after the daemon ends.
    init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        input: URL?,
        log: URL,
        pidFile: URL,
        cleanup: URL? = nil
    ) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        self.pidFile = pidFile
        // Both ends close on exec, so that no other child (the watchdog included) keeps a copy of the writing end;
        // the watchdog gets the reading end as its stdin (dup2 clears the flag there). Another thread may spawn a
        // process between pipe() and fcntl(): then stop() falls back to SIGKILL.
        let pipe = Pipe()
        for end in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
            _ = fcntl(end.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        lifeline = pipe.fileHandleForWriting
        watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        watchdog.arguments =
            ["-e", Self.script, input?.path ?? "/dev/null", log.path, pidFile.path, cleanup?.path ?? "", executable]
            + arguments
        watchdog.environment = environment
        watchdog.standardInput = pipe.fileHandleForReading
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle(forWritingAtPath: log.path) ?? FileHandle.nullDevice
        do {
            try watchdog.run()
        } catch {
            throw TestSetupError("could not start /usr/bin/perl to watch \(executable): \(error)")
        }
        try? pipe.fileHandleForReading.close()
    }

    /// The daemon's process ID, once the watchdog has written it.
    var pid: pid_t? {
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `false` once the daemon has exited (a zombie waiting for the watchdog counts as exited).
    var isRunning: Bool {
        guard watchdog.isRunning else { return false }
        guard let pid else { return true }  // Not started yet.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // The state follows the command name, which is in parentheses: "1234 (dbus-daemon) S 1 …".
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    /// Closes the lifeline and waits (up to 5 s) for the watchdog to kill the daemon and exit; kills both
    /// otherwise (another child process may hold a copy of the lifeline).
    func stop() {
        try? lifeline.close()
        let deadline = Date().addingTimeInterval(5)
        while watchdog.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if watchdog.isRunning {
            if let pid { kill(pid, SIGKILL) }
            kill(watchdog.processIdentifier, SIGKILL)
        }
        watchdog.waitUntilExit()
    }
}
#endif

import Foundation

/// The shell text of an `exec` step that outlives its runner, used by the kill tests of the CLI and
/// every-store suites: it appends `record` to the file `log`; a copy that starts while another
/// copy's `step.running` exists appends `overlap` to `overlap.txt`; and while the file `hang`
/// exists it leaves a grandchild in its process group that outlives the leader (killed with the
/// runner) — its pid in `orphan.pid`, the group's in `step.pid`, then `started` — which on SIGUSR1
/// removes `step.running` and ends. It sleeps an hour, longer than any run of the suite: with
/// 300 s, a test that the loaded two-core CI machine paced to 315 s found it gone ("interrupted"
/// where "running" was asserted); the tests end it themselves (SIGUSR1, or its group killed).
package enum OrphaningScript {
    /// The script, as a JSON string: one YAML flow scalar for `[sh, -c, …]`.
    package static func quoted(record: String, log: String) -> String {
        let script = """
            echo \(record) >> \(log); [ -e step.running ] && echo overlap >> overlap.txt
            if [ -e hang ]; then
              touch step.running
              (trap 'rm -f step.running; kill $!; exit 0' USR1; sleep 3600 & wait) &
              echo $! > orphan.pid; echo $$ > step.pid; touch started; wait
            fi
            """
        return String(decoding: try! JSONSerialization.data(withJSONObject: script, options: .fragmentsAllowed), as: UTF8.self)
    }
}

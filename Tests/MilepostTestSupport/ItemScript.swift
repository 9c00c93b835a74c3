import Foundation

/// The shell text of a long `exec` step used by the cursor tests of the CLI and PostgreSQL suites:
/// it processes items 1…100 (one line each appended to `processed.txt`) from the item after
/// `MILEPOST_RESUME_CURSOR`, writes `cursor N` on `MILEPOST_CONTROL_FD` after every tenth item,
/// appends where each attempt started to `starts.txt` and its shell's pid (its process group) to
/// `step.pid`, and after item `holdAfter` waits while the file `hold` exists, so that a test can
/// kill it there, at a known point, however loaded the machine is.
package enum ItemScript {
    /// The item after which the step waits while `hold` exists.
    package static let holdAfter = 55
    /// The last cursor written before the step waits.
    package static let lastCursor = 50

    /// For `[sh, -c, TEXT]` in single quotes in a YAML flow sequence.
    package static let text = """
        echo $$ > step.pid; i=${MILEPOST_RESUME_CURSOR:-0}; echo "$i" >> starts.txt; \
        while [ $i -lt 100 ]; do i=$((i+1)); echo $i >> processed.txt; \
        if [ $((i % 10)) -eq 0 ]; then echo "cursor $i" >&$MILEPOST_CONTROL_FD; fi; \
        if [ $i -eq \(holdAfter) ]; then while [ -e hold ]; do sleep 0.01; done; fi; done
        """
}

extension ItemScript {
    /// A manifest whose `2.1/items` is an `exec` step running `text`, `resumable` or not.
    package static func manifest(resumable: Bool) -> String {
        """
        migrations:
          "2.1":
            - name: exec
              id: items
              resumable: \(resumable)
              with: {command: [sh, -c, '\(text)']}
        """
    }

    /// The items listed in `processed.txt` in `directory`, in order, repeats included (none: empty).
    package static func processed(in directory: String) -> [Int] {
        let text = (try? String(contentsOfFile: directory + "/processed.txt", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { Int($0) }
    }

    /// How many times `item` is processed by an attempt killed while holding, then one resumed at
    /// `lastCursor`: twice for the items after the cursor up to `holdAfter`, once for the others.
    package static func timesProcessedAfterResume(_ item: Int) -> Int {
        item <= lastCursor || item > holdAfter ? 1 : 2
    }
}

/// The commented starter manifest `milepost init` writes.
public enum ManifestTemplate {
    /// A manifest with one example step, the `yaml-language-server` schema comment pointing at
    /// `schemaFile` (relative to the manifest), and comments that explain each key.
    public static func starter(schemaFile: String) -> String {
        """
        # yaml-language-server: $schema=\(schemaFile)
        # The comment above gives editors (VS Code, IntelliJ, Neovim) completion and checks from the
        # schema of your binary's steps: milepost schema > \(schemaFile)
        #
        # Version thresholds mapped to one-time steps: when an upgrade passes a threshold, its steps
        # run once, in order, with a checkpoint each. `milepost validate` checks this file.
        app: myapp              # a label shown in output and the journal
        baseline: "0"           # the version assumed when nothing is stored yet
        migrations:
          # Quote thresholds that a YAML tool would read as the same number ("2.10" and "2.1").
          "0.1":
            - name: exec                       # a registered step (`milepost steps` lists them)
              id: hello                        # the step's id is 0.1/hello
              description: An example step; replace it with your own
              timeout: 1m                      # per attempt: 250ms, 30s, 5m, 1h
              retries: 0                       # extra attempts after a failure
              idempotent: true                 # safe to run again after an interruption
              with:
                command: [echo, hello from milepost]
            # Add steps with: milepost new VERSION NAME

        """
    }
}

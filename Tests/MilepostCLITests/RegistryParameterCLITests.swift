import Testing

/// `validate` in the built binary reports `with:` errors compiler-style, with the expected type.
@Suite struct RegistryParameterCLITests {
    static let manifest = """
        migrations:
          2.1:
            - name: exec
              with: {command: rm -rf cache}
          2.7:
            - name: exec
              with: {command: [true], env: {RETRIES: [3]}}
        """

    @Test func validateNamesTheLineColumnAndExpectedType() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let text = try work.milepost.run("validate")
        #expect(text.status == 65)
        #expect(text.stderr.contains("""
            milepost.yaml:4:23: error: step 'exec': 'command': expected a sequence, found the string "rm -rf cache"
            """), "\(text.stderr)")
        #expect(text.stderr.contains("milepost.yaml:7:46: error: step 'exec': 'env.RETRIES': expected a string, found a sequence"), "\(text.stderr)")
        #expect(text.stderr.contains("milepost.yaml: 2 errors"))

        let github = try work.milepost.run("validate", "--format", "github")
        #expect(github.status == 65)
        #expect(github.stdout.contains("::error file=milepost.yaml,line=4,col=23::step 'exec': 'command': expected a sequence"), "\(github.stdout)")
    }
}

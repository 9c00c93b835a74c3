/// A registered step definition behind one reference, made once per step name by
/// `ManifestDecoder` and shared by all the manifest's steps of that name.
final class SharedDefinition: Sendable {
    let definition: StepDefinition

    init(_ definition: StepDefinition) {
        self.definition = definition
    }
}

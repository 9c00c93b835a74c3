public import ArgumentParser
import Milepost

extension Version: ExpressibleByArgument {
    /// A version argument or option's value, with the reason it is not one
    /// (`The value '2.x' is invalid for '--to <version>': expected dot-separated numbers such as
    /// 2.10.1`): pass it as `transform:`, as the manifest's versions say why too.
    static func argument(_ text: String) throws -> Version {
        do {
            return try Version(parsing: text)
        } catch {
            throw ValidationError(error.reason)
        }
    }
}

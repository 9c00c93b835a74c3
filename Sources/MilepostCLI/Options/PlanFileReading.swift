import ArgumentParser
import Milepost
import MilepostSystem

/// Reads a reviewed plan (`run --plan FILE`, `approve --plan FILE`): a file `plan --out` wrote.
enum PlanFileReading {
    /// The largest plan file read.
    static let maxBytes = 64 << 20

    /// The plan file at `path`.
    /// - throws: `ValidationError` (exit 64) saying why it cannot be read or is not a plan file.
    static func read(_ path: String) throws -> PlanFile {
        let bytes: [UInt8]
        do {
            bytes = try RegularFileReader.contents(path: PathText.filePath(path), maxBytes: maxBytes)
        } catch {
            throw ValidationError("cannot read the plan file \(path): \(error.reason)")
        }
        do {
            return try PlanFile(json: bytes)
        } catch let error as DecodingError {
            throw ValidationError("\(path) is not a plan file written by `milepost plan --out`: \(error.summary)")
        } catch {
            throw ValidationError("\(path) is not a plan file written by `milepost plan --out`: \(error)")
        }
    }
}

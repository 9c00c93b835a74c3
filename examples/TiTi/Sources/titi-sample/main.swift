import Foundation
import TiTiKit

// titi-sample COUNT FILE: writes COUNT generated dailys (GeneratedDailys) to FILE, for trying
// removeEmptyDailys on a large data set (examples/TiTi/README.md).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let count = Int(arguments.first!), count >= 0 else {
    FileHandle.standardError.write(Data("usage: titi-sample COUNT FILE\n".utf8))
    exit(64)
}
let dailys = GeneratedDailys.make(count: count)
do {
    try DailyFile(path: arguments.last!).save(dailys)
} catch {
    FileHandle.standardError.write(Data("titi-sample: \(error)\n".utf8))
    exit(1)
}
print("\(dailys.count) dailys, \(dailys.filter(\.isEmpty).count) of them empty, in \(arguments.last!)")

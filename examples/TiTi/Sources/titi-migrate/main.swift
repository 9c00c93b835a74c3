import MilepostCLI
import TiTiKit

MilepostCLI.start(registry: .standard.installing(TiTiSteps.self, using: .ofCommandLine()), store: TiTiStore.init(spec:))

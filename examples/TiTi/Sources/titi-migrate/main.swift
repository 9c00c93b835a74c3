import MilepostCLI
import TiTiKit

MilepostCLI.start(registry: .standard.installing(TiTiSteps.self), store: TiTiStore.init(spec:))

import MilepostCLI
import TiTiKit

await MilepostCLI.main(registry: .standard.installing(TiTiSteps.self), store: TiTiStore.init(spec:))

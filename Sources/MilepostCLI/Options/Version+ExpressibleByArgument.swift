public import ArgumentParser
import Milepost

extension Version: ExpressibleByArgument {}

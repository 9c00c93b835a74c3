// TEMPORARY until the exec work package lands its SignalTrap.
final class SignalTrap: Sendable {
    static func install(_ signals: [Int32], onSignal: @escaping @Sendable (Int32) -> Void) -> SignalTrap { SignalTrap() }
    func uninstall() {}
}

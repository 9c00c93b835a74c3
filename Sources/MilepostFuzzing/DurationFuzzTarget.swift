import MilepostSystem

extension FuzzTarget {
    /// A duration as manifests (`timeout:`), flags (`--lock-timeout`) and store URLs
    /// (`milepost_lease=`) write it.
    static let duration = FuzzTarget(
        name: "duration",
        summary: "duration text → DurationText.read; a duration read is whole milliseconds, not negative, and its "
            + "formatted text reads back as itself"
    ) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let duration = try? DurationText.read(text) else { return }
        try oracle(duration >= .zero, "\(text.debugDescription) reads as the negative \(duration)")
        try oracle(
            duration.components.attoseconds % 1_000_000_000_000_000 == 0,
            "\(text.debugDescription) reads as \(duration), not whole milliseconds")
        let formatted = DurationText.format(duration)
        try oracle(
            DurationText.parse(formatted) == duration, "\(text.debugDescription) reads as \(duration), formatted \(formatted)")
    }
}

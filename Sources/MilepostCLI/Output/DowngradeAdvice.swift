import Milepost

/// What to do about a release the store refuses below its compatibility floor (`DowngradeRefusal`),
/// in the same words for `run`, `wait` and `status`: roll forward. `--allow-downgrade` only lets the
/// old release start against what the newer one changed, so it is named for what it is, not advised.
enum DowngradeAdvice {
    /// `roll forward instead: deploy 2.0 or a later release (a fix on top of it); …`.
    static func text(_ refusal: DowngradeRefusal) -> String {
        "roll forward instead: deploy \(refusal.lowestCompatible) or a later release (a fix on top of it); "
            + "--\(OptionNames.allowDowngrade) would only let \(refusal.target) start, against "
            + (refusal.floor?.step.map { "the store as \($0) left it" } ?? "a store at \(refusal.stored), which \(refusal.target) does not know")
    }

    /// `run`'s, `wait`'s and `status`'s sentence: the refusal, then the advice.
    static func sentence(_ refusal: DowngradeRefusal) -> String {
        "\(refusal.target) may not start on this store: \(refusal); \(text(refusal))"
    }
}

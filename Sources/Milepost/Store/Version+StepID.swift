extension Version {
    /// The threshold a step id names (`THRESHOLD/ID`, as the state and the journal name steps);
    /// nil when it names none.
    static func threshold(ofStep id: String) -> Version? {
        id.split(separator: "/", maxSplits: 1).first.flatMap { Version(String($0)) }
    }
}

public import MilepostSystem

/// A moment in UTC to the millisecond, as stores record it (`2026-11-21T02:56:57.123Z`): the type
/// of every time in `StoredState`, `JournalRecord` and `LockHolder`, decoded once when read.
public typealias Timestamp = MilepostSystem.Timestamp

extension UInt8 {
    /// Whether the byte is an ASCII digit: as a byte of UTF-8, only ever a character of its own,
    /// so texts of digits are checked by bytes (by `Character`s, ten times the instructions).
    package var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
}

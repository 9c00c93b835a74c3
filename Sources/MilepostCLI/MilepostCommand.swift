// Placeholder until the CLI lands.
public enum MilepostCLIPlaceholder {}

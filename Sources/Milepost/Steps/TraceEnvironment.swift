public import Instrumentation

/// The trace context carried in environment variables, the way CI systems and orchestrators pass
/// it to a process: the W3C `traceparent` and `tracestate` fields as `TRACEPARENT` and
/// `TRACESTATE` (a field's name upper-cased, `-` as `_`).
///
/// `milepost run` extracts its parent from its own environment with it, and the `exec` step
/// injects the step's span into its child's environment, so an instrumented step joins the trace.
/// Both go through `InstrumentationSystem.instrument`: without a bootstrapped tracer neither does
/// anything (a child then inherits milepost's own `TRACEPARENT` unchanged).
public struct TraceEnvironment: Extractor, Injector {
    public typealias Carrier = [String: String]

    public init() {}

    /// The environment variable that carries the propagation field `key`.
    public static func variable(for key: String) -> String {
        String(key.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    public func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[Self.variable(for: key)]
    }

    public func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[Self.variable(for: key)] = value
    }

    /// `environment` with the current span's context in place of any trace context it carried:
    /// a `TRACESTATE` inherited from milepost's parent never goes with the step's `TRACEPARENT`.
    /// Unchanged when no instrument is bootstrapped or no span is current.
    public static func propagating(
        _ context: InstrumentationContext, into environment: [String: String]
    ) -> [String: String] {
        var injected: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &injected, using: TraceEnvironment())
        guard !injected.isEmpty else { return environment }
        var environment = environment
        for name in ["TRACEPARENT", "TRACESTATE"] { environment[name] = nil }
        environment.merge(injected) { _, new in new }
        return environment
    }
}

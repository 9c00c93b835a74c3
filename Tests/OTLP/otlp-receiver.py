"""A test OTLP/HTTP receiver: decodes each posted protobuf export request with the
OpenTelemetry project's own message classes (PyPI opentelemetry-proto) and appends it, as JSON,
to a file, one request per line: {"path": "/v1/traces", "request": {...}}.

Usage: otlp-receiver.py OUTPUT-FILE. Listens on 127.0.0.1 on a free port and prints the port on
stdout once it listens. `silent` as a second argument accepts connections and never answers
(an unreachable collector)."""
import os

# Descriptors inherited from the test process (pipes of other tests' children, spawned at the same
# time) would keep those pipes open as long as this receiver runs: close them first.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import signal

# The test process may block signals its children inherit; the test ends the receiver with SIGKILL,
# and SIGTERM and SIGINT (by hand) work too.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])

import base64
import json
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest, ExportMetricsServiceResponse)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest, ExportTraceServiceResponse)

def hex_ids(value):
    """The request as MessageToDict gives it, with trace and span ids in hex (as in TRACEPARENT)."""
    if isinstance(value, dict):
        return {key: base64.b64decode(item).hex() if key in ("traceId", "spanId", "parentSpanId") else hex_ids(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [hex_ids(item) for item in value]
    return value


MESSAGES = {
    "/v1/traces": (ExportTraceServiceRequest, ExportTraceServiceResponse),
    "/v1/metrics": (ExportMetricsServiceRequest, ExportMetricsServiceResponse),
}


def main():
    output = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "silent":
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        print(listener.getsockname()[1], flush=True)
        while True:
            time.sleep(60)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            messages = MESSAGES.get(self.path)
            if messages is None or self.headers.get("Content-Type") != "application/x-protobuf":
                self.send_response(404)
                self.end_headers()
                return
            request = messages[0]()
            request.ParseFromString(body)
            with open(output, "a") as file:
                file.write(json.dumps({"path": self.path, "request": hex_ids(MessageToDict(request))}) + "\n")
            reply = messages[1]().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *arguments):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


main()

// The floor of any static Swift program: start, print one line, exit (docs/performance.md).
print("hi")

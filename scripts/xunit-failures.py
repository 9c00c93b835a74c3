#!/usr/bin/env python3
"""Prints each failed test case of a Swift Testing xUnit report (`swift test --xunit-output`), with
its messages: .ci/run lists them at the end of a failed run.

    scripts/xunit-failures.py REPORT.xml
"""
import sys
import xml.etree.ElementTree as ElementTree

failed = 0
for case in ElementTree.parse(sys.argv[1]).iter("testcase"):
    failures = case.findall("failure")
    if not failures:
        continue
    failed += 1
    print(f"failed: {case.get('classname')}.{case.get('name')}")
    for failure in failures:
        print("  " + (failure.get("message") or failure.text or "").replace("\n", "\n  "))
print(f"{failed} failed test case(s) in {sys.argv[1]}")

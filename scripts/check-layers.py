#!/usr/bin/env python3
"""Checks that the folders of Sources/Milepost depend on each other one way only (docs/architecture.md).

A folder uses another when one of its files names a type the other folder declares (struct, enum,
class, protocol, actor or typealias at the start of a line) outside a `//` comment. The check is
textual — names in strings count too — so it errs towards reporting an arrow. It prints the arrows
and exits 1 if any folders form a loop (A uses B and B, directly or through others, uses A).
"""
import os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Milepost")
declaration = re.compile(r"^(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*"
                         r"(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)

def folder_of(path):
    relative = os.path.relpath(path, root)
    return relative.split(os.sep)[0] if os.sep in relative else "."

files = {}
for directory, _, names in os.walk(root):
    for name in names:
        if name.endswith(".swift"):
            path = os.path.join(directory, name)
            files[path] = open(path, encoding="utf-8").read()

declared = {}  # type name -> folder
for path, text in files.items():
    for name in declaration.findall(text):
        declared.setdefault(name, folder_of(path))

uses = {}
for path, text in files.items():
    folder = folder_of(path)
    code = re.sub(r"(?<![:\"])//.*$", "", text, flags=re.M)
    words = set(re.findall(r"\b[A-Z]\w*\b", code))
    for word in words:
        target = declared.get(word)
        if target and target != folder:
            uses.setdefault(folder, {}).setdefault(target, set()).add(word)

for folder in sorted(uses):
    for target in sorted(uses[folder]):
        print(f"{folder} -> {target}  ({', '.join(sorted(uses[folder][target])[:6])})")

# Loops: strongly connected components with more than one folder (Tarjan).
index, low, stack, on_stack, loops, counter = {}, {}, [], set(), [], [0]
def visit(node):
    index[node] = low[node] = counter[0]; counter[0] += 1
    stack.append(node); on_stack.add(node)
    for target in uses.get(node, {}):
        if target not in index:
            visit(target); low[node] = min(low[node], low[target])
        elif target in on_stack:
            low[node] = min(low[node], index[target])
    if low[node] == index[node]:
        component = []
        while True:
            top = stack.pop(); on_stack.discard(top); component.append(top)
            if top == node: break
        if len(component) > 1: loops.append(sorted(component))
for node in sorted(set(uses) | {t for targets in uses.values() for t in targets}):
    if node not in index: visit(node)

if loops:
    for loop in loops: print("loop: " + " <-> ".join(loop), file=sys.stderr)
    sys.exit(1)
print("no loops between folders")

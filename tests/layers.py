#!/usr/bin/env python3
"""The folders of src/ form layers (ARCHITECTURE.md, "Folder map"): a folder
includes headers of its own and of lower layers only, never of a folder above
it or beside it. Reads every #include "dir/file" of src/ and fails on each one
that breaks the table below, naming the file and line."""
import pathlib
import re
import sys

# Lowest first. Folders on one line are beside each other: neither includes the other.
LAYERS = [
    ["util", "verdict", "demo"],
    ["catalogue", "oas", "batch", "geo"],
    ["http", "tls"],
    ["report"],
    ["engine"],
    ["checks"],
    ["cli"],
]
LEVEL = {folder: i for i, row in enumerate(LAYERS) for folder in row}

src = pathlib.Path(__file__).resolve().parent.parent / "src"
problems = []
checked = 0
for path in sorted(src.glob("*/*")):
    if path.suffix not in (".cpp", ".hpp"):
        continue
    folder = path.parent.name
    if folder not in LEVEL:
        problems.append("%s: folder %s is not in the layer table of tests/layers.py" % (path.relative_to(src), folder))
        continue
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = re.match(r'\s*#\s*include\s+"([a-z_]+)/', line)
        if not m:
            continue
        checked += 1
        target = m.group(1)
        if target == folder:
            continue
        if target not in LEVEL:
            problems.append("%s:%d: includes unknown folder %s" % (path.relative_to(src), n, target))
        elif LEVEL[target] >= LEVEL[folder]:
            problems.append("%s:%d: %s includes %s, which is not below it" % (path.relative_to(src), n, folder, target))

if checked == 0:
    problems.append("no #include read under %s" % src)
for p in problems:
    print(p)
print("layers: %d includes read, %d out of place" % (checked, len(problems)))
sys.exit(1 if problems else 0)

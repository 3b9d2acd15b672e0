#!/usr/bin/env python3
"""Validate JSON files against one of bounce's JSON Schemas (Draft 2020-12),
with python3-jsonschema: the tests' way of holding each command's output to
the schema docs/report-format.md points at.

usage: json_schema_check.py SCHEMA [--def NAME] FILE...
  --def NAME  validate against SCHEMA's $defs/NAME (a CPU model: cpu)
Prints each violation with the file and the path inside it; exit 1 if any."""
import json
import sys

import jsonschema


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        root = json.load(f)
    files = argv[1:]
    schema = root
    if files[0] == "--def":
        # a root of its own whose $refs into $defs resolve as in SCHEMA
        schema = {"$defs": root.get("$defs", {}), "$ref": "#/$defs/" + files[1]}
        files = files[2:]
    jsonschema.Draft202012Validator.check_schema(root)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        for err in validator.iter_errors(doc):
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            print(f"{path}: {where}: {err.message}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

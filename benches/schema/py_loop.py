"""A user's alternative to `aoi check --schema`: a Python loop over the
jsonschema-rs validator (PyPI `jsonschema-rs`), one json.loads and one
is_valid per line; prints the number of invalid events."""
import json, sys
import jsonschema_rs
with open(sys.argv[1]) as f:
    v = jsonschema_rs.validator_for(json.load(f))
bad = 0
with open(sys.argv[2], "rb") as f:
    for line in f:
        if not v.is_valid(json.loads(line)):
            bad += 1
print(bad)

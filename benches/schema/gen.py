"""A realistic discriminated stream for benches/schema.sh: aoi:meta, N
domain events of three types (hit, file, progress), aoi:summary."""
import json, sys
n = int(sys.argv[1])
run = "01JZQ7X4TQ9KZ8V6R2M3N4P5Q6"
w = sys.stdout.write
w(json.dumps({"type": "aoi:meta", "aoi": {"seq": 0, "run": run}, "aoi_version": "1.0-alpha",
              "tool": "outline", "tool_version": "1.8.2", "schema_name": "com.example.outline.events",
              "schema_version": "1.0.0", "command": "search"}, separators=(",", ":")) + "\n")
for i in range(1, n + 1):
    k = i % 3
    if k == 0:
        e = {"type": "hit", "rank": i, "path": f"/src/module_{i % 97}/file_{i}.rs", "score": (i % 100) / 100,
             "kind": ["code", "doc", "test"][i % 3], "lines": [i % 500 + 1, i % 500 + 7]}
    elif k == 1:
        e = {"type": "file", "path": f"/src/module_{i % 97}/file_{i}.rs", "bytes": i * 37, "lang": "rust"}
    else:
        e = {"type": "progress", "done": i, "total": n}
    e["aoi"] = {"seq": i, "run": run}
    w(json.dumps(e, separators=(",", ":")) + "\n")
w(json.dumps({"type": "aoi:summary", "aoi": {"seq": n + 1, "run": run}, "ok": True, "event_count": n + 2},
             separators=(",", ":")) + "\n")

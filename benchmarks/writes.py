"""Write latency: a small note update through the safe write path (CAS check, pre-image,
intent, atomic write with fsyncs, event append, re-index), on a generated vault.

    python benchmarks/writes.py --notes 10000 [--updates 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from scale import add_vault_args, generated_vault

from aleph_mem.memory import Memory


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notes", type=int, default=10000)
    ap.add_argument("--updates", type=int, default=200)
    add_vault_args(ap)
    args = ap.parse_args()
    root = generated_vault(args, args.notes)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
        w = mem.store.writer()
        path = "bench/write-latency.md"
        current = mem.vault.read_bytes(path)
        result = w.write(path, b"# Write latency\n\nstart\n",
                         None if current is None else mem.show(path).hash)
        lat, append_lat = [], []
        for i in range(args.updates):
            t = time.perf_counter()
            result = w.write(path, f"# Write latency\n\nupdate {i} [[Welcome]]\n".encode(),
                             result.hash)
            lat.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            result = w.append(path, f"line {i}", result.hash)
            append_lat.append((time.perf_counter() - t) * 1000)
        assert [h.path for h in mem.search(f"update {args.updates - 1}").hits][:1] == [path]
    lat.sort()
    append_lat.sort()
    print(json.dumps({"notes": args.notes, "updates": args.updates,
                      "replace_ms_p50": round(statistics.median(lat), 2),
                      "replace_ms_p95": round(lat[int(len(lat) * 0.95)], 2),
                      "append_ms_p50": round(statistics.median(append_lat), 2),
                      "append_ms_p95": round(append_lat[int(len(append_lat) * 0.95)], 2)}))


if __name__ == "__main__":
    main()

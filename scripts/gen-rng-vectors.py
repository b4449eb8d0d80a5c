"""Regenerates fixtures/rng/cpython-vectors.json from CPython's own `random` module.

Provenance for the RNG golden tests: run with CPython 3.11 (`python3 scripts/gen-rng-vectors.py`).
The tests never run Python; they read the committed JSON.
"""
import json, random, sys

out = {"python": sys.version.split()[0], "cases": []}

def case(seed, calls):
    r = random.Random(seed)
    results = []
    for name, args in calls:
        if name == "shuffle":
            x = list(args[0]); r.shuffle(x); results.append(x)
        else:
            v = getattr(r, name)(*args)
            results.append(str(v) if isinstance(v, int) and v >= 2**53 else v)
    out["cases"].append({"seed": seed if isinstance(seed, str) or abs(seed) < 2**53 else str(seed),
                         "calls": [[n, list(a)] for n, a in calls], "results": results})

for seed in [0, 1, 7, 42, 50000, 100000, -5, 2**32, 2**32 + 1, 2**64 + 12345, 123456789012345678901234567890]:
    case(seed, [("getrandbits", [32])] * 3 + [("getrandbits", [1]), ("getrandbits", [7]), ("getrandbits", [33]),
                ("getrandbits", [64]), ("getrandbits", [100]), ("random", []), ("uniform", [2.5, 10.0]),
                ("randint", [1, 6]), ("randint", [-10, 10]), ("randrange", [10]), ("randrange", [3, 30, 4]),
                ("randrange", [20, 0, -3]), ("randrange", [2**40]), ("choice", ["ABCDEFG"]),
                ("sample", [list(range(20)), 2]), ("sample", [list(range(30)), 6]),
                ("sample", [list(range(100)), 5]), ("sample", [list(range(1000)), 30]),
                ("shuffle", [list(range(12))]), ("randint", [25, 39])])
for seed in ["heterogeneous-nested-key-path-match:8", "abc", ""]:
    case(seed, [("getrandbits", [32])] * 4 + [("random", []), ("sample", [list("ABCDEFGHIJ"), 3])])
print(json.dumps(out, indent=1))

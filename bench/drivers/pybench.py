"""pybench.py SCALE: a small deterministic pure-Python workload mix.

Used by bench/pgo-target.sh to compare CPython builds (plain, GCC PGO,
latepgo PGO).  Kernels in the spirit of pyperformance: richards-like
task scheduling, nbody, json dump/load, regex search, regex compile,
string operations, dict/list/set work.  No clock, no randomness from
the system: prints one checksum, the same for every interpreter build.
"""
import json
import re
import sys


class Lcg:
    """Deterministic pseudo-random numbers (no dependence on random's C code)."""

    def __init__(self, seed):
        self.state = seed

    def next(self, bound):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state % bound


# --- richards-like scheduler: objects, method calls, attribute access ---

class Packet:
    def __init__(self, link, ident, kind):
        self.link = link
        self.ident = ident
        self.kind = kind
        self.datum = 0
        self.data = [0] * 4


class Task:
    def __init__(self, ident, priority, work):
        self.ident = ident
        self.priority = priority
        self.work = work
        self.queue = []
        self.count = 0

    def run(self, packet):
        self.count += 1
        packet.datum = (packet.datum + self.ident * self.work) % 9973
        packet.data[self.count % 4] += packet.datum & 7
        return packet


def richards(rounds):
    tasks = [Task(i, i % 5, i * 3 + 1) for i in range(10)]
    packets = [Packet(None, i, i % 3) for i in range(40)]
    total = 0
    for r in range(rounds):
        for p in packets:
            task = max(tasks, key=lambda t: (t.priority + r + p.ident) % 7)
            task.queue.append(task.run(p))
        for t in tasks:
            while t.queue:
                total += t.queue.pop().datum
    return total % 1000003


# --- nbody: float arithmetic -------------------------------------------

def nbody(steps):
    bodies = [
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 39.47],
        [4.84, -1.16, -0.10, 0.606, 2.81, -0.02, 0.037],
        [8.34, 4.12, -0.40, -1.01, 1.82, 0.008, 0.011],
        [12.89, -15.11, -0.22, 1.08, 0.868, -0.01, 0.0017],
        [15.37, -25.91, 0.179, 0.979, 0.594, -0.034, 0.002],
    ]
    dt = 0.01
    pairs = [(a, b) for i, a in enumerate(bodies) for b in bodies[i + 1:]]
    for _ in range(steps):
        for a, b in pairs:
            dx = a[0] - b[0]
            dy = a[1] - b[1]
            dz = a[2] - b[2]
            d2 = dx * dx + dy * dy + dz * dz
            mag = dt / (d2 * d2 ** 0.5)
            bm = b[6] * mag
            am = a[6] * mag
            a[3] -= dx * bm
            a[4] -= dy * bm
            a[5] -= dz * bm
            b[3] += dx * am
            b[4] += dy * am
            b[5] += dz * am
        for body in bodies:
            body[0] += dt * body[3]
            body[1] += dt * body[4]
            body[2] += dt * body[5]
    return int(sum(abs(c) for body in bodies for c in body[:3]) * 1000)


# --- json: dumps and loads (the _json accelerator) ----------------------

def json_work(rounds, rng):
    total = 0
    for r in range(rounds):
        doc = {
            "id": r,
            "name": "item-%d" % rng.next(100000),
            "tags": ["t%d" % rng.next(50) for _ in range(8)],
            "values": [rng.next(1000) / 7.0 for _ in range(20)],
            "nested": {"a": [1, 2, {"b": None, "c": True}], "s": "x\u00e9y\n" * 3},
        }
        text = json.dumps(doc, sort_keys=True)
        back = json.loads(text)
        total += len(text) + len(back["tags"]) + int(sum(back["values"]))
    return total


# --- regex: search and compile -----------------------------------------

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu "
         "nu xi omicron pi rho sigma tau upsilon phi chi psi omega").split()


def regex_search(rounds, rng):
    text = " ".join(WORDS[rng.next(len(WORDS))] + str(rng.next(1000))
                    for _ in range(2000))
    patterns = [re.compile(p) for p in (
        r"\b(alpha|omega)\d+\b", r"[aeiou]{2}\w*", r"(\w+)\d{3}\b",
        r"t\w*a(\d)", r"\bp\w+?(\d+)")]
    total = 0
    for _ in range(rounds):
        for p in patterns:
            total += len(p.findall(text))
        total += len(re.sub(r"(\d+)", lambda m: m.group(1)[::-1], text[:4000]))
    return total


def regex_compile(rounds, rng):
    total = 0
    for r in range(rounds):
        re.purge()
        for w in WORDS:
            p = re.compile(r"(?:%s|%s)\d{%d,%d}[a-z]*" % (
                w, w[::-1], rng.next(3), 3 + rng.next(3)))
            total += p.groups + len(p.pattern)
    return total


# --- str operations -----------------------------------------------------

def str_ops(rounds, rng):
    total = 0
    for _ in range(rounds):
        parts = [WORDS[rng.next(len(WORDS))] for _ in range(300)]
        s = ",".join(parts)
        up = s.upper()
        total += up.count("A") + s.find("omega") + len(s.split(","))
        total += len(s.replace("a", "aa")) + len("%s-%d" % (s[:20], len(s)))
        total += sum(1 for w in parts if w.startswith("p") or w.endswith("a"))
        total += len(f"{total:08x}{s[5:15]!r}".encode("utf-8"))
    return total


# --- containers ---------------------------------------------------------

def containers(rounds, rng):
    total = 0
    for _ in range(rounds):
        d = {}
        for i in range(2000):
            k = rng.next(500)
            d[k] = d.get(k, 0) + i
        lst = sorted(d.items(), key=lambda kv: (kv[1] % 97, kv[0]))
        st = {k * 7 % 311 for k in d}
        total += len(lst) + len(st) + sum(v for _, v in lst[:50]) % 9973
        total += len([x for x in range(3000) if x % 3 == 0 and x not in st])
    return total


def main():
    scale = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rng = Lcg(12345)
    results = [
        richards(1200 * scale),
        nbody(16000 * scale),
        json_work(2000 * scale, rng),
        regex_search(30 * scale, rng),
        regex_compile(40 * scale, rng),
        str_ops(700 * scale, rng),
        containers(60 * scale, rng),
    ]
    print(" ".join(str(r) for r in results))


main()

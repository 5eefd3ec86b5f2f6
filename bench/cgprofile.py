"""cgprofile.py: read a callgrind output file (run with
--dump-instr=no --demangle=no --separate-recs=1) into per-function costs
and the call graph, with the compiler's clones folded onto the function
they came from and names demangled.

A function's self Ir is the cost of its own lines; a call edge
caller -> callee carries the number of calls and their inclusive cost
("calls=N ..." and the cost line after it).  Names are compressed in
the file: "fn=(N) NAME" defines N, "fn=(N)" reuses it, and fn/cfn share
one table (as do ob/cob and fl/fi/fe/cfi/cfl).

Folding: GCC names the copies it makes of a function with suffixes
(foo.part.0 partial inlining's out-of-line part, foo.constprop.0,
foo.isra.0, foo.cold the cold part split off, foo.lto_priv.0,
foo.localalias), clang with .llvm.N, .cold.N, .specialized.N and
.__uniq.N; each suffix may follow another (foo.isra.0.cold).  Their cost
and calls are counted as foo's, so that builds which cloned differently
compare function by function; the names folded are kept.  A function is
then known by its demangled name (c++filt), which also makes one of a
C++ constructor's or destructor's complete and base object symbols
(C1/C2, D1/D2: aliases, of which callgrind reports either).
"""

import os
import re
import subprocess

# One clone suffix at the end of a name; folding strips them repeatedly.
CLONE_SUFFIX = re.compile(
    r"\.(part|constprop|isra|cold|lto_priv|localalias|llvm|specialized|__uniq)"
    r"(\.[0-9]+)*$")

# What compare.py runs callgrind with: per-function costs, mangled names
# (folded and demangled here), a recursive call an edge of its own
# function rather than a function "f'2".
OPTIONS = ["--dump-instr=no", "--demangle=no", "--separate-recs=1"]


def origin(name):
    """NAME without its clone suffixes."""
    while True:
        base = CLONE_SUFFIX.sub("", name)
        if base == name or not base:
            return name
        name = base


def demangle(names):
    """NAME -> demangled name, through c++filt (unchanged without it)."""
    names = sorted(names)
    try:
        p = subprocess.run(["c++filt"], input="\n".join(names), text=True,
                           stdout=subprocess.PIPE, check=True)
        out = p.stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}
    return {n: (out[i] if i < len(out) and out[i] else n)
            for i, n in enumerate(names)}


def unnamed(name):
    """True for a function callgrind knows by its address only (a PLT
    stub, code without a symbol): its name differs from build to build."""
    return name.startswith("0x")


class Profile:
    """One callgrind run, folded.  self_ir[f], calls_in[f] (calls from
    other functions), edges[(caller, callee)] = [calls, inclusive Ir],
    objects[f] (the file its code is in), folded[f] = set of the
    (mangled) clone names seen, total Ir."""

    def __init__(self):
        self.total = 0
        self.self_ir = {}
        self.calls_in = {}
        self.edges = {}
        self.objects = {}
        self.folded = {}

    def inclusive(self, f):
        """F's own Ir plus that of the calls it makes to other functions
        (calls inside F's group of clones are already in its self Ir).
        Mutual recursion counts twice, so it is capped at the total."""
        inc = self.self_ir.get(f, 0)
        for (a, b), (_, ir) in self.edges.items():
            if a == f and b != f:
                inc += ir
        return min(inc, self.total)

    def functions(self):
        return set(self.self_ir) | set(self.calls_in)


def _name(table, value):
    """Resolve a compressed 'fn=(N) NAME' / 'fn=(N)' value."""
    m = re.match(r"\((\d+)\)(?: (.*))?$", value)
    if not m:
        return value
    if m.group(2) is not None:
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1), value)


def read(path):
    """Parse callgrind output PATH (events: Ir) into a Profile."""
    raw = Profile()
    names, objs = {}, {}
    fn = cfn = ob = None
    call_pending = False      # the next cost line is the cost of a call
    calls = 0
    with open(path, errors="replace") as f:
        for line in f:
            c = line[:1]
            if c.isdigit() or c in "+-*":
                ir = int(line.split()[-1])
                if call_pending:
                    call_pending = False
                    e = raw.edges.setdefault((fn, cfn), [0, 0])
                    e[0] += calls
                    e[1] += ir
                else:
                    raw.self_ir[fn] = raw.self_ir.get(fn, 0) + ir
            elif line.startswith("fn="):
                fn = _name(names, line[3:].rstrip("\n"))
                raw.objects.setdefault(fn, ob)
            elif line.startswith("cfn="):
                cfn = _name(names, line[4:].rstrip("\n"))
            elif line.startswith(("ob=", "cob=")):
                # cob= names the callee's object; every function executed
                # has a block of its own, whose ob= is the one kept.
                o = _name(objs, line.split("=", 1)[1].rstrip("\n"))
                if c == "o":
                    ob = o
            elif line.startswith("calls="):
                calls = int(line[6:].split()[0])
                call_pending = True
            elif line.startswith(("summary:", "totals:")):
                raw.total = int(line.split()[1])
    return fold(raw)


def fold(raw):
    """RAW with its functions renamed to their demangled origin."""
    everyone = raw.functions() | set(raw.objects)
    dm = demangle(set(origin(n) for n in everyone))
    key = {n: dm[origin(n)] for n in everyone}
    p = Profile()
    p.total = raw.total
    for n in everyone:
        if origin(n) != n:
            p.folded.setdefault(key[n], set()).add(n)
        if raw.objects.get(n):
            p.objects.setdefault(key[n], os.path.realpath(raw.objects[n]))
    for n, ir in raw.self_ir.items():
        p.self_ir[key[n]] = p.self_ir.get(key[n], 0) + ir
    for (a, b), (calls, ir) in raw.edges.items():
        a, b = key[a], key[b]
        if a == b:
            # A call between clones of one function, or recursion: its
            # cost is the function's own already.
            continue
        e = p.edges.setdefault((a, b), [0, 0])
        e[0] += calls
        e[1] += ir
        p.calls_in[b] = p.calls_in.get(b, 0) + calls
    return p

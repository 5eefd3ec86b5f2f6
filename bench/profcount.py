#!/usr/bin/env python3
"""profcount.py: read counter values out of profiles (library + CLI).

  profcount.py FILE...   prints the counter count and sum of each
                         .profraw/.profdata (via llvm-profdata) or .gcda

LLVM-format profiles (latepgo, clang) are read through
'llvm-profdata merge --text' (TOOL may be latepgo-profdata, same
interface).  .gcda files are parsed here, after GCC 12's gcov-io.h:
a header of 32-bit words (magic "gcda", version, stamp, checksum), then
records (tag, length in bytes, payload).  A FUNCTION record (tag
0x01000000) holds ident, lineno_checksum, cfg_checksum; a counter record
(tag 0x01a10000 + (kind << 17)) holds 64-bit counters as (low, high)
word pairs, or, when its length is negative, that many bytes of zero
counters with no payload (libgcov writes all-zero counter arrays so).
Arc counters are tag 0x01a10000.
"""

import os
import struct
import subprocess
import sys

GCDA_MAGIC = 0x67636461
TAG_FUNCTION = 0x01000000
TAG_COUNTER_BASE = 0x01a10000
TAG_OBJECT_SUMMARY = 0xa1000000
COUNTER_NAMES = ["arcs", "v_interval", "v_pow2", "v_topn", "v_indirect",
                 "v_average", "v_ior", "time_profiler"]


def read_gcda(path):
    """Return dict: functions = {(lineno_checksum, cfg_checksum[, n]):
    {kind: [counts]}}, version."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 16:
        raise ValueError("%s: too short" % path)
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic != GCDA_MAGIC:
        # The other byte order would be a foreign-endian file.
        raise ValueError("%s: not a little-endian gcda file" % path)
    version = data[4:8][::-1].decode("latin1")
    pos = 16
    funcs, cur = {}, None
    while pos + 8 <= len(data):
        tag, length = struct.unpack_from("<Ii", data, pos)
        pos += 8
        if tag == 0:
            break
        if tag == TAG_FUNCTION:
            if length >= 12:
                # ident is random for local functions (it changes from
                # one compile to the next): key by the checksums.
                key = struct.unpack_from("<III", data, pos)[1:]
                k, n = key, 2
                while k in funcs:
                    k, n = key + (n,), n + 1
                cur = funcs.setdefault(k, {})
            pos += max(length, 0)
        elif TAG_COUNTER_BASE <= tag < TAG_COUNTER_BASE + (8 << 17) and \
                (tag - TAG_COUNTER_BASE) % (1 << 17) == 0:
            kind = (tag - TAG_COUNTER_BASE) >> 17
            name = COUNTER_NAMES[kind]
            if length < 0:
                counts = [0] * (-length // 8)
            else:
                n = length // 8
                words = struct.unpack_from("<%dI" % (2 * n), data, pos)
                counts = [words[2 * i] | (words[2 * i + 1] << 32) for i in range(n)]
                pos += length
            if cur is not None:
                cur[name] = counts
        else:
            pos += max(length, 0)
    return dict(version=version, functions=funcs)


def gcda_functions(paths):
    """{(file basename, checksums...): arc counts} over PATHS."""
    out = {}
    other = 0
    for p in paths:
        g = read_gcda(p)
        base = os.path.basename(p)
        for key, kinds in g["functions"].items():
            out[(base,) + key] = kinds.get("arcs", [])
            other += sum(len(c) for k, c in kinds.items() if k != "arcs")
    return out, other


def parse_text_profile(text):
    """{name: [counts]} from LLVM's text profile format."""
    lines = text.splitlines()
    funcs = {}
    i, n = 0, len(lines)
    while i < n:
        line = lines[i].strip()
        if line == "# Func Hash:":
            name = lines[i - 1].strip()
            j = i + 2
            while j < n and lines[j].strip() != "# Num Counters:":
                j += 1
            ncount = int(lines[j + 1])
            assert lines[j + 2].strip() == "# Counter Values:", lines[j + 2]
            vals = [int(x) for x in lines[j + 3:j + 3 + ncount]]
            key = name
            k = 2
            while key in funcs:  # same name, another hash
                key = "%s#%d" % (name, k)
                k += 1
            funcs[key] = vals
            i = j + 3 + ncount
        else:
            i += 1
    return funcs


def llvm_functions(paths, tool=None):
    """Merge PATHS with TOOL (llvm-profdata) into text; {name: counts}."""
    import config
    tool = tool or config.LLVM_PROFDATA
    p = subprocess.run([tool, "merge", "--text", "-o", "-"] + list(paths),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("%s merge failed: %s" % (tool, p.stderr.decode()[-1000:]))
    return parse_text_profile(p.stdout.decode(errors="replace"))


def summarize(funcs):
    counts = [c for v in funcs.values() for c in v]
    return dict(functions=len(funcs), counters=len(counts), sum=sum(counts),
                nonzero=sum(1 for c in counts if c))


def main():
    for path in sys.argv[1:]:
        if path.endswith(".gcda"):
            f, other = gcda_functions([path])
        else:
            f = llvm_functions([path])
        s = summarize(f)
        print("%s: functions=%d counters=%d sum=%d nonzero=%d"
              % (path, s["functions"], s["counters"], s["sum"], s["nonzero"]))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()

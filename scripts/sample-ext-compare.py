#!/usr/bin/env python3
"""sample-ext-compare.py: compare two extensible binary sample profiles
(LLVM's SPF_Ext_Binary, version 103) section by section.

    scripts/sample-ext-compare.py OURS LLVM

Prints "identical" when the files are byte for byte the same.  Else
every section is compared: the header tables must agree (types, flags,
offsets, sizes), and every section's bytes must be equal, except the
function metadata section, whose top-level entries llvm-profdata 14
writes in the order of its hash table: there the entries are compared
as a set, and "identical but the function metadata order" is printed.
Any other difference is printed and the exit status is 1.
"""
import struct
import sys

NAMES = {1: 'summary', 2: 'name table', 3: 'symbol list',
         4: 'function offsets', 5: 'function metadata',
         6: 'context name table', 32: 'profiles'}


def uleb(d, o):
    r = s = 0
    while True:
        b = d[o]
        o += 1
        r |= (b & 0x7f) << s
        s += 7
        if b < 0x80:
            return r, o


def sections(d):
    _, o = uleb(d, 0)
    _, o = uleb(d, o)
    n = struct.unpack_from('<Q', d, o)[0]
    o += 8
    return [struct.unpack_from('<4Q', d, o + 32 * i) for i in range(n)]


def meta_entries(d, flags, cs):
    """The top-level entries of a metadata section, as byte strings."""
    probes, attrs = flags >> 32 & 1, flags >> 33 & 1
    out, o = [], 0

    def one(o, nested):
        if nested:
            _, o = uleb(d, o)   # line
            _, o = uleb(d, o)   # discriminator
        _, o = uleb(d, o)       # name or context
        if probes:
            _, o = uleb(d, o)
        if attrs:
            _, o = uleb(d, o)
        if not cs:
            n, o = uleb(d, o)
            for _ in range(n):
                o = one(o, True)
        return o

    while o < len(d):
        e = one(o, False)
        out.append(d[o:e])
        o = e
    return sorted(out)


def main():
    a, b = (open(p, 'rb').read() for p in sys.argv[1:3])
    if a == b:
        print('identical')
        return 0
    sa, sb = sections(a), sections(b)
    if sa != sb:
        print('section header tables differ:\n  ours %s\n  llvm %s' % (sa, sb))
        return 1
    cs = any(t == 1 and f >> 33 & 1 for t, f, _, _ in sa)
    bad = 0
    for t, f, off, size in sa:
        x, y = a[off:off + size], b[off:off + size]
        if x == y:
            continue
        if t == 5 and meta_entries(x, f, cs) == meta_entries(y, f, cs):
            continue
        print('section %s differs' % NAMES.get(t, t))
        bad = 1
    if a[:sa[0][2]] != b[:sb[0][2]]:
        print('headers differ')
        bad = 1
    if not bad:
        print('identical but the function metadata order')
    return bad


sys.exit(main())

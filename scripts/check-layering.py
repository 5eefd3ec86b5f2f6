#!/usr/bin/env python3
"""check-layering.py: find circles between source files.

Usage: check-layering.py OBJ...

File A depends on file B when A's object refers to a global symbol
that B's object defines (weak definitions, i.e. inline functions and
templates from headers, do not count).  The files should form layers:
a circle (A needs B, B needs A, possibly through others) means
neither can be read, tested or changed without the other.  Prints
one line per circle, "circle: a.o b.o ...", and exits 1 when there
is one; prints "no circles among N files" and exits 0 otherwise.
"""
import collections
import os
import subprocess
import sys


def symbols(obj, flags):
    out = subprocess.run(['nm', '-P'] + flags + [obj], capture_output=True,
                         text=True, check=True).stdout
    return [line.split() for line in out.splitlines() if line.strip()]


def graph(objs):
    owner = {}
    for obj in objs:
        for fields in symbols(obj, ['--defined-only', '-g']):
            name, kind = fields[0], fields[1]
            if kind in 'TDBRGS':
                owner.setdefault(name, obj)
    deps = collections.defaultdict(set)
    for obj in objs:
        for fields in symbols(obj, ['-u']):
            target = owner.get(fields[0])
            if target and target != obj:
                deps[obj].add(target)
    return deps


def circles(objs, deps):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(deps[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for obj in objs:
        if obj not in index:
            visit(obj)
    return found


def main():
    objs = sys.argv[1:]
    if not objs:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    found = circles(objs, graph(objs))
    for component in found:
        names = [os.path.relpath(obj) for obj in component]
        print('circle: ' + ' '.join(names))
    if found:
        return 1
    print('no circles among %d files' % len(objs))
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""sample-probe-sums.py: the count of each probe of a probe-based text
sample profile, summed over its contexts, for comparing the output of
latepgo-profgen with llvm-profgen's.

    scripts/sample-probe-sums.py PROFILE             print "FUNC ID COUNT"
    scripts/sample-probe-sums.py --compare OURS LLVM print a table of the
                                                     differences; exit 1
                                                     if there are any
    scripts/sample-probe-sums.py --compare-test OURS TEST PREFIX
        the same against the output an llvm-profgen test expects: the
        lines "; PREFIX: ..." and "; PREFIX-NEXT: ..." of the .test
        file TEST, a flat context-sensitive profile whose indentation
        FileCheck ignores; only the probes those lines list are
        compared (a test may leave out zeros), so PREFIX must list
        every context of the functions it names

PROFILE is LLVM's text sample format: flat context-sensitive
("[main:2 @ foo]:75:0" headers, llvm-profgen's CS output) or nested
(latepgo-profgen's: "foo:75:0" headers and "8: bar:28" inlinees one
level deeper).  Either way a body line "ID: COUNT [F:N ...]" counts
for the function of the header or inlinee it belongs to (the last
frame of a context), whatever its context: the sum over contexts.
Lines starting with '!' or '#' and the call targets are left out.
"""
import re
import sys

HEADER = re.compile(r'^(\[(?P<ctx>.*)\]|(?P<name>.+?)):(?P<total>\d+):(?P<head>\d+)$')
BODY = re.compile(r'^(?P<id>\d+): (?P<count>\d+)( .*)?$')
INLINEE = re.compile(r'^(?P<id>\d+): (?P<name>.+):(?P<total>\d+)$')


def sums(path):
    """{(function, probe id): count} of the profile at PATH."""
    out = {}
    # The function at each indentation depth (nested inlinees).
    stack = []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if not line.strip() or line.lstrip().startswith(('!', '#')):
                continue
            depth = len(line) - len(line.lstrip(' '))
            text = line.strip()
            if depth == 0:
                m = HEADER.match(text)
                if not m:
                    sys.exit('%s:%d: not a function header: %s'
                             % (path, lineno, line))
                name = m.group('name')
                if m.group('ctx') is not None:
                    name = m.group('ctx').split(' @ ')[-1].split(':')[0]
                stack = [name]
                continue
            del stack[depth:]
            if len(stack) < depth:
                sys.exit('%s:%d: indented too deep' % (path, lineno))
            # A body line is "ID: COUNT" and call targets; an inlinee
            # "ID: NAME:TOTAL", where NAME is no number.
            m = BODY.match(text)
            if m:
                key = (stack[-1], int(m.group('id')))
                out[key] = out.get(key, 0) + int(m.group('count'))
                continue
            m = INLINEE.match(text)
            if m:
                stack.append(m.group('name'))
                continue
            sys.exit('%s:%d: not a body line: %s' % (path, lineno, line))
    return out


def test_sums(path, prefix):
    """{(function, probe id): count} of the lines PREFIX of the
    llvm-profgen test at PATH: a flat CS profile, a header "[CONTEXT]"
    and its body lines."""
    out = {}
    line_re = re.compile(r'^; %s(-NEXT)?:\s*(?P<text>.*?)\s*$' % re.escape(prefix))
    func = None
    with open(path) as f:
        for raw in f:
            m = line_re.match(raw)
            if not m:
                continue
            text = m.group('text')
            if text.startswith('['):
                m = HEADER.match(text)
                if not m:
                    sys.exit('%s: not a context header: %s' % (path, text))
                func = m.group('ctx').split(' @ ')[-1].split(':')[0]
                continue
            if not text or text.startswith('!'):
                continue
            m = BODY.match(text)
            if not m or func is None:
                sys.exit('%s: not a body line: %s' % (path, text))
            key = (func, int(m.group('id')))
            out[key] = out.get(key, 0) + int(m.group('count'))
    if not out:
        sys.exit('%s: no lines of prefix %s' % (path, prefix))
    return out


def compare(ours, other, name, subset):
    """Print the differences of OURS from OTHER (NAME's counts); with
    SUBSET, only of the probes OTHER lists.  Return their number."""
    bad = zeros = 0
    keys = set(other) if subset else set(ours) | set(other)
    for key in sorted(keys):
        a, b = ours.get(key), other.get(key)
        # latepgo-profgen writes the whole inline tree of a function
        # it writes, zeros included; llvm-profgen only the contexts
        # that got counts.  A zero and no line agree.
        if (a, b) in ((0, None), (None, 0)):
            zeros += 1
        elif a != b:
            bad += 1
            print('DIFF %s %d: ours %s, %s %s'
                  % (key[0], key[1], '-' if a is None else a, name,
                     '-' if b is None else b))
    total = sum(ours.get(k, 0) for k in keys)
    print('%s: %d probes compared, %d differ, %d zero in one and absent '
          'in the other; sum of their counts: expected %d, ours %d'
          % (name, len(keys), bad, zeros, sum(other.values()), total))
    return bad


def main(argv):
    if len(argv) == 2:
        for (func, pid), count in sorted(sums(argv[1]).items()):
            print('%s %d %d' % (func, pid, count))
        return 0
    if len(argv) == 4 and argv[1] == '--compare':
        return 1 if compare(sums(argv[2]), sums(argv[3]), 'llvm-profgen',
                            False) else 0
    if len(argv) == 5 and argv[1] == '--compare-test':
        return 1 if compare(sums(argv[2]), test_sums(argv[3], argv[4]),
                            'expected by the test', True) else 0
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))

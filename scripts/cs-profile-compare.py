#!/usr/bin/env python3
"""cs-profile-compare.py: compare two context-sensitive probe-based
text sample profiles (LLVM's flat CS format, as llvm-profgen 14 and
latepgo-profgen --csprof write them), or check what llvm-profdata
show read from one.

    scripts/cs-profile-compare.py OURS LLVM
        parse both ("[main:2 @ foo]:TOTAL:HEAD" headers, " INDEX: COUNT
        [F:N ...]" body lines, " !CFGChecksum: H", " !Attributes: A";
        "#" comment lines are skipped)
        and print every difference: a context in one only, or a
        context's TOTAL, HEAD, checksum, attributes, a probe's count or
        its call targets differing.  The order of the profiles, and of
        equal-count call targets, is not compared (LLVM sorts them by
        total, ties in hash order).  Exit 1 if there is any difference.
    scripts/cs-profile-compare.py --show PROFILE SHOW
        SHOW is the output of 'llvm-profdata show --sample
        --all-functions PROFILE': every context of PROFILE must be in
        it, as "Function: CONTEXT: CFG checksum H" followed by
        "TOTAL, HEAD, N sampled lines" with N its body lines, and no
        other function.  Exit 1 otherwise.
"""
import re
import sys

HEADER = re.compile(r'^\[(?P<ctx>[^\]]+)\]:(?P<total>\d+):(?P<head>\d+)$')
BODY = re.compile(r'^(?P<id>\d+): (?P<count>\d+)(?P<targets>( \S+:\d+)*)$')


def parse(path):
    """{context: {'total', 'head', 'checksum', 'attributes', 'body':
    {id: count}, 'targets': {id: {name: count}}}} of the CS profile at
    PATH."""
    out = {}
    cur = None
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            # Blank lines, and comment lines (only '#' in column 1 is
            # one: latepgo's #first-sample, #sizes, #branch, which
            # llvm-profgen does not write).
            if not line.strip() or line.startswith('#'):
                continue
            where = '%s:%d' % (path, lineno)
            if not line.startswith(' '):
                m = HEADER.match(line)
                if not m:
                    sys.exit('%s: not a context header: %s' % (where, line))
                ctx = m.group('ctx')
                if ctx in out:
                    sys.exit('%s: context [%s] twice' % (where, ctx))
                cur = out[ctx] = {'total': int(m.group('total')),
                                  'head': int(m.group('head')),
                                  'checksum': None, 'attributes': 0,
                                  'body': {}, 'targets': {}}
                continue
            if cur is None:
                sys.exit('%s: body line before any header' % where)
            if line.startswith('  '):
                sys.exit('%s: nested line in a flat CS profile: %s'
                         % (where, line))
            text = line.strip()
            if text.startswith('!CFGChecksum: '):
                cur['checksum'] = int(text.split(': ', 1)[1])
                continue
            if text.startswith('!Attributes: '):
                cur['attributes'] = int(text.split(': ', 1)[1])
                continue
            m = BODY.match(text)
            if not m:
                sys.exit('%s: not a body line: %s' % (where, line))
            pid = int(m.group('id'))
            if pid in cur['body']:
                sys.exit('%s: probe %d twice' % (where, pid))
            cur['body'][pid] = int(m.group('count'))
            targets = {}
            for t in m.group('targets').split():
                name, n = t.rsplit(':', 1)
                targets[name] = int(n)
            if targets:
                cur['targets'][pid] = targets
    return out


def compare(ours_path, llvm_path):
    ours = parse(ours_path)
    llvm = parse(llvm_path)
    diffs = []
    for ctx in sorted(set(ours) | set(llvm)):
        if ctx not in llvm:
            diffs.append('[%s]: only in ours' % ctx)
            continue
        if ctx not in ours:
            diffs.append('[%s]: only in llvm-profgen\'s' % ctx)
            continue
        a, b = ours[ctx], llvm[ctx]
        for key in ('total', 'head', 'checksum', 'attributes'):
            if a[key] != b[key]:
                diffs.append('[%s]: %s %s, llvm-profgen %s'
                             % (ctx, key, a[key], b[key]))
        for pid in sorted(set(a['body']) | set(b['body'])):
            x, y = a['body'].get(pid), b['body'].get(pid)
            if x != y:
                diffs.append('[%s]: probe %d: %s, llvm-profgen %s'
                             % (ctx, pid, 'none' if x is None else x,
                                'none' if y is None else y))
            tx, ty = a['targets'].get(pid, {}), b['targets'].get(pid, {})
            if tx != ty:
                diffs.append('[%s]: probe %d targets: %s, llvm-profgen %s'
                             % (ctx, pid, tx, ty))
    print('%d contexts in ours, %d in llvm-profgen\'s, %d equal'
          % (len(ours), len(llvm),
             sum(1 for c in ours if c in llvm and ours[c] == llvm[c])))
    for d in diffs:
        print(d)
    return 1 if diffs else 0


def check_show(prof_path, show_path):
    prof = parse(prof_path)
    seen = {}
    fn = re.compile(r'^Function: (?P<ctx>.*): CFG checksum (?P<h>\d+)$')
    stats = re.compile(r'^(?P<t>\d+), (?P<h>\d+), (?P<n>\d+) sampled lines$')
    with open(show_path) as f:
        lines = f.read().split('\n')
    for i, line in enumerate(lines):
        m = fn.match(line)
        if not m:
            continue
        s = stats.match(lines[i + 1]) if i + 1 < len(lines) else None
        if not s:
            print('no "TOTAL, HEAD, N sampled lines" after: %s' % line)
            return 1
        seen[m.group('ctx')] = (int(m.group('h')), int(s.group('t')),
                                int(s.group('h')), int(s.group('n')))
    bad = 0
    for ctx, p in sorted(prof.items()):
        want = (p['checksum'], p['total'], p['head'], len(p['body']))
        got = seen.pop(ctx, None)
        if got != want:
            print('[%s]: llvm-profdata shows %s, the profile has %s'
                  % (ctx, got, want))
            bad = 1
    for ctx in sorted(seen):
        print('[%s]: shown by llvm-profdata, not in the profile' % ctx)
        bad = 1
    if not prof:
        print('%s: no contexts' % prof_path)
        bad = 1
    return bad


def main(argv):
    if len(argv) == 4 and argv[1] == '--show':
        return check_show(argv[2], argv[3])
    if len(argv) == 3:
        return compare(argv[1], argv[2])
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# sample-read.py: a black-box mutation fuzzer of the plugin's sample
# profile reader (plugin/sample-read.cc, and plugin/sample-binary.cc for
# the extensible binary form).
#
# That reader has no libFuzzer harness: it runs inside GCC, on GCC's
# vec, hash_map and diagnostics, and only after the probe pass has
# named the functions it looks profiles up for.  So it is driven through
# GCC itself: each run mutates a real seed profile (latepgo-profgen's
# output for a probe build, or llvm-profdata's --extbinary form of it)
# and compiles the seed's program with
#
#   gcc -O2 -fchecking -c SRC -fplugin=latepgo.so -fplugin-arg-latepgo-probes
#       -fplugin-arg-latepgo-sample-use=MUTANT
#
# or, in a share of the runs, with the mutant as sample-contexts= beside
# the seed's good flat profile (that profile is read twice, to scale it
# and to use it).  An internal compiler error, a signal, a hang or a
# sanitizer report is a crash, saved in OUT/crash-N.{prof,cmd,log}; an
# "error: latepgo: ..." or a warning is the right answer to a bad
# profile.  Python 3 only, no other packages.
#
# Usage (doc/testing.md, "Fuzzing"):
#
#   fuzz/sample-read.py --plugin plugin/latepgo.so --out fuzz/work/sample-read \
#     --runs 3000 --jobs 2 \
#     --seed SRC=FLAT.prof[,CONTEXTS.prof] [--seed ...] [--binary SRC=EXT.prof]
#
# Each SRC is compiled as given, from the current directory: a profile's
# function names carry the source path its probe build was given.

import argparse
import concurrent.futures
import os
import random
import re
import signal
import subprocess
import sys

HUGE = [b"0", b"-1", b"1", b"18446744073709551615", b"18446744073709551616",
        b"9223372036854775807", b"9223372036854775808", b"4294967295",
        b"4294967296", b"2147483647", b"2147483648", b"-9223372036854775808",
        b"99999999999999999999999999", b"", b" ", b"0x10", b"1e9", b"+1",
        b"2", b"3", b"7", b"100", b"1000", b"65536"]

ODD_LINES = [
    b"#sizes", b"#sizes ", b"#sizes 1:", b"#sizes 1: 8:", b"#sizes 1: :5",
    b"#sizes 1: 8:18446744073709551615 8:18446744073709551615",
    b"#sizes -1: 8:1", b"#sizes 99999999999: 8:1",
    b"#branch", b"#branch ", b"#branch 1:", b"#branch 1: 2:", b"#branch 1: :",
    b"#branch 1: 2:3 4:5 6:7 8:9 1:1",
    b"#branch 1: 1:18446744073709551615 1:18446744073709551615",
    b"#branch -1: -1:-1", b"#branch 0: 0:0",
    b"#first-sample", b"#first-sample 0", b"#first-sample -1",
    b"#first-sample 18446744073709551615", b"#first-sample x",
    b" !CFGChecksum:", b" !CFGChecksum: -1",
    b" !CFGChecksum: 18446744073709551616", b" !Attributes: 7",
    b" !Attributes: -1", b" !Attributes:",
    b" 1: 5 f:1 f:2 f:18446744073709551615", b" 1: 5 :", b" 1: 5 a:b:c",
    b" 1:", b" :", b" 0: 0", b" -1: 5", b" 1.2: 3", b" 4294967296: 1",
    b" 1: 18446744073709551615", b" 1: 9223372036854775807",
    b" 2: f:9", b"  1: g:0:0", b" 1: g:1:2", b"   1: h:5:5",
    b"[:1 @ ]:1:1", b"[a:0 @ a:0 @ a]:5:5", b"[]:1:1", b"[@]:1:1",
    b"[main:1 @ main:1 @ main]:1:1", b"[main]:1:1", b"[main:x @ f]:1:1",
    b"[main:1 @ f:2 @]:1:1", b"[main:1 @@ f]:3:3", b"[main: @ f]:3:3",
    b"[[main]]:1:1", b"[main:1 @ f", b"main]:1:1", b":1:1", b"f::",
    b"f:18446744073709551615:18446744073709551615",
    b"f:-1:-1", b"f", b"", b"\t1: 1", b" \t 1: 1",
]


def deep_context(names, depth):
    frames = [b"%s:%d" % (random.choice(names), random.randint(0, 30))
              for _ in range(depth - 1)]
    frames.append(random.choice(names))
    return b"[" + b" @ ".join(frames) + b"]:%d:%d" % (
        random.randint(0, 1000), random.randint(0, 1000))


def names_of(data):
    names = set()
    for m in re.finditer(rb"([A-Za-z_./][A-Za-z0-9_.:/-]*?):\d+", data):
        n = m.group(1).split(b":")[-1] if b"[" in m.group(0) else m.group(1)
        names.add(n)
    for m in re.finditer(rb"(?:^|\[| @ )([^\s:\[\]@]+(?::[^\s:\[\]@0-9][^\s:\[\]@]*)?)",
                         data, re.M):
        names.add(m.group(1))
    names.discard(b"")
    return sorted(names) or [b"main"]


def mutate_lines(data):
    lines = data.split(b"\n")
    names = names_of(data)
    sums = re.findall(rb"CFGChecksum: (\d+)", data) or [b"1"]

    def body():
        # A new record gets a body and one of the profile's checksums
        # (else it is refused as not probe-based, and nothing after it
        # is read).
        return [b" %d: %d" % (random.randint(1, 20), random.randint(0, 9999)),
                b" !CFGChecksum: " + random.choice(sums)]
    # Mostly one mutation: most bad lines are refused at once, and what
    # comes after a good-looking one is what needs exercising.
    for _ in range(1 if random.random() < 0.6 else random.randint(2, 4)):
        n = len(lines)
        k = random.randrange(n) if n else 0
        op = random.randrange(15)
        if op == 0 and n > 1:
            del lines[k]
        elif op == 1 and n:
            lines.insert(k, lines[random.randrange(n)])
        elif op == 2 and n > 1:
            j = random.randrange(n)
            lines[k], lines[j] = lines[j], lines[k]
        elif op == 3 and n:
            nums = list(re.finditer(rb"-?\d+", lines[k]))
            if nums:
                m = random.choice(nums)
                lines[k] = (lines[k][:m.start()] + random.choice(HUGE)
                            + lines[k][m.end():])
        elif op == 4 and n:
            s = lines[k].lstrip(b" \t")
            lines[k] = random.choice([b"", b" ", b"  ", b"   ", b"\t",
                                      b" " * 40]) + s
        elif op == 5:
            odd = random.choice(ODD_LINES)
            lines[k:k] = [odd] + (body() if odd[:1] not in b" #" and
                                  random.random() < 0.7 else [])
        elif op == 6:
            lines[k:k] = [deep_context(names, random.choice(
                [1, 2, 3, 8, 64, 256, 257, 1000, 20000]))] + body()
        elif op == 7 and n:
            # A duplicate record with another checksum.
            heads = [i for i, l in enumerate(lines)
                     if l and l[:1] not in b" #\t"]
            if heads:
                h = random.choice(heads)
                e = h + 1
                while e < n and lines[e][:1] in (b" ", b"#", b"\t"):
                    e += 1
                rec = [re.sub(rb"(CFGChecksum: )\d+",
                              lambda m: m.group(1)
                              + str(random.getrandbits(64)).encode(), l)
                       for l in lines[h:e]]
                at = random.randrange(n + 1)
                lines[at:at] = rec
        elif op == 8 and n:
            lines = lines[:k]
        elif op == 9 and n:
            # Rename a frame or function to another name of the profile.
            if names:
                a, b = random.choice(names), random.choice(names)
                lines[k] = lines[k].replace(a, b, 1)
        elif op == 10 and n:
            lines[k] = lines[k] + random.choice(
                [b" ", b"\r", b" x", b":", b" 7", b"\x00", b" f:1"])
        elif op == 11 and n:
            # Make a line an inlinee line or a body line of another depth.
            s = lines[k].lstrip(b" ")
            lines[k] = b" " * random.randint(0, 6) + s
        elif op == 12 and n:
            lines.insert(k, b" %d: %s:%d" % (
                random.randint(0, 40), random.choice(names),
                random.randint(0, 5000)))
        elif op == 13 and n:
            lines.insert(k, b" " * random.randint(1, 4) + b"%d: %s" % (
                random.randint(0, 40), random.choice(HUGE)))
        elif op == 14 and n:
            # The same line many times: sums of huge counts.
            lines[k:k] = [lines[k]] * random.choice([4, 5, 9, 100])
    out = b"\n".join(lines)
    if random.random() < 0.05:
        out = out.replace(b"\n", b"\r\n")
    if random.random() < 0.1:
        out = out.rstrip(b"\n")
    return out


def mutate_bytes(data, binary):
    b = bytearray(data)
    for _ in range(random.randint(1, 3)):
        if not b:
            b += b"\x00"
        # Past the binary form's header and section table, mostly.
        k = random.randrange(min(len(b) - 1, 160) if binary
                             and random.random() < 0.7 else 0, len(b))
        op = random.randrange(7)
        if op == 0:
            b[k] = random.randrange(256)
        elif op == 1:
            b[k] = random.choice([0, 0xff, 0x7f, 0x80, 0x0a, 0x20, 0x3a,
                                  0x5b, 0x5d, 0x40])
        elif op == 2:
            del b[k:k + random.randint(1, 16)]
        elif op == 3:
            b[k:k] = bytes(random.randrange(256)
                           for _ in range(random.randint(1, 8)))
        elif op == 4:
            del b[k:]
        elif op == 5:
            b[k:k] = b"\x00"
        elif op == 6:
            # An LEB128 number of 10 bytes, the largest.
            b[k:k] = random.choice([b"\xff" * 9 + b"\x01",
                                    b"\x80" * 9 + b"\x01", b"\xff" * 10])
    return bytes(b)


def mutate(data, binary):
    if binary or random.random() < 0.2:
        out = mutate_bytes(data, binary)
        if not binary and random.random() < 0.5:
            out = mutate_lines(out)
        return out
    return mutate_lines(data)


CRASH = re.compile(r"internal compiler error|killed by signal|Segmentation"
                   r"|AddressSanitizer|UndefinedBehaviorSanitizer"
                   r"|runtime error:|Aborted|terminate called")


def run_one(args, n, seed):
    src, flat, ctx, binary = seed
    use_contexts = ctx is not None and not binary and random.random() < 0.4
    base = open(ctx if use_contexts else flat, "rb").read()
    mutant = mutate(base, binary)
    path = os.path.join(args.out, "cur-%d.prof" % n)
    with open(path, "wb") as f:
        f.write(mutant)
    # -fchecking, as the testsuite compiles: GCC verifies the CFG and
    # its profile after each pass.
    cmd = [args.gcc, "-O2", "-fchecking", "-c", src,
           "-fplugin=" + args.plugin, "-fplugin-arg-latepgo-probes"]
    if use_contexts:
        cmd += ["-fplugin-arg-latepgo-sample-use=" + flat,
                "-fplugin-arg-latepgo-sample-contexts=" + path]
    else:
        cmd += ["-fplugin-arg-latepgo-sample-use=" + path]
    cmd += ["-o", "/dev/null"]
    # In a session of its own: a hang's cc1 is killed with the driver.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out = proc.communicate(timeout=args.timeout)[0]
        status = proc.returncode
        bad = (status < 0 or status >= 128
               or CRASH.search(out.decode("utf-8", "replace")) is not None)
        why = "status %d" % status
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out = proc.communicate()[0]
        bad = True
        why = "hang (over %d s)" % args.timeout
    out = out.decode("utf-8", "replace")
    os.remove(path)
    if not bad:
        return ("refused" if "error: latepgo:" in out
                else "warned" if "warning:" in out else "clean"), None
    name = os.path.join(args.out, "crash-%d" % n)
    with open(name + ".prof", "wb") as f:
        f.write(mutant)
    with open(name + ".cmd", "w") as f:
        f.write(" ".join(c.replace(path, name + ".prof") for c in cmd) + "\n")
    with open(name + ".log", "w") as f:
        f.write(why + "\n" + out)
    first = next((l for l in out.splitlines() if CRASH.search(l)), why)
    return "crashed", "%s: %s: %s" % (name, why, first.strip())


def parse_seed(text, binary):
    src, _, profs = text.partition("=")
    parts = profs.split(",")
    return (src, parts[0], parts[1] if len(parts) > 1 else None, binary)


def main():
    p = argparse.ArgumentParser(
        description="Mutation fuzzer of the plugin's sample profile reader")
    p.add_argument("--plugin", required=True)
    p.add_argument("--gcc", default="gcc")
    p.add_argument("--out", default="fuzz/work/sample-read")
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=20)
    p.add_argument("--seed-value", type=int, default=1)
    p.add_argument("--seed", action="append", default=[],
                   help="SRC=FLAT.prof[,CONTEXTS.prof]")
    p.add_argument("--binary", action="append", default=[],
                   help="SRC=EXTBINARY.prof")
    args = p.parse_args()
    args.plugin = os.path.abspath(args.plugin)
    seeds = ([parse_seed(s, False) for s in args.seed]
             + [parse_seed(s, True) for s in args.binary])
    if not seeds:
        p.error("no --seed or --binary given")
    os.makedirs(args.out, exist_ok=True)
    random.seed(args.seed_value)
    # How the compilations ended: "refused" (an error: latepgo: ...),
    # "warned", "clean", "crashed"; a campaign whose mutants are nearly
    # all refused tests little beyond the first bad line.
    kinds = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(run_one, args, n, seeds[n % len(seeds)])
                for n in range(args.runs)]
        for done, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            kind, msg = fut.result()
            kinds[kind] = kinds.get(kind, 0) + 1
            if msg:
                print(msg, flush=True)
            if done % 250 == 0:
                print("%d runs, %d crashes" % (done, kinds.get("crashed", 0)),
                      flush=True)
    print("%d runs: %s" % (args.runs, ", ".join(
        "%d %s" % (kinds[k], k) for k in sorted(kinds))))
    return 1 if kinds.get("crashed") else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""report.py MODE: OUT/MODE/{build,counts,timing,callgrind}.json ->
OUT/MODE/results.json (all figures, ratios computed), report.md (tables)
and chart.png (overhead and speedup ratios; needs matplotlib, else the
chart is skipped with a note).

Ratios are taken against the plain build of the same compiler (gcc for
gcc and latepgo variants, clang for clang variants):
  run     median wall-clock time / plain's median (eval input)
  ir      instructions executed under callgrind / plain's (small input)
  compile compile CPU time / plain's
  size    text+data+bss / plain's
"""

import datetime
import json
import os
import platform
import subprocess
import sys

import config
import runlib

PLAIN = {"gcc": "gcc", "clang": "clang"}


def ratio(a, b):
    if a is None or b in (None, 0):
        return None
    return a / b


def tool_version(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.stdout.splitlines()[0].strip() if p.stdout else None
    except OSError:
        return None


def collect(mode):
    od = config.out_dir(mode)
    builds = runlib.load_json(os.path.join(od, "build.json"), {})
    counts = runlib.load_json(os.path.join(od, "counts.json"), {})
    timing = runlib.load_json(os.path.join(od, "timing.json"), {})
    cg = runlib.load_json(os.path.join(od, "callgrind.json"), {})
    res = dict(mode=mode, date=datetime.datetime.now().isoformat(timespec="seconds"),
               machine=dict(cpus=os.cpu_count(), platform=platform.platform()),
               tools=dict(gcc=tool_version([config.GCC, "--version"]),
                          clang=tool_version([config.CLANG, "--version"]),
                          llvm_profdata=tool_version([config.LLVM_PROFDATA, "--version"])),
               rounds=timing.get("rounds"), workloads={},
               anomalies=(counts.get("anomalies", []) + timing.get("anomalies", [])
                          + cg.get("anomalies", [])),
               notes=counts.get("notes", []))
    for w in config.mode_workloads(mode):
        b = builds.get(config.build_of(w), {})
        c = counts.get("workloads", {}).get(w, {})
        t = timing.get("workloads", {}).get(w, {})
        g = cg.get("workloads", {}).get(w, {})
        wres = dict(eval_args=t.get("args"), small_args=g.get("args"),
                    train_args=config.input_for(w, "train", mode),
                    result=t.get("result"), variants={})
        for v in config.mode_variants():
            n = v["name"]
            bi = b.get(n, {})
            if not bi:
                continue
            p = PLAIN[v["family"]]
            pb, pt = b.get(p, {}), t.get("variants", {}).get(p, {})
            pg = g.get("variants", {}).get(p, {})
            ti = t.get("variants", {}).get(n, {})
            gi = g.get("variants", {}).get(n, {})
            ci = c.get(n, {})
            e = dict(kind=v["kind"], family=v["family"], built=bool(bi.get("ok")),
                     compile_cpu=bi.get("compile_cpu"), size_total=bi.get("size_total"),
                     size_text=bi.get("size_text"), size_data=bi.get("size_data"),
                     size_bss=bi.get("size_bss"),
                     run_median=ti.get("median"), run_min=ti.get("min"),
                     run_samples=ti.get("samples"),
                     ir=gi.get("ir"))
            e["run_ratio"] = ratio(ti.get("median"), pt.get("median"))
            e["run_ratio_min"] = ratio(ti.get("min"), pt.get("min"))
            e["ir_ratio"] = ratio(gi.get("ir"), pg.get("ir"))
            e["compile_ratio"] = ratio(bi.get("compile_cpu"), pb.get("compile_cpu"))
            e["size_ratio"] = ratio(bi.get("size_total"), pb.get("size_total"))
            for k in ("counters", "sum", "functions", "nonzero", "profile_bytes",
                      "other_counters", "mt", "equals_single", "latepgo_profdata_sum"):
                if k in ci:
                    e[k] = ci[k]
            if not bi.get("ok"):
                e["error"] = bi.get("error")
            wres["variants"][n] = e
        res["workloads"][w] = wres
    return res


def fmt(x, spec="%.2f"):
    return "—" if x is None else spec % x


def big(n):
    if n is None:
        return "—"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= div * 10:
            return "%.1f%s" % (n / div, unit)
    return str(n)


def markdown(res):
    L = []
    L.append("# latepgo benchmark (%s mode)" % res["mode"])
    L.append("")
    L.append("%s; %s; %s; %s CPUs. All builds -O2. Wall-clock figures: median of %s "
             "interleaved rounds on the evaluation input (single-threaded workloads pinned to one CPU with taskset unless BENCH_NO_PIN is set; 'of mins': the same ratio of the fastest rounds; where the two differ much, the timing was noisy, as on the 2-thread workload, whose times are bimodal); Ir: callgrind instructions on the "
             "small input; counters: one run on the training input. Ratios are against the "
             "plain build of the same compiler (latepgo and gcc variants: gcc; clang: clang)."
             % (res["date"], res["tools"]["gcc"], res["tools"]["clang"],
                res["machine"]["cpus"], res["rounds"]))
    L.append("")
    # Headline: latepgo versus gcc's own instrumentation.
    L.append("## latepgo-gen versus gcc -fprofile-generate (same input)")
    L.append("")
    L.append("| workload | counters latepgo / gcc | dynamic updates latepgo / gcc (ratio) "
             "| run time ratio latepgo / gcc | Ir ratio latepgo / gcc | size latepgo / gcc |")
    L.append("|---|---|---|---|---|---|")
    for w, wr in res["workloads"].items():
        lp, gc = wr["variants"].get("latepgo-gen", {}), wr["variants"].get("gcc-gen", {})
        L.append("| %s | %s / %s | %s / %s (%s) | %s / %s | %s / %s | %s / %s |" % (
            w, big(lp.get("counters")), big(gc.get("counters")),
            big(lp.get("sum")), big(gc.get("sum")),
            fmt(ratio(lp.get("sum"), gc.get("sum"))),
            fmt(lp.get("run_ratio")), fmt(gc.get("run_ratio")),
            fmt(lp.get("ir_ratio")), fmt(gc.get("ir_ratio")),
            big(lp.get("size_total")), big(gc.get("size_total"))))
    L.append("")
    for w, wr in res["workloads"].items():
        L.append("## %s" % w)
        L.append("")
        L.append("Training/count input: `%s`; evaluation input: `%s`; callgrind input: `%s`."
                 % (" ".join(wr["train_args"] or []), " ".join(wr["eval_args"] or []),
                    " ".join(wr["small_args"] or [])))
        L.append("")
        L.append("| variant | run s | run ratio | (of mins) | Ir ratio | compile ratio | counters "
                 "| dynamic updates | size (t+d+b) | size ratio | profile bytes |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for n, e in wr["variants"].items():
            if not e["built"]:
                L.append("| %s | build failed | | | | | | | | | |" % n)
                continue
            L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                n, fmt(e.get("run_median"), "%.3f"), fmt(e.get("run_ratio")),
                fmt(e.get("run_ratio_min")),
                fmt(e.get("ir_ratio")), fmt(e.get("compile_ratio")),
                e.get("counters", "") if e["kind"] == "gen" else "",
                e.get("sum", "") if e["kind"] == "gen" else "",
                e.get("size_total") or "—", fmt(e.get("size_ratio")),
                e.get("profile_bytes", "") if e["kind"] == "gen" else ""))
        mt = [(n, e["mt"]) for n, e in wr["variants"].items() if e.get("mt")]
        if mt:
            L.append("")
            L.append("Counters of the zlib functions with %s threads versus one thread "
                     "(same items):" % mt[0][1]["threads"])
            L.append("")
            L.append("| variant | 1-thread sum | %s-thread sum | lost updates | exact |"
                     % mt[0][1]["threads"])
            L.append("|---|---|---|---|---|")
            for n, m in mt:
                L.append("| %s | %d | %d | %.2f%% | %s |" % (
                    n, m["ref_sum"], m["run_sum"], 100 * m["lost_fraction"],
                    "yes" if m["exact"] else "no"))
        L.append("")
    L.append("## Anomalies")
    L.append("")
    if res["anomalies"]:
        for a in res["anomalies"]:
            L.append("- " + a)
    else:
        L.append("None.")
    L.append("")
    if res.get("notes"):
        L.append("## Notes")
        L.append("")
        for a in res["notes"]:
            L.append("- " + a)
        L.append("")
    return "\n".join(L)


COLORS = {
    "latepgo-gen": "#1f4e9c", "latepgo-gen-atomic": "#7fa6e0",
    "gcc-gen": "#d9611c", "gcc-gen-atomic": "#f2ae7c",
    "clang-gen": "#2e8b3e", "clang-gen-atomic": "#93d19e",
    "clang-gen-novp": "#5fb36e",
    "latepgo-use": "#1f4e9c", "gcc-use": "#d9611c", "clang-use": "#2e8b3e",
}


def chart(res, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib not available (apt-get install python3-matplotlib); no chart"
    ws = list(res["workloads"])
    panels = [("gen", "Instrumented run time / plain (lower is better)"),
              ("use", "PGO-optimized run time / plain (lower is better)")]
    fig, axes = plt.subplots(1, 2, figsize=(15, 5.8), gridspec_kw=dict(width_ratios=[3, 2]))
    for ax, (kind, title) in zip(axes, panels):
        names = [v["name"] for v in config.mode_variants() if v["kind"] == kind]
        names = [n for n in names if any(n in res["workloads"][w]["variants"] for w in ws)]
        width = 0.8 / max(len(names), 1)
        top = 1.0
        for i, n in enumerate(names):
            xs, ys, irs = [], [], []
            for j, w in enumerate(ws):
                e = res["workloads"][w]["variants"].get(n, {})
                x = j - 0.4 + width * (i + 0.5)
                if e.get("run_ratio") is not None:
                    xs.append(x)
                    ys.append(e["run_ratio"])
                if e.get("ir_ratio") is not None:
                    irs.append((x, e["ir_ratio"]))
            bars = ax.bar(xs, ys, width * 0.92, label=n, color=COLORS.get(n, "grey"),
                          edgecolor="black", linewidth=0.4)
            for b, y in zip(bars, ys):
                ax.text(b.get_x() + b.get_width() / 2, y, "%.2f" % y, ha="center",
                        va="bottom", fontsize=7, rotation=90 if kind == "gen" else 0)
                top = max(top, y)
            if irs:
                ax.plot([p[0] for p in irs], [p[1] for p in irs], linestyle="none",
                        marker="D", markersize=4, color="black",
                        label="callgrind Ir ratio" if i == 0 else None)
                top = max(top, max(p[1] for p in irs))
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(ws)))
        ax.set_xticklabels(ws)
        ax.set_title(title, fontsize=11)
        ax.set_ylabel("ratio to plain build of the same compiler")
        if kind == "use":
            ax.set_ylim(0, max(1.25, top * 1.15))
        else:
            ax.set_ylim(0, top * 1.18)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, ncol=2 if kind == "gen" else 1, loc="upper left")
    fig.suptitle("latepgo benchmark (%s mode, -O2; bars: median wall-clock, diamonds: "
                 "callgrind instructions)" % res["mode"], fontsize=12)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return None


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    od = config.out_dir(mode)
    res = collect(mode)
    runlib.save_json(os.path.join(od, "results.json"), res)
    md = markdown(res)
    note = chart(res, os.path.join(od, "chart.png"))
    if note:
        md += "\n" + note + "\n"
    else:
        md += "\n![overhead and speedup](chart.png)\n"
    with open(os.path.join(od, "report.md"), "w") as f:
        f.write(md)
    print(md)
    print("bench: wrote %s/{results.json,report.md%s}" % (od, "" if note else ",chart.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/bin/bash
# use-dump-summary.sh: how well a use build found its profile.
#
#   scripts/use-dump-summary.sh PROFDATA DUMP [DETAILS]
#
# PROFDATA is the indexed profile the use build read; DUMP the file its
# compilations appended to with -fplugin-arg-latepgo-dump=DUMP (a
# function's "function NAME ..." line, then its "  profile match",
# "  profile mismatch" or "  profile missing" line).  A function
# compiled more than once (a source built for a static and a shared
# library, an inline function in several files) counts once: stale if
# any compilation found its record stale, else matched if one matched.
#
# Prints one line of counts:
#   profile=N trained=T matched=M stale=S unused=U missing=X missing_files=F
# profile    functions in PROFDATA
# trained    those with a non-zero counter
# matched    profile functions whose record a compilation used
# stale      profile functions whose record no longer fits (mismatch)
# unused     profile functions no compilation asked for
# missing    functions compiled but absent from the profile (never run
#            in training: their module never wrote a profile)
# missing_files  the files ("FILE:" of static functions) those are in,
#            counting every non-static function as one more file
# DETAILS, if given, gets the names behind stale, unused and missing.
#
# Exit status: 0 when every profile function matched (stale = unused =
# 0 and matched = profile > 0), 1 otherwise, 2 on a usage or tool error.
# The profile tool is $LATEPGO_PROFDATA, else latepgo-profdata next to
# this script's tree (contrib/), else on PATH.

set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 PROFDATA DUMP [DETAILS]" >&2
  exit 2
fi
profdata=$1 dump=$2 details=${3:-/dev/null}

tool=${LATEPGO_PROFDATA:-$(dirname "$0")/../contrib/latepgo-profdata}
[ -x "$tool" ] || tool=latepgo-profdata
[ -f "$dump" ] || { echo "$0: no dump file $dump" >&2; exit 2; }

show=$("$tool" show --all-functions --counts "$profdata") \
  || { echo "$0: $tool cannot read $profdata" >&2; exit 2; }

# The profile as "NAME<TAB>SUM-OF-COUNTERS" lines, then a "--" line,
# then the dump; one awk pass joins them.
{
  printf '%s\n' "$show" | awk '
    /^  [^ ].*:$/ { name = substr($0, 3, length($0) - 3); sum[name] += 0; next }
    /^    Block counts:/ || /^    Function count:/ {
      line = $0; sub(/^[^:]*:/, "", line); gsub(/[][,]/, " ", line)
      n = split(line, c, " ")
      for (i = 1; i <= n; i++) sum[name] += c[i]
    }
    END { for (f in sum) printf "%s\t%s\n", f, sum[f] }'
  echo --
  cat "$dump"
} | awk -v details="$details" '
  BEGIN { FS = "\t"; in_dump = 0 }
  !in_dump && $0 == "--" { in_dump = 1; FS = " "; next }
  !in_dump { prof[$1] = $2; next }
  /^function / { fn = $2; seen[fn] = 1; next }
  /^  profile mismatch/ { st[fn] = "stale"; next }
  /^  profile match/ { if (st[fn] != "stale") st[fn] = "matched"; next }
  /^  profile missing/ { if (!(fn in st)) st[fn] = "missing"; next }
  END {
    for (f in prof) {
      np++
      if (prof[f] > 0) trained++
      if (!(f in seen)) { unused++; print "unused " f > details }
      else if (st[f] == "stale") { stale++; print "stale " f > details }
      else if (st[f] == "matched") matched++
      else { unused++; print "unused " f " (compiled, no match)" > details }
    }
    for (f in seen) {
      if (f in prof) continue
      missing++
      print "missing " f > details
      file = (index(f, ":") ? substr(f, 1, index(f, ":") - 1) : f)
      if (!(file in files)) { files[file] = 1; nfiles++ }
    }
    printf "profile=%d trained=%d matched=%d stale=%d unused=%d missing=%d missing_files=%d\n",
      np, trained, matched, stale, unused, missing, nfiles
    exit (np > 0 && matched == np && !stale && !unused) ? 0 : 1
  }'

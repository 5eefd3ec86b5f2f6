#!/bin/bash
# use-dump-summary.sh: how well a use build found its profile.
#
#   scripts/use-dump-summary.sh PROFDATA DUMP [DETAILS]
#
# PROFDATA is the indexed profile the use build read; DUMP the file its
# compilations appended to with -fplugin-arg-latepgo-dump=DUMP (a
# function's "function NAME ..." line, then its "  profile match",
# "  profile mismatch" or "  profile missing" line).  Functions are
# told apart by name and checksum, and one compiled more than once (a
# source built for a static and a shared library, an inline function
# in several files) counts once.
#
# Prints one line of counts:
#   profile=N trained=T matched=M stale=S unused=U missing=X missing_files=F
# profile    functions in PROFDATA
# trained    those with a non-zero counter
# matched    profile functions whose record a compilation used
# stale      profile functions whose name was compiled, but never with
#            their checksum (the function changed since training)
# unused     profile functions whose name no compilation had
# missing    functions compiled but absent from the profile (never run
#            in training: their module never wrote a profile), including
#            those that share a name with a profile function (another
#            program's main)
# missing_files  the files ("FILE:" of static functions) those are in,
#            counting every non-static function as one more file
# DETAILS, if given, gets the names behind stale, unused and missing.
#
# Exit status: 0 when every profile function matched (stale = unused =
# 0 and matched = profile > 0), 1 otherwise, 2 on a usage or tool error.
# The profile tool is $LATEPGO_PROFDATA, else latepgo-profdata next to
# this script's tree (contrib/profdata/), else on PATH.

set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 PROFDATA DUMP [DETAILS]" >&2
  exit 2
fi
profdata=$1 dump=$2 details=${3:-/dev/null}

tool=${LATEPGO_PROFDATA:-$(dirname "$0")/../contrib/profdata/latepgo-profdata}
[ -x "$tool" ] || tool=latepgo-profdata
[ -f "$dump" ] || { echo "$0: no dump file $dump" >&2; exit 2; }
: > "$details" || exit 2

show=$("$tool" show --all-functions --counts "$profdata") \
  || { echo "$0: $tool cannot read $profdata" >&2; exit 2; }

# The profile as "NAME<TAB>HASH<TAB>SUM-OF-COUNTERS" lines, then a "--"
# line, then the dump; one awk pass joins them.  A function is its name
# and its checksum (the profile's "Hash", the dump's "checksum="), hex
# digits without leading zeros: programs built from one source package
# may each have a main.
{
  printf '%s\n' "$show" | awk '
    /^  [^ ].*:$/ { name = substr($0, 3, length($0) - 3); next }
    /^    Hash: / {
      h = tolower($2); sub(/^0x0*/, "", h); key = name "\t" h; sum[key] += 0; next }
    /^    Block counts:/ || /^    Function count:/ {
      line = $0; sub(/^[^:]*:/, "", line); gsub(/[][,]/, " ", line)
      n = split(line, c, " ")
      for (i = 1; i <= n; i++) sum[key] += c[i]
    }
    END { for (k in sum) printf "%s\t%s\n", k, sum[k] }'
  echo --
  cat "$dump"
} | awk -v details="$details" '
  BEGIN { FS = "\t"; in_dump = 0 }
  !in_dump && $0 == "--" { in_dump = 1; FS = " "; next }
  !in_dump { prof[$1 "\t" $2] = $3; pname[$1] = 1; next }
  /^function / {
    h = $0; sub(/.* checksum=0x0*/, "", h); sub(/ .*/, "", h)
    key = $2 "\t" tolower(h); seen[key] = 1; seen_name[$2] = 1; next }
  /^  profile match/ { matched_key[key] = 1; next }
  END {
    for (k in prof) {
      np++
      if (prof[k] > 0) trained++
      split(k, f, "\t")
      if (k in matched_key) matched++
      else if (f[1] in seen_name) { stale++; print "stale " f[1] > details }
      else { unused++; print "unused " f[1] > details }
    }
    for (k in seen) {
      if (k in prof) continue
      split(k, f, "\t")
      missing++
      print "missing " f[1] > details
      file = (index(f[1], ":") ? substr(f[1], 1, index(f[1], ":") - 1) : f[1])
      if (!(file in files)) { files[file] = 1; nfiles++ }
    }
    printf "profile=%d trained=%d matched=%d stale=%d unused=%d missing=%d missing_files=%d\n",
      np, trained, matched, stale, unused, missing, nfiles
    exit (np > 0 && matched == np && !stale && !unused) ? 0 : 1
  }'

#!/bin/sh
# gen-specs.sh: make a GCC specs file from a specs/*.specs.in template.
#
#   scripts/gen-specs.sh TEMPLATE OUTPUT PLUGIN RUNTIME [TEMPLATE...]
#
# Further templates are appended to the first, in order
# (latepgo-generate-dir.specs is its own template followed by
# latepgo-generate.specs's).
# PLUGIN (latepgo.so) and RUNTIME (the runtime archive) must be absolute
# paths: the specs file is used from any directory.  They are written
# into spec text unquoted, so characters that mean something there
# (white space, % # { } ; | \ and &) are refused.

set -e

if [ $# -lt 4 ]; then
  echo "usage: $0 TEMPLATE OUTPUT PLUGIN RUNTIME [TEMPLATE...]" >&2
  exit 2
fi

template=$1 output=$2 plugin=$3 runtime=$4
shift 4

for path in "$plugin" "$runtime"; do
  case $path in
    /*) ;;
    *) echo "latepgo: specs: '$path' is not an absolute path" >&2; exit 1 ;;
  esac
  case $path in
    *[[:space:]%#{}\;\|\\\&]*)
      echo "latepgo: specs: '$path' contains a character that specs files cannot hold (white space % # { } ; | \\ &)" >&2
      exit 1 ;;
  esac
done

sed -e "s|@LATEPGO_PLUGIN@|$plugin|g" \
    -e "s|@LATEPGO_RUNTIME@|$runtime|g" \
    "$template" "$@" > "$output.tmp"
mv "$output.tmp" "$output"

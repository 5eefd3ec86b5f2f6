#!/bin/sh
# help-to-man.sh: a man page made from --help texts, so that the man
# pages and the programs' own help come from one table (the usage text
# in the program, the plugin's argument table in plugin/arguments.cc).
#
#   scripts/help-to-man.sh NAME SECTION VERSION DATE SUMMARY < TEXT > PAGE
#
# TEXT is help output, in parts: a line "@@ TITLE" starts a section
# named TITLE (upper case: a section, .SH; else a subsection, .SS).
# Before the first @@ line, the "Usage: ..." lines (and the lines
# indented under them) make the SYNOPSIS, the rest the DESCRIPTION.
# A part whose title ends in " (options)" holds one option per line
# ("  -fplugin-arg-latepgo-KEY  what it does", the plugin's help) and
# becomes a tagged list; every other part is kept as it is laid out
# (.nf), as the program prints it.  DATE is a fixed date (YYYY-MM-DD)
# so that the page is the same in every build.

set -eu
[ $# = 5 ] || { echo "usage: $0 NAME SECTION VERSION DATE SUMMARY" >&2; exit 2; }
name=$1 section=$2 version=$3 date=$4 summary=$5

upper=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
printf '.\\" Made by scripts/help-to-man.sh from the --help text; do not edit.\n'
printf '.TH "%s" "%s" "%s" "latepgo %s" "latepgo"\n' "$upper" "$section" "$date" "$version"
printf '.SH NAME\n%s \\- %s\n' "$name" "$summary"

awk '
# Text as troff reads it: backslashes doubled, a line starting with a
# dot or quote protected, dashes of options as minus signs.
function esc(s) {
  gsub(/\\/, "\\e", s)
  gsub(/-/, "\\-", s)
  if (s ~ /^[.'"'"']/) s = "\\&" s
  return s
}
function close_block() { if (verb) { print ".fi"; verb = 0 } }
function open_block() { if (!verb) { print ".nf"; verb = 1 } }
BEGIN { state = "head"; verb = 0 }
/^@@ / {
  close_block()
  title = substr($0, 4)
  opts = (title ~ / \(options\)$/)
  sub(/ \(options\)$/, "", title)
  if (title ~ /^[A-Z ]+$/) print ".SH " title; else print ".SS " title
  state = "part"
  next
}
state == "head" && /^(Usage|usage):/ {
  print ".SH SYNOPSIS"; open_block(); sub(/^(Usage|usage): */, ""); print esc($0)
  state = "usage"; next
}
state == "usage" && /^ +/ { l = $0; sub(/^ +/, "", l); print esc(l); next }
state == "usage" || state == "head" {
  close_block(); print ".SH DESCRIPTION"; state = "body"
}
opts && /^ *-/ {
  close_block()
  line = $0; sub(/^ +/, "", line)
  key = line; sub(/ .*/, "", key)
  text = line; sub(/^[^ ]+ +/, "", text)
  print ".TP"; print "\\fB" esc(key) "\\fR"; if (text != line) print esc(text)
  next
}
opts { close_block(); if ($0 == "") print ".PP"; else print esc($0); next }
{ open_block(); print esc($0) }
END { close_block() }
'

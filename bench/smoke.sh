#!/bin/bash
# smoke.sh: the whole benchmark pipeline at tiny sizes, one round, then
# the checks of check.py; exits non-zero if one fails (for the test
# suite; about a minute).  Runs the zlib workloads only unless
# BENCH_WORKLOADS says otherwise (SQLite needs the npm registry and a few
# minutes of compiling).  Output in out/smoke/.
exec bash "$(dirname "$0")/run.sh" smoke

# Sourced by bin/jumpgate, bin/bench, bin/test and bin/chaos: the build logic they share.
#
#   wants_help ARG...       true when an argument is --help or -h
#   print_usage SCRIPT      the comment block at the top of SCRIPT (line 2 up to `set -euo`),
#                           without its leading '# ': every script documents itself there
#   run_maven ARG...        Maven in batch mode, without download progress
#   jar_is_stale JAR        true when JAR is missing or older than any file under a src/
#                           directory or any pom.xml (build folders, .git and bench results aside)
#   build_jar CALLER JAR MODULE [BUILD_FOLDER]
#                           when JAR is stale: packages MODULE and what it needs (tests and the
#                           format check skipped) into BUILD_FOLDER (default target), quietly,
#                           offline first (fast when the local repository has everything), then
#                           online (a fresh machine); on failure prints Maven's output and returns 1
#
# Nothing here installs or builds when it is only sourced. Paths are the caller's (relative to its
# working directory, which is left alone); the build runs from the project root.

jumpgate_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

wants_help() {
  local arg
  for arg in "$@"; do
    [[ "$arg" == --help || "$arg" == -h ]] && return 0
  done
  return 1
}

print_usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$1"
}

run_maven() {
  mvn -B -ntp "$@"
}

jar_is_stale() {
  local jar="$1" newer
  [[ ! -f "$jar" ]] && return 0
  newer="$(find "$jumpgate_root" \( -name .git -o -name 'target*' \
    -o -path "$jumpgate_root/bench/results" \) -prune -o \
    -type f \( -path '*/src/*' -o -name pom.xml \) -newer "$jar" -print -quit)"
  [[ -n "$newer" ]]
}

build_jar() {
  local caller="$1" jar="$2" module="$3" folder="${4:-target}" output
  jar_is_stale "$jar" || return 0
  echo "$caller: building $jar" >&2
  local build=(run_maven -q -pl "$module" -am package -DskipTests -Dfmt.skip=true
    "-Dbuild.folder=$folder")
  if ! output="$(cd "$jumpgate_root" && "${build[@]}" -o 2>&1)" &&
    ! output="$(cd "$jumpgate_root" && "${build[@]}" 2>&1)"; then
    printf '%s\n' "$output" >&2
    echo "$caller: building $jar failed (output above)" >&2
    return 1
  fi
}

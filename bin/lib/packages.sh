# Sourced by bin/test, bin/jumpgate, bin/bench and bin/chaos: makes sure the Debian packages a script
# needs are there. The one list of what the project needs from the OS, as PACKAGE=COMMAND pairs:
#
#   servers_packages   etcd and redis-server (the demo, the tests, the bench, the chaos suite;
#                      Sentinel is redis-server started with --sentinel)
#   build_packages     a JDK 17 and Maven
#
#   require_packages CALLER PACKAGE=COMMAND...
#
# A package is missing when its COMMAND (a name looked up on PATH, or a path) cannot be run. As
# root, the missing packages are installed with apt-get; otherwise the install command is printed
# and the function returns 1 (callers write `require_packages ... || exit 1`).
servers_packages=(
  etcd-server="${JUMPGATE_ETCD_BIN:-etcd}"
  etcd-client=etcdctl
  redis-server="${JUMPGATE_REDIS_BIN:-redis-server}"
)
build_packages=(maven=mvn openjdk-17-jdk-headless=javac)

require_packages() {
  local caller="$1" pair missing=()
  shift
  for pair in "$@"; do
    command -v "${pair#*=}" >/dev/null 2>&1 || missing+=("${pair%%=*}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0

  if [ "$(id -u)" -ne 0 ]; then
    echo "$caller: missing packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    return 1
  fi
  echo "$caller: installing ${missing[*]}"
  apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

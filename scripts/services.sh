#!/usr/bin/env bash
# System packages and servers the tests need: Debian's Chromium (browser tests) and a
# PostgreSQL 15 server (the store's second database). Idempotent; needs root for apt-get.
#   scripts/services.sh install   # apt-get install chromium postgresql when missing
#   scripts/services.sh start     # start PostgreSQL, create user and database tablero_test
set -euo pipefail

PG_VERSION="${PG_VERSION:-15}"
PG_PORT="${PG_PORT:-5432}"

need_root() {
  if [ "$(id -u)" != 0 ]; then
    echo "services.sh: not root; install by hand: apt-get install -y chromium postgresql" >&2
    return 1
  fi
}

install() {
  local missing=()
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  [ -x "/usr/lib/postgresql/${PG_VERSION}/bin/postgres" ] || missing+=(postgresql)
  if [ "${#missing[@]}" -eq 0 ]; then
    return 0
  fi
  need_root || return 0
  echo "services.sh: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
}

start() {
  [ -x "/usr/lib/postgresql/${PG_VERSION}/bin/postgres" ] || { echo "services.sh: no PostgreSQL" >&2; return 0; }
  need_root || return 0
  if ! pg_lsclusters -h 2>/dev/null | grep -q "^${PG_VERSION} main"; then
    pg_createcluster "${PG_VERSION}" main >/dev/null
  fi
  if ! pg_lsclusters -h | grep -q "^${PG_VERSION} main .* online"; then
    pg_ctlcluster "${PG_VERSION}" main start
  fi
  for _ in $(seq 1 50); do
    su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1 && break
    sleep 0.2
  done
  su postgres -c "psql -qtAc \"select 1 from pg_roles where rolname='tablero'\"" | grep -q 1 ||
    su postgres -c "psql -qc \"CREATE USER tablero PASSWORD 'tablero' CREATEDB;\""
  for db in tablero_test tablero_bench; do
    su postgres -c "psql -qtAc \"select 1 from pg_database where datname='${db}'\"" | grep -q 1 ||
      su postgres -c "createdb -O tablero ${db}"
  done
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  *) echo "usage: $0 install|start" >&2; exit 2 ;;
esac

# Sourced through BASH_ENV by every bash a test line starts, and by the runner stubs
# (test/helpers/bash-stubs.sh). Plain bash, no external programs.
#
# A record is NUL-separated fields, appended to $PG_STUB_LOG with one write:
#   R, program, PG_VIA, id, not-found (0/1), argument count, arguments…
# id is pid.n (n: the length of PG_VIA, so records of one exec chain differ); PG_VIA lists the ids
# of the recorded programs a process runs under, and is exported to whatever it runs next.

__pg_log() {
  local name=$1
  shift
  printf '%s\0' R "$name" "${PG_VIA-}" "$BASHPID.${#PG_VIA}" "${__pg_nf:-0}" "$#" "$@" >> "$PG_STUB_LOG"
  export PG_VIA="${PG_VIA:+$PG_VIA,}$BASHPID.${#PG_VIA}"
}

# bash calls this for a command it cannot find (BASH_ENV makes every bash of a line define it).
command_not_found_handle() {
  local __pg_nf=1
  __pg_log "$@"
  printf 'bash: %s: command not found\n' "$1" >&2
  return 127
}

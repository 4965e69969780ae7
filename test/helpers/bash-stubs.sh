# Sourced by the stubs of runners (sudo, su, script, watch, ssh, find, …) and, through BASH_ENV,
# by every bash a test line starts. Plain bash, no external programs.
#
# A record is NUL-separated fields, appended to $PG_STUB_LOG with one write:
#   R, program, PG_VIA, id, not-found (0/1), argument count, arguments…
# id is pid.n (n: the length of PG_VIA, so records of one exec chain differ); PG_VIA lists the ids
# of the recorded programs a process runs under, and is exported to whatever it runs next.
# Set by the generated header: __pg_real_<name> (absolute paths of real programs).

__pg_log() {
  local name=$1
  shift
  printf '%s\0' R "$name" "${PG_VIA-}" "$BASHPID.${#PG_VIA}" "${__pg_nf:-0}" "$#" "$@" >> "$PG_STUB_LOG"
  export PG_VIA="${PG_VIA:+$PG_VIA,}$BASHPID.${#PG_VIA}"
}

__pg_missing() { [[ $1 != */* ]] && ! type -P -- "$1" > /dev/null; }

# Runs "$@" as execvp would; a program not on PATH is recorded as not found.
__pg_exec() {
  if __pg_missing "$1"; then __pg_nf=1 __pg_log "$@"; exit 127; fi
  exec -- "$@"
}
__pg_run() {
  if __pg_missing "$1"; then (__pg_nf=1 __pg_log "$@"); return 127; fi
  "$@"
}

# The stub of runner $1 (called with its arguments): runs what the real one would run.
__pg_stub() {
  local name=$1 cmd has sh x
  shift
  __pg_log "$name" "$@"
  case $name in
    sudo|doas)
      sh=''
      while (($#)); do
        case $1 in
          --) shift; break ;;
          -u|-g|-C|-h|-p|-D|-r|-t|-U|-T|--user|--group|--chdir|--prompt|--host|--role|--type|--other-user|--close-from) shift 2 ;;
          -s|-i|--shell|--login) sh=1; shift ;;
          --*=*|-?*) shift ;;
          *) break ;;
        esac
      done
      while [[ $1 == [A-Za-z_]*=* ]]; do export "$1"; shift; done
      if [[ -n $sh ]]; then
        if (($#)); then __pg_exec bash -c "$*"; fi
        __pg_exec bash
      fi
      (($#)) || exit 0
      __pg_exec "$@" ;;
    setsid|chronic|unbuffer)
      while (($#)); do case $1 in --) shift; break ;; -?*) shift ;; *) break ;; esac; done
      (($#)) || exit 0
      __pg_exec "$@" ;;
    unshare)
      while (($#)); do
        case $1 in
          --) shift; break ;;
          -S|-G|-R|-w|--setuid|--setgid|--root|--wd|--propagation|--map-user|--map-group|--map-users|--map-groups|--kill-child|--monotonic|--boottime) shift 2 ;;
          -?*) shift ;;
          *) break ;;
        esac
      done
      (($#)) || __pg_exec bash
      __pg_exec "$@" ;;
    su)
      has=''
      while (($#)); do
        case $1 in
          -c|-[!-]*c|--command|--session-command) cmd=$2; has=1; shift 2 ;;
          --command=*|--session-command=*) cmd=${1#*=}; has=1; shift ;;
          -s|--shell|-g|--group|-G|--supp-group|-w|--whitelist-environment) shift 2 ;;
          *) shift ;;
        esac
      done
      if [[ -n $has ]]; then __pg_exec bash -c "$cmd"; fi
      __pg_exec bash ;;
    script)
      has=''
      while (($#)); do
        case $1 in
          -c|-[!-]*c|--command) cmd=$2; has=1; shift 2 ;;
          --command=*) cmd=${1#*=}; has=1; shift ;;
          -E|--echo|-o|--output-limit|-T|--log-timing|-I|--log-in|-O|--log-out|-B|--log-io|-m|--logging-format) shift 2 ;;
          *) shift ;;
        esac
      done
      if [[ -n $has ]]; then __pg_exec sh -c "$cmd"; fi
      __pg_exec sh ;;
    watch)
      x=''
      while (($#)); do
        case $1 in
          --) shift; break ;;
          -n|--interval|-q|--equexit) shift 2 ;;
          -x|--exec) x=1; shift ;;
          --*=*|-?*) shift ;;
          *) break ;;
        esac
      done
      (($#)) || exit 0
      if [[ -n $x ]]; then __pg_exec "$@"; fi
      __pg_exec sh -c "$*" ;;
    ssh)
      while (($#)); do
        case $1 in
          --) shift; break ;;
          -b|-c|-D|-E|-e|-F|-I|-i|-J|-L|-l|-m|-O|-o|-p|-Q|-R|-S|-W|-w|-B) shift 2 ;;
          -?*) shift ;;
          *) break ;;
        esac
      done
      (($#)) && shift
      if (($#)); then __pg_exec bash -c "$*"; fi
      __pg_exec bash ;;
    find)
      # Each -exec/-execdir/-ok/-okdir runs once, with {} as `.`.
      while (($#)); do
        case $1 in
          -exec|-execdir|-ok|-okdir)
            shift; cmd=()
            while (($#)); do case $1 in ';'|'+') shift; break ;; *) cmd+=("${1//\{\}/.}"); shift ;; esac; done
            ((${#cmd[@]})) && __pg_run "${cmd[@]}" ;;
          *) shift ;;
        esac
      done
      exit 0 ;;
  esac
  exit "${PG_STUB_STATUS:-0}"
}

# bash calls this for a command it cannot find (BASH_ENV makes every bash of a line define it).
command_not_found_handle() {
  local __pg_nf=1
  __pg_log "$@"
  printf 'bash: %s: command not found\n' "$1" >&2
  return 127
}

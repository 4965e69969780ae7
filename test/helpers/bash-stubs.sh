# Sourced by the stubs of runners (sudo, time, su, script, watch, ssh, find, …), after
# test/helpers/bash-stubs-env.sh. Plain bash, no external programs.

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
          -u|-g|-C|-h|-p|-D|-r|-t|-U|-T|--user|--group|--chdir|--prompt|--host|--role|--type|--other-user|--close-from) shift $(($# > 1 ? 2 : 1)) ;;
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
    time)
      while (($#)); do case $1 in --) shift; break ;; -f|-o|--format|--output) shift $(($# > 1 ? 2 : 1)) ;; -?*) shift ;; *) break ;; esac; done
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
          -S|-G|-R|-w|--setuid|--setgid|--root|--wd|--propagation|--map-user|--map-group|--map-users|--map-groups|--kill-child|--monotonic|--boottime) shift $(($# > 1 ? 2 : 1)) ;;
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
          -c|-[!-]*c|--command|--session-command) cmd=$2; has=1; shift $(($# > 1 ? 2 : 1)) ;;
          --command=*|--session-command=*) cmd=${1#*=}; has=1; shift ;;
          -s|--shell|-g|--group|-G|--supp-group|-w|--whitelist-environment) shift $(($# > 1 ? 2 : 1)) ;;
          *) shift ;;
        esac
      done
      if [[ -n $has ]]; then __pg_exec bash -c "$cmd"; fi
      __pg_exec bash ;;
    script)
      has=''
      while (($#)); do
        case $1 in
          -c|-[!-]*c|--command) cmd=$2; has=1; shift $(($# > 1 ? 2 : 1)) ;;
          --command=*) cmd=${1#*=}; has=1; shift ;;
          -E|--echo|-o|--output-limit|-T|--log-timing|-I|--log-in|-O|--log-out|-B|--log-io|-m|--logging-format) shift $(($# > 1 ? 2 : 1)) ;;
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
          -n|--interval|-q|--equexit) shift $(($# > 1 ? 2 : 1)) ;;
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
          -b|-c|-D|-E|-e|-F|-I|-i|-J|-L|-l|-m|-O|-o|-p|-Q|-R|-S|-W|-w|-B) shift $(($# > 1 ? 2 : 1)) ;;
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

# Runs command lines, each as its own `bash -c LINE`: reads NUL-separated `STATUS:LINE` records on
# stdin; line i runs in $out/cwd/i with its records in $out/i.log, and `i STATUS` is printed when it
# is over. The command substitution returns when every process holding fd 9 (the line's processes
# and everything they started, background jobs included) has exited. The caller enforces the time
# limit by killing the driver's process group.
out=$1; i=$2
unset PG_VIA
while IFS= read -r -d '' rec; do
  cd "$out/cwd/$i" || exit 3
  _=$(PG_STUB_LOG="$out/$i.log" PG_STUB_STATUS="${rec%%:*}" /bin/bash -c "${rec#*:}" 9>&1 < /dev/null > /dev/null 2>&1)
  printf '%d %d\n' "$i" "$?"
  i=$((i + 1))
done
exit 0

#!/bin/sh
# watchdog.sh CMD [ARGS...]: runs CMD so that it never outlives whoever started this script.
# Our stdin is a pipe from the test process: when it closes (the test stops the program, or the
# test process ends in any way, even by SIGKILL) CMD is stopped and waited for; when CMD ends by
# itself, so does this script, with its exit status. CMD's own stdin is /dev/null.
# With WATCHDOG_EXEC set, that is CMD and all arguments are its arguments (for a launcher that
# only lets us choose the program, such as puppeteer's executablePath).
if [ -n "${WATCHDOG_EXEC:-}" ]; then
  set -- "$WATCHDOG_EXEC" "$@"
  unset WATCHDOG_EXEC
fi
exec 4<&0
"$@" 4<&- </dev/null &
pid=$!
(read _ <&4; kill $pid 2>/dev/null) &
watcher=$!
wait $pid
status=$?
kill $watcher 2>/dev/null
exit $status

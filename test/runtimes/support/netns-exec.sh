#!/bin/sh
# The only way the runtime tests start an agent runtime (SPEC §17): in a network namespace that
# holds only loopback (Linux `unshare -n`; root here), one per test file.
#  - `netns-exec.sh --host` makes the namespace and runs netns-relay.mjs in it (its pid names the
#    namespace); the relay carries 127.0.0.1:<port> there to the test's servers on demand.
#  - `netns-exec.sh cmd args…` runs cmd (AGENT_DOUBLES_NETNS_TARGET when set, so this file can
#    stand in for a binary, as Codex's codexPathOverride needs) in the namespace of the host
#    AGENT_DOUBLES_NETNS_PID, once it has checked that the pid is still that host (the start time
#    AGENT_DOUBLES_NETNS_START, field 22 of its /proc stat, so not a reused pid) and that its
#    namespace is not this one: without a host, nothing runs.
# A run pays for this file on every start, so the checks use only the shell's builtins: each
# process started here (a `readlink`, a `dirname`) cost 15-50 ms on this VM.
if [ "$1" = "--host" ]; then
  exec unshare -n sh -c 'ip link set lo up && exec "$0" "$@"' "${AGENT_DOUBLES_NETNS_NODE:-node}" "$(dirname "$0")/netns-relay.mjs"
fi
if [ -n "$AGENT_DOUBLES_NETNS_TARGET" ]; then set -- "$AGENT_DOUBLES_NETNS_TARGET" "$@"; fi
proc=/proc/${AGENT_DOUBLES_NETNS_PID:-0}
# Field 22 of a stat line is the 20th after "pid (comm) ", however comm is spelled.
field22() { shift 19; start=$1; }
start=
{ read -r stat <"$proc/stat"; } 2>/dev/null && field22 ${stat##*) }
if [ -z "$start" ] || [ "$start" != "$AGENT_DOUBLES_NETNS_START" ] || ! [ -e "$proc/ns/net" ] || [ "$proc/ns/net" -ef /proc/self/ns/net ]; then
  echo "netns-exec: no namespace host (AGENT_DOUBLES_NETNS_PID, AGENT_DOUBLES_NETNS_START): $1 is not run outside one" >&2
  exit 2
fi
exec nsenter --net="$proc/ns/net" -- "$@"

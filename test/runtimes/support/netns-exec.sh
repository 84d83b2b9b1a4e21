#!/bin/sh
# The only way the runtime tests start an agent runtime (SPEC §17): in a network namespace that
# holds only loopback (Linux `unshare -n`; root here), one per test file.
#  - `netns-exec.sh --host` makes the namespace and runs netns-relay.mjs in it (its pid names the
#    namespace); the relay carries 127.0.0.1:<port> there to the test's servers on demand.
#  - `netns-exec.sh cmd args…` runs cmd (AGENT_DOUBLES_NETNS_TARGET when set, so this file can
#    stand in for a binary, as Codex's codexPathOverride needs) in the namespace of the host
#    AGENT_DOUBLES_NETNS_PID, once it has checked that the pid still holds namespace
#    AGENT_DOUBLES_NETNS_ID and that it is not this one: without a host, nothing runs.
here=$(dirname "$0")
if [ "$1" = "--host" ]; then
  exec unshare -n sh -c 'ip link set lo up && exec "$0" "$@"' "${AGENT_DOUBLES_NETNS_NODE:-node}" "$here/netns-relay.mjs"
fi
if [ -n "$AGENT_DOUBLES_NETNS_TARGET" ]; then set -- "$AGENT_DOUBLES_NETNS_TARGET" "$@"; fi
ns=$(readlink "/proc/${AGENT_DOUBLES_NETNS_PID:-0}/ns/net" 2>/dev/null)
if [ -z "$ns" ] || [ "$ns" != "$AGENT_DOUBLES_NETNS_ID" ] || [ "$ns" = "$(readlink /proc/self/ns/net)" ]; then
  echo "netns-exec: no namespace host (AGENT_DOUBLES_NETNS_PID, AGENT_DOUBLES_NETNS_ID): $1 is not run outside one" >&2
  exit 2
fi
exec nsenter --net="/proc/$AGENT_DOUBLES_NETNS_PID/ns/net" -- "$@"

#!/bin/sh
# Runs a command in a network namespace of its own that holds only loopback (Linux `unshare -n`;
# root here), with netns-relay.mjs carrying 127.0.0.1:<AGENT_DOUBLES_NETNS_PORT> to the test's
# FakeProxy. The command is AGENT_DOUBLES_NETNS_TARGET when set (so this file can stand in for a
# binary, as Codex's codexPathOverride needs), else the first argument.
here=$(dirname "$0")
if [ -n "$AGENT_DOUBLES_NETNS_TARGET" ]; then set -- "$AGENT_DOUBLES_NETNS_TARGET" "$@"; fi
exec unshare -n sh -c 'ip link set lo up && exec "$0" "$@"' "${AGENT_DOUBLES_NETNS_NODE:-node}" "$here/netns-relay.mjs" "$@"

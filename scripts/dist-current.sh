# Sourced by the test and bench scripts: whether dist/ is up to date with the sources, so a run from a built
# checkout need not build again.

# What the build writes; tsup empties dist/ first, so an interrupted build lacks some of them.
built=(dist/index.js dist/index.cjs dist/index.d.ts dist/index.d.cts dist/cli.js dist/in-process.js dist/matchers/index.cjs
  dist/jest/index.cjs dist/jest/setup.cjs dist/jest/globals.cjs dist/vitest/index.js dist/vitest/setup.js)

# dist/ is up to date when every output exists and no source, nor the build's configuration, is
# newer than the oldest of them.
dist_is_current() {
  local oldest=${built[0]} file
  for file in "${built[@]}"; do
    [ -f "$file" ] || return 1
    [ "$file" -ot "$oldest" ] && oldest=$file
  done
  [ -z "$(find src matchers fixtures tsup.config.ts tsconfig.json package.json package-lock.json -newer "$oldest" -print -quit)" ]
}

# Builds dist/ unless it is current, saying so in the name of `$1` (the script that needs it).
build_dist_unless_current() {
  dist_is_current && return 0
  echo "$1: building dist/ first (it is missing or older than src/)…"
  npm run -s build -- --silent
}

// Which test files run where: shared by the Node 20 configs (vitest.config.ts, vitest.slow.config.ts)
// and the Node 24 leg (test/matrix/node24/vitest.config.ts), which loads no root module but this one.

/**
 * Files that spawn child test runs or CLIs, or push thousands of requests: the whole matrix
 * (`npm run test:all`) runs them through vitest.slow.config.ts; the quick loop (`npm test`) leaves
 * them out.
 */
export const slowTests = [
  'test/authoring/record-replay.test.ts',
  'test/authoring/failure-context.test.ts',
  'test/authoring/snapshot-stability.test.ts',
  'test/proxy/hostile/fuzz.test.ts',
  'test/proxy/stream-resources.test.ts',
  'test/agent/memory.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/mcp.test.ts',
  'test/cli/commands.test.ts',
  'test/cli/parent.test.ts',
  'test/proxy/hostile/findings.test.ts',
  // SPEC §24: ~2,200 fuzz bodies; six bodies of 16–31 MiB measured in two children, and 14 of many small items refused in
  // two more (big-bodies: 130 s at load 11, of which the refusals 50–60 s); a CLI from the sources.
  'test/hostile/fuzz.test.ts',
  'test/hostile/big-bodies.test.ts',
  'test/cli/request-timeout.test.ts',
  // Agent runtimes run for real (SPEC §17): each run starts a CLI or binary.
  'test/runtimes/*.test.ts',
  'test/chaos/determinism.test.ts',
  'test/chaos/failure-seed.test.ts',
  'test/chaos/run-seed.test.ts',
  // SPEC §21: a copy of src/ with a toy provider added by one line, run in a child.
  'test/wire/one-line-provider.test.ts',
]

/**
 * Files the quick loop leaves out for its time alone (`npm test` ≤ 90 s on 2 cores): each starts a
 * child process (a proxy alone, a CLI, a small heap, `--expose-gc`), bundles the package with
 * esbuild or loads it in an edge runtime, or pushes load and large bodies through the server (200
 * concurrent tests' lanes). Together they were over a third of the quick loop's Vitest step.
 * Unlike {@link slowTests} they still run in the Node 24 leg (their children start on that leg's
 * Node, where undici and the HTTP server differ); in the Node 20 leg of `npm run test:all` they
 * run in vitest.slow.config.ts's `heavy` project, with the quick loop's settings (worker threads,
 * one shared module graph).
 */
export const heavyTests = [
  'test/websocket/hostile.test.ts',
  'test/proxy/back-pressure.test.ts',
  'test/proxy/concurrency.test.ts',
  'test/lanes/concurrent.test.ts',
  'test/proxy/schema-bomb.test.ts',
  'test/hostile/stdio-mcp.test.ts',
  'test/hostile/own-dispatcher.test.ts',
  'test/routing/undici-dispatcher.test.ts',
  'test/llm/transcript-memory.test.ts',
  'test/edge/edge-runtime.test.ts',
  'test/edge/edge-environment.test.ts',
  'test/internal/browser-safe.test.ts',
]

/**
 * Files that need a fresh module graph each: they check what the registry, the setup entry or the
 * network guard hold when the file starts, or override the fixtures at the top level (which
 * replaces the imported `test`'s fixtures for every later file of the worker), so another
 * file's leftovers in a shared worker would change their answer. The other fixture files
 * (environment, idle root, `test.extend` options) share the graph, as a user's suite with
 * `isolate: false` would.
 */
export const isolatedTests = [
  'test/fixtures/vitest-auto-scope.test.ts',
  'test/fixtures/vitest-concurrent.test.ts',
  'test/fixtures/vitest-extend.test.ts',
  'test/fixtures/vitest-fake-mcp.test.ts',
  'test/fixtures/vitest-fixtures.test.ts',
  'test/fixtures/vitest-override.test.ts',
  'test/fixtures/vitest-setup-and-fixtures.test.ts',
  'test/fixtures/vitest-setup.test.ts',
  'test/guard/vitest-*.test.ts',
  'test/tokens/tokenizer-fallback.test.ts',
]

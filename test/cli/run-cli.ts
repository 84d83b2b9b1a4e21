/** Running the CLI from its sources in a child process, for the CLI tests. */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

/** The CLI's entry in the sources (run through tsx). */
export const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
const exec = promisify(execFile)

/** Runs the command to its end from a child process: its exit code and output. */
export async function runCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', cli, ...args])
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

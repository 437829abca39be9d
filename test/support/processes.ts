/** Running the project's own commands from a test, as a user would at the project's root. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` at the project's root (or in `cwd`) with `env` added, collecting what it prints. */
export function runCommand(command: string, args: string[], env: Record<string, string>, cwd = PROJECT_ROOT): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

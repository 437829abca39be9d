/**
 * Keeping the local SQS server's queues and messages (in-flight ones included) in a JSON
 * file between runs: loaded at start, saved a moment after each change (one save at a time,
 * so an older snapshot never overwrites a newer one), and once more on close.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { QueueEngine, QueueSnapshot } from './engine.js';

const SAVE_DEBOUNCE_MS = 250;

interface PersistedState {
  version: 1;
  queues: QueueSnapshot[];
}

/** The queues a data file holds; none when it does not exist. An unreadable file is moved aside and the server starts empty. */
export async function loadState(file: string): Promise<QueueSnapshot[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const state = JSON.parse(text) as PersistedState;
    if (state.version !== 1 || !Array.isArray(state.queues)) throw new Error('unknown format');
    return state.queues;
  } catch (error) {
    // Kept for inspection rather than overwritten on the next save.
    const aside = `${file}.unreadable-${Date.now()}`;
    await rename(file, aside);
    console.warn(`[sqs-server] ${file} could not be read (${(error as Error).message}); moved it to ${aside} and started empty.`);
    return [];
  }
}

async function saveState(file: string, queues: QueueSnapshot[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // Write then rename, so a crash mid-write never leaves a truncated file behind.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ version: 1, queues } satisfies PersistedState));
  await rename(temporary, file);
}

/** Saves the engine's state to `file` shortly after each change; `flush` saves now and waits. */
export function persistTo(file: string, engine: QueueEngine): { flush(): Promise<void>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let saving: Promise<void> = Promise.resolve();
  let stopped = false;
  const flush = (): Promise<void> => {
    const next = saving.catch(() => undefined).then(() => saveState(file, engine.snapshot()));
    saving = next;
    return next;
  };
  engine.onAnyChange(() => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush().catch((error: unknown) => console.error('[sqs-server] could not save queue data:', error));
    }, SAVE_DEBOUNCE_MS);
  });
  return {
    flush,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

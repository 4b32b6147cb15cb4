import type { FormatModule } from './row-sink.js';

interface FormatEntry {
  /** Loaded when used: a binary format's library stays out of every other run. */
  load(): Promise<FormatModule>;
  binary: boolean;
  extension: string;
}

export const FORMATS = {
  csv: { load: () => import('./csv.js'), binary: false, extension: '.csv' },
  json: { load: async () => (await import('./json.js')).json, binary: false, extension: '.json' },
  ndjson: { load: async () => (await import('./json.js')).ndjson, binary: false, extension: '.ndjson' },
  xlsx: { load: () => import('./xlsx.js'), binary: true, extension: '.xlsx' },
} as const satisfies Record<string, FormatEntry>;

export type OutputFormat = keyof typeof FORMATS;
export const OUTPUT_FORMATS = Object.keys(FORMATS) as OutputFormat[];

export function formatOfPath(path: string): OutputFormat | undefined {
  const lower = path.toLowerCase();
  return OUTPUT_FORMATS.find((name) => lower.endsWith(FORMATS[name].extension));
}

/** What --encoding accepts. `latin1` is read as Windows-1252, its superset, as browsers do. */
export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'latin1'] as const;
export type InputEncoding = (typeof ENCODINGS)[number];

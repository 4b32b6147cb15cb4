// Kept in step with package.json by test/version.test.ts; a constant keeps `--version` free of file reads.
export const VERSION = '0.1.0';

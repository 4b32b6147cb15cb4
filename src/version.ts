// Kept in step with package.json by a test, so the user agent and the help need no file read.
export const VERSION = '0.1.0';

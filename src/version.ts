// Kept in step with package.json by a test: the user agent and the help read it with no file read (bin/mailclean.js
// answers a lone --version from package.json itself).
export const VERSION = '0.1.0';

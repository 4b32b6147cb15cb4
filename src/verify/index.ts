// The validation engine's entry for the rest of mailclean (docs/verify.md): the engine and the parser of
// --dns-server. The syntax check alone (what the prefilter and the sandbox need) is syntax.ts, so a clean with
// the service does not load the engine.

export { parseDnsServers } from './dns-servers.js';
export { Engine, type EngineReason, type EngineStatus, type EngineVerdict } from './engine.js';
export { checkSyntax, dedupeKey, type SyntaxResult } from './syntax.js';

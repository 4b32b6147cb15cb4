// The validation engine's only entry for the rest of mailclean (docs/verify.md): the engine, the syntax check
// the prefilter and the sandbox share, and the parser of --dns-server.

export { parseDnsServers } from './dns.js';
export { Engine, type EngineReason, type EngineStatus, type EngineVerdict } from './engine.js';
export { checkSyntax, dedupeKey, type SyntaxResult } from './syntax.js';

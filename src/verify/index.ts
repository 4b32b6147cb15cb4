// The engine's entry for the rest of mailclean (docs/verify.md); the syntax check alone is syntax.ts, so a clean
// with the service does not load the engine.

export type { DnsOptions } from './dns-check.js';
export { parseDnsServers } from './dns-servers.js';
export { Engine, type EngineOptions, type EngineReason, type EngineStatus, type EngineVerdict } from './engine.js';
export { checkSyntax, dedupeKey, type SyntaxResult } from './syntax.js';

/** The validation engine and its parts; see docs/verify.md. */
export { Engine, type EngineOptions, type EngineReason, type EngineStats, type EngineStatus, type EngineVerdict } from './engine.js';
export { checkSyntax, dedupeKey, type SyntaxOptions, type SyntaxReason, type SyntaxResult } from './syntax.js';
export { FREE_PROVIDERS, ROLE_ACCOUNTS, isDisposableDomain, isFreeProvider, isRoleAccount } from './lists.js';
export { COMMON_DOMAINS, suggestDomain } from './typo.js';
export { DomainResolver, type DnsOptions, type DnsStats, type DomainCheck, type MailHost } from './dns.js';
export { SmtpProber, type SmtpOptions, type SmtpOutcome, type SmtpStats } from './smtp.js';

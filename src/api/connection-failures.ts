// A request that never got an answer, as the user can act on it: the network, a proxy, an untrusted certificate.
import { messageOf, NetworkError } from '../errors.js';
import { redactUrl } from '../redact.js';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'answer stalled',
};

/** Failures before a connection was made: the request never reached a server, so nothing there counted it. */
const NOT_SENT = new Set(
  'ECONNREFUSED ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH UND_ERR_CONNECT_TIMEOUT'.split(' '),
);

/** TLS verdicts on a certificate: what the user can do about each differs from a network failure. */
const TLS_CODES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is signed by an authority this machine does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT: 'its TLS certificate is signed by an authority this machine does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate is signed by an authority this machine does not know',
  CERT_UNTRUSTED: 'its TLS certificate is not trusted',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  CERT_NOT_YET_VALID: 'its TLS certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
};
const UNTRUSTED_HINT =
  "if a proxy or your organisation signs certificates with its own authority, point NODE_EXTRA_CA_CERTS at that authority's PEM file";

/** A certificate does not change between attempts: retrying cannot help. */
export function isCertificateFailure(error: unknown): boolean {
  return codeOf(error, TLS_CODES) !== undefined;
}

/** The connection was refused: the request never reached the server, so repeating it is always safe. */
export function isRefused(error: unknown): boolean {
  return codeOf(error, NETWORK_CODES) === 'ECONNREFUSED';
}

export function connectionFailure(
  error: unknown,
  where: { serviceName: string; host: string; setting?: string; timeoutMs: number; proxies?: string[] },
): NetworkError {
  const tls = codeOf(error, TLS_CODES);
  // A certificate is refused during the handshake, before the request is sent.
  if (tls) {
    const hint =
      tls === 'CERT_HAS_EXPIRED' || tls === 'CERT_NOT_YET_VALID'
        ? "check this machine's clock, or tell the service's operators"
        : tls === 'ERR_TLS_CERT_ALTNAME_INVALID'
          ? 'check the URL: the certificate names another host'
          : UNTRUSTED_HINT;
    return new NetworkError(
      `cannot reach the ${where.serviceName} at ${where.host}: ${TLS_CODES[tls]} (${tls})`,
      hint,
      false,
    );
  }
  const code = codeOf(error, NETWORK_CODES);
  const reached = code === undefined || !NOT_SENT.has(code);
  const name = error instanceof Error ? error.name : '';
  let reason = code ? NETWORK_CODES[code] : undefined;
  if (!reason && (name === 'TimeoutError' || name === 'AbortError'))
    reason = `no answer within ${Math.round(where.timeoutMs / 1000)}s`;
  reason ??= messageOf(error);
  const proxy = where.proxies?.find((p) => failedAt(error) === URL.parse(p)?.host);
  if (proxy) {
    return new NetworkError(
      `cannot reach the proxy ${redactUrl(proxy)} on the way to the ${where.serviceName} at ${where.host}: ${reason}`,
      'check HTTP_PROXY, HTTPS_PROXY and NO_PROXY',
      reached,
    );
  }
  const setting = where.setting ?? 'api-url';
  return new NetworkError(
    `cannot reach the ${where.serviceName} at ${where.host}: ${reason}`,
    `check the URL (\`mailclean config get ${setting}\`) and your connection`,
    reached,
  );
}

/** The error and its causes, outermost first (undici wraps Node's socket errors). */
function* causes(error: unknown): Generator<{ code?: unknown; address?: unknown; port?: unknown }> {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    yield e as { code?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
}

/** The first code among `known` on the error or its causes. */
function codeOf(error: unknown, known: Record<string, string>): string | undefined {
  for (const { code } of causes(error)) if (typeof code === 'string' && code in known) return code;
  return undefined;
}

/** `host:port` a socket failed to reach, as Node's errors name it. */
function failedAt(error: unknown): string | undefined {
  for (const { address, port } of causes(error))
    if (typeof address === 'string' && typeof port === 'number')
      return `${address.includes(':') ? `[${address}]` : address}:${port}`;
  return undefined;
}

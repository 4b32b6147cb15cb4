// What a failed request means for a run: a URL that leads to no cleaning service ends it at once, before the service
// has answered; once it has, the same failure is a passing one. Errors as the HTTP client makes them, from real
// servers on loopback.
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../../src/api/http.js';
import { afterFailure, type FailureContext } from '../../../../src/clean/check/service/refusals.js';
import { useServers } from '../../../helpers/http-server.js';

const serve = useServers();

/** The error the cleaning client's request gets from `baseUrl`. */
async function failureFrom(baseUrl: string): Promise<unknown> {
  const http = new HttpClient({ baseUrl, serviceName: 'cleaning service', setting: 'clean-url', retries: 0 });
  return http
    .request({ method: 'POST', path: '/api/v1/email-verify/validate/clean', body: { email: ['a@example.com'] } })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
}

const answering = (status: number, contentType: string, body: string) =>
  serve((_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  });

const context = (heard: boolean): FailureContext => ({
  aborted: false,
  heard,
  rateRefusals: 0,
  attempts: 1,
  maxAttempts: 8,
  now: Date.now(),
  random: () => 0.5,
});

describe('afterFailure: a clean-url with no cleaning service behind it', () => {
  it('a refused connection: the run stops (no-service) before any answer, and is retried after one', async () => {
    const error = await failureFrom('http://127.0.0.1:1');
    expect(afterFailure(error, context(false))).toMatchObject({
      stop: 'no-service',
      message: expect.stringMatching(/connection refused; nothing was sent \(clean-url: http:\/\/127\.0\.0\.1:1\/\)$/),
      error: { exitCode: 1, hint: expect.stringMatching(/^fix clean-url/) },
    });
    expect(afterFailure(error, context(true))).toMatchObject({ why: 'retry', waitMs: expect.any(Number) });
  });

  it('404, 405 and 501 (any body), and a web page with 200: no-service before any answer', async () => {
    for (const [status, type, body] of [
      [404, 'application/json', '{"message":"Route not found"}'],
      [405, 'text/plain', 'Method Not Allowed'],
      [501, 'text/html', '<html><title>Not Implemented</title></html>'],
      [200, 'text/html', '<!doctype html><title>Welcome</title>'],
    ] as const) {
      const server = await answering(status, type, body);
      const next = afterFailure(await failureFrom(server.url), context(false));
      expect(next, `${status} ${type}`).toMatchObject({
        stop: 'no-service',
        message: expect.stringContaining(`clean-url (${server.url}/) does not lead to a cleaning service`),
      });
    }
  });

  it('a proxy error page (502 in HTML) and a 500 in JSON stay passing failures; a 501 after answers stops the run', async () => {
    const proxyPage = await answering(502, 'text/html', '<html><title>502 Bad Gateway</title></html>');
    expect(afterFailure(await failureFrom(proxyPage.url), context(false))).toMatchObject({ why: 'retry' });
    const busy = await answering(500, 'application/json', '{"message":"Server Error"}');
    expect(afterFailure(await failureFrom(busy.url), context(false))).toMatchObject({ why: 'retry' });
    const notImplemented = await answering(501, 'text/html', '<html><title>Not Implemented</title></html>');
    expect(afterFailure(await failureFrom(notImplemented.url), context(true))).toMatchObject({ stop: 'service' });
  });
});

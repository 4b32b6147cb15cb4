import { describe, expect, it } from 'vitest';
import { describeFailure, fieldErrorsOf, parseBody } from '../../src/api/failure.js';

const describe_ = (body: unknown) => describeFailure(parseBody(JSON.stringify(body)));

describe('describeFailure', () => {
  it('prefers a specific message over the HTTP reason text, wherever each sits', () => {
    // The platform envelope in the order a service sends it: `details` first.
    expect(
      describe_({
        status: false,
        statusCode: 403,
        details: 'Forbidden',
        statusMessage: 'Invalid internal access token.',
        response: null,
      }),
    ).toBe('Invalid internal access token.');
    expect(
      describe_({
        details: 'Unprocessable Entity',
        statusMessage: 'error',
        response: { message: 'The given data was invalid.' },
      }),
    ).toBe('The given data was invalid.');
    expect(describe_({ status: false, result: { error: { message: 'Token expired.' } } })).toBe('Token expired.');
  });

  it('falls back to the reason text, never to an empty word', () => {
    expect(describe_({ details: 'Forbidden', statusMessage: 'error' })).toBe('Forbidden');
    expect(describe_({ statusMessage: 'error', message: 'failed' })).toBe('');
  });

  it('keeps the excerpt of a body that is not JSON', () => {
    expect(describeFailure(parseBody('<html><title>502 Bad Gateway</title></html>', 'text/html'))).toBe(
      'HTML page: "502 Bad Gateway"',
    );
  });
});

describe('fieldErrorsOf', () => {
  it.each([
    ['top level', { errors: { email: ['The email has already been taken.'] } }],
    [
      'response (platform)',
      {
        statusMessage: 'The given data was invalid.',
        response: { errors: { email: ['The email has already been taken.'] } },
      },
    ],
    ['result (cleaning)', { message: 'x', result: { errors: { email: 'The email has already been taken.' } } }],
    ['data', { data: { errors: [{ field: 'email', message: 'The email has already been taken.' }] } }],
  ])('reads errors at %s', (_where, body) => {
    expect(fieldErrorsOf(body)).toEqual({ email: ['The email has already been taken.'] });
  });

  it('finds none in a body without field errors', () => {
    expect(fieldErrorsOf({ response: null, result: [] })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { maskSecret } from '../../src/config/keys.js';

describe('maskSecret', () => {
  it('shows at most the last 4 characters, and none of a token under 16', () => {
    expect(maskSecret('abcdefghi')).toBe('****');
    expect(maskSecret('a'.repeat(15))).toBe('****');
    expect(maskSecret('0123456789abcdef')).toBe('…cdef');
    const long = 'eyJhbGciOiJIUzI1NiJ9.secret-part.signature';
    const shown = maskSecret(long).replace('…', '');
    expect(shown).toHaveLength(4);
    expect(long.endsWith(shown)).toBe(true);
  });
});

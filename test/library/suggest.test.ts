import { describe, expect, it } from 'vitest';
import { suggest } from '../../src/library/index.js';

describe('suggest(address)', () => {
  it('corrects a mistyped domain and keeps the part before the @ as given', () => {
    expect(suggest('Ann.Lee+news@gmial.com')).toBe('Ann.Lee+news@gmail.com');
    expect(suggest('  bob@HOTMAL.COM ')).toBe('bob@hotmail.com');
    expect(suggest('"a@b"@yahoo.con')).toBe('"a@b"@yahoo.com');
    expect(suggest('carla@orage.fr')).toBe('carla@orange.fr');
    expect(suggest('dan@example.con')).toBe('dan@example.com');
  });

  it('gives nothing for a right address, a real look-alike or text that holds no address', () => {
    for (const text of ['ann@gmail.com', 'ann@gmx.com', 'ann@ymail.com', 'ann@mail.de', 'ann@acme-corp.com']) {
      expect(suggest(text), text).toBeUndefined();
    }
    for (const text of ['', 'gmial.com', '@gmial.com', 'ann@', 'ann at gmial.com']) {
      expect(suggest(text), text).toBeUndefined();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/verify/engine.js';

describe('Engine without DNS (syntax and lists only)', () => {
  const engine = new Engine({ dns: { enabled: false } });

  it('calls bad syntax invalid, with the rule broken as detail', async () => {
    expect(await engine.verify('john..doe@example.com')).toEqual({
      status: 'invalid',
      reason: 'syntax',
      valid: false,
      isDisposable: false,
      isValidDomain: null,
      role: false,
      freeProvider: false,
      smtputf8: false,
      detail: 'local_invalid',
    });
    expect(await engine.verify('ann@exa_mple.com')).toMatchObject({
      status: 'invalid',
      reason: 'syntax',
      isValidDomain: false,
      detail: 'label_invalid',
    });
  });

  it('calls a plain address valid without claiming anything about its domain', async () => {
    expect(await engine.verify('ann.lee@example.org')).toEqual({
      status: 'valid',
      reason: '',
      valid: true,
      isDisposable: false,
      isValidDomain: null,
      role: false,
      freeProvider: false,
      smtputf8: false,
    });
  });

  it('flags disposable domains (and their subdomains) as risky', async () => {
    expect(await engine.verify('x@mailinator.com')).toMatchObject({
      status: 'risky',
      reason: 'disposable',
      valid: false,
      isDisposable: true,
    });
    expect(await engine.verify('x@eu.mailinator.com')).toMatchObject({
      status: 'risky',
      reason: 'disposable',
      isDisposable: true,
    });
  });

  it('flags role accounts as risky and free providers as a field', async () => {
    expect(await engine.verify('info@example.org')).toMatchObject({ status: 'risky', reason: 'role', role: true });
    expect(await engine.verify('ann@gmail.com')).toMatchObject({ status: 'valid', freeProvider: true, role: false });
    expect(await engine.verify('support@gmail.com')).toMatchObject({
      status: 'risky',
      reason: 'role',
      freeProvider: true,
    });
  });

  it('calls a mistyped provider a possible typo with the corrected address, never disposable', async () => {
    // gmial.com is on the disposable list (typo-squatted domains take anything), yet the user mistyped gmail.com.
    expect(await engine.verify('ann@gmial.com')).toEqual({
      status: 'risky',
      reason: 'possible_typo',
      valid: false,
      isDisposable: false,
      isValidDomain: null,
      role: false,
      freeProvider: false,
      smtputf8: false,
      suggestion: 'ann@gmail.com',
    });
    expect(await engine.verify('ann@yaho.com')).toMatchObject({
      status: 'risky',
      reason: 'possible_typo',
      suggestion: 'ann@yahoo.com',
    });
    expect(await engine.verify('info@hotmial.com')).toMatchObject({
      reason: 'possible_typo',
      suggestion: 'info@hotmail.com',
    });
    expect(await engine.verify('ann@example.con')).toMatchObject({
      reason: 'possible_typo',
      suggestion: 'ann@example.com',
    });
    expect((await engine.verify('ann@gmail.com')).suggestion).toBeUndefined();
  });

  it('leaves real provider domains and real disposable services alone', async () => {
    for (const address of [
      'ann@hotmail.de',
      'ann@hotmail.fi',
      'ann@yahoo.ca',
      'ann@protonmail.ch',
      'ann@email.com',
      'ann@ge.com',
    ]) {
      const v = await engine.verify(address);
      expect(v, address).toMatchObject({ status: 'valid' });
      expect(v.suggestion, address).toBeUndefined();
    }
    for (const address of ['ann@yopmail.com', 'ann@fakemail.com', 'ann@33mail.com']) {
      expect(await engine.verify(address), address).toMatchObject({
        status: 'risky',
        reason: 'disposable',
        isDisposable: true,
      });
      expect((await engine.verify(address)).suggestion, address).toBeUndefined();
    }
  });

  it('flags SMTPUTF8 and converts IDNs', async () => {
    expect(await engine.verify('josé@bücher.de')).toMatchObject({ status: 'valid', smtputf8: true });
  });

  it('calls reserved TLDs invalid, since without DNS nothing else would', async () => {
    expect(await engine.verify('ann@example.test')).toMatchObject({
      status: 'invalid',
      reason: 'reserved_domain',
      isValidDomain: false,
    });
  });

  it('takes address literals only when allowed', async () => {
    expect(await engine.verify('ann@[192.0.2.1]')).toMatchObject({ status: 'invalid', detail: 'ip_literal' });
    const literal = new Engine({ dns: { enabled: false }, allowIpLiteral: true });
    expect(await literal.verify('ann@[192.0.2.1]')).toMatchObject({ status: 'valid' });
  });

  it('counts verdicts by status', async () => {
    const e = new Engine({ dns: { enabled: false } });
    await e.verify('a@example.org');
    await e.verify('bad');
    e.verifyLocal('info@example.org');
    expect(e.stats()).toMatchObject({
      verified: 3,
      byStatus: { valid: 1, invalid: 1, risky: 1, unknown: 0 },
      dns: { lookups: 0, queries: 0 },
    });
  });
});

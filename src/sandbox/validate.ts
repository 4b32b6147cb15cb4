import { HttpError } from './errors.js';

export interface StringRule {
  /** Trim surrounding whitespace before any other check (never for passwords). */
  trim?: boolean;
  /** Accept `""` for a required field; it is still a present value. */
  allowEmpty?: boolean;
  min?: number;
  max?: number;
  email?: boolean;
}

// Loose on purpose: the shape a form would check; src/verify is where addresses are really judged.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

/** Collects every problem of a body, so one 422 names all fields at once as `errors: {field: [messages]}`. */
export class BodyChecker {
  readonly errors: Record<string, string[]> = {};

  constructor(private readonly body: Record<string, unknown>) {}

  /** A field that must be present; returns `''` when it is not, which `check()` then reports. */
  required(field: string, rule: StringRule = {}): string {
    return this.read(field, rule, true) ?? '';
  }

  optional(field: string, rule: StringRule = {}): string | undefined {
    return this.read(field, rule, false);
  }

  private read(field: string, rule: StringRule, required: boolean): string | undefined {
    const raw = this.body[field];
    if (raw !== undefined && raw !== null && typeof raw !== 'string') {
      this.add(field, `The ${field} field must be a string.`);
      return undefined;
    }
    const value = raw === undefined || raw === null ? undefined : rule.trim || rule.email ? raw.trim() : raw;
    if (value === undefined || (value === '' && !rule.allowEmpty)) {
      if (required) this.add(field, `The ${field} field is required.`);
      return undefined;
    }
    if (rule.email && !(value.length <= 254 && EMAIL.test(value))) {
      this.add(field, `The ${field} field must be a valid email address.`);
    } else if (rule.min !== undefined && [...value].length < rule.min) {
      this.add(field, `The ${field} field must be at least ${rule.min} characters.`);
    } else if (rule.max !== undefined && [...value].length > rule.max) {
      this.add(field, `The ${field} field must not be greater than ${rule.max} characters.`);
    }
    return value;
  }

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  /** The 422 naming everything that was wrong, if anything was. */
  problem(): HttpError | undefined {
    const messages = Object.values(this.errors).flat();
    const first = messages[0];
    if (first === undefined) return undefined;
    const more = messages.length - 1;
    const message = more === 0 ? first : `${first} (and ${more} more error${more === 1 ? '' : 's'})`;
    return new HttpError(422, message, this.errors);
  }

  check(): void {
    const problem = this.problem();
    if (problem) throw problem;
  }
}

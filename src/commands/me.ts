import { ME_FIELDS, type MeView, meView } from '../account/views.js';
import type { PlatformClient, ProfileUpdate } from '../api/platform.js';
import { ApiError, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { renderPairs } from '../io/table.js';
import { checkedFlag, namingFlags, validateCountryCode, valueOrPrompt } from './common/inputs.js';
import { platformSession } from './common/sessions.js';
import type { MeFlags, MeUpdateFlags } from './flags/me.js';

export async function showMe(o: MeFlags, f: Factory): Promise<number> {
  (await f.profile()).requireKnown();
  const client = await platformSession(f);
  const view = meView(await client.me(o.brand).catch((error: unknown) => refusedBrand(error, client, o.brand)));
  if (o.brand !== undefined && view.brand?.id) (await f.profile()).saveCredentials({ brand: view.brand.id });
  print(f, view, o.json);
  return 0;
}

/** A 403 or 404 for `--brand` names the flag, and the user's brands when the platform still tells them. */
async function refusedBrand(error: unknown, client: PlatformClient, brand: string | undefined): Promise<never> {
  if (brand === undefined || !(error instanceof ApiError && (error.status === 403 || error.status === 404)))
    throw error;
  const brands = await client.me().then(
    (answer) => meView(answer).brands,
    () => undefined,
  );
  // One of the user's own brands refused is another problem: the service's own words say it.
  if (brands?.some((b) => b.id === brand)) throw error;
  const list = brands?.map((b) => (b.name ? `${b.name} (${b.id})` : b.id)).join(', ');
  throw new UsageError(`--brand: "${brand}" is not one of your brands`, list ? `your brands: ${list}` : undefined);
}

/** The fields of POST /api/me, each with its flag (and option) and its label when asked for. */
const UPDATE_FIELDS = [
  { key: 'first_name', flag: '--first-name', option: 'firstName', label: 'First name' },
  { key: 'last_name', flag: '--last-name', option: 'lastName', label: 'Last name' },
  { key: 'phone', flag: '--phone', option: 'phone', label: 'Phone' },
  { key: 'country_code', flag: '--country-code', option: 'countryCode', label: 'Country code' },
] as const;

/** Only the country code has a form to keep to. */
const validatorOf = (field: (typeof UPDATE_FIELDS)[number]) =>
  field.key === 'country_code' ? validateCountryCode : undefined;

/** --name, as `register` takes it: its first word is the first name, the rest (if any) the last name. */
function splitName(o: MeUpdateFlags): Partial<ProfileUpdate> {
  if (o.name === undefined) return {};
  if (o.firstName !== undefined || o.lastName !== undefined)
    throw new UsageError('--name is the first and last names in one: give it, or --first-name and --last-name');
  const [first = '', ...rest] = o.name.trim().split(/\s+/);
  if (!first) throw new UsageError('--name: must not be empty (the service needs all four fields)');
  return rest.length > 0 ? { first_name: first, last_name: rest.join(' ') } : { first_name: first };
}

/** Sends the four fields POST /api/me takes; those not given are taken from the current profile. */
export async function updateMe(flags: MeUpdateFlags, f: Factory): Promise<number> {
  const given = Object.fromEntries(UPDATE_FIELDS.map((field) => [field.key, flags[field.option]]));
  const o: Partial<ProfileUpdate> = { ...given, ...splitName(flags) };
  for (const field of UPDATE_FIELDS) {
    const given = o[field.key];
    if (typeof given !== 'string') continue;
    if (!given.trim()) throw new UsageError(`${field.flag}: must not be empty (the service needs all four fields)`);
    checkedFlag(given, field.flag, validatorOf(field));
  }
  (await f.profile()).requireKnown();
  const client = await platformSession(f);
  // The service needs all four fields, none empty (registration leaves last_name empty).
  const current = meView(await client.me());
  const givenAny = UPDATE_FIELDS.some((field) => typeof o[field.key] === 'string');
  const body = {} as ProfileUpdate;
  for (const field of UPDATE_FIELDS) {
    const given = o[field.key];
    const existing = current[field.key];
    if (typeof given === 'string') {
      body[field.key] = field.key === 'country_code' ? given.trim().toUpperCase() : given;
    } else if (!givenAny && f.io.canPrompt) {
      const answer = await valueOrPrompt(f, undefined, field.flag, `${field.label}:`, {
        default: existing?.trim() || undefined,
        validate: validatorOf(field),
      });
      body[field.key] = field.key === 'country_code' ? answer.toUpperCase() : answer;
    } else if (existing?.trim()) {
      body[field.key] = existing;
    } else {
      throw new UsageError(
        `${field.flag} is required: the service needs all four fields and your profile has no ${field.label.toLowerCase()}`,
      );
    }
  }
  const flagNames = Object.fromEntries(UPDATE_FIELDS.map((field) => [field.key, field.flag]));
  const view = meView(await client.updateMe(body).catch(namingFlags(flagNames)));
  f.io.note(`${f.io.style.green('✓')} Profile updated`);
  print(f, view, flags.json);
  return 0;
}

function print(f: Factory, view: MeView, json: JsonFlag): void {
  if (json !== undefined) {
    f.io.json(view, json, ME_FIELDS);
    return;
  }
  const dash = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? '-' : v);
  const name = [view.first_name, view.last_name].filter(Boolean).join(' ');
  const pairs: Array<[string, string]> = [
    ['Name', dash(name)],
    ['Email', `${dash(view.email)}${view.email_verified === false ? ' (address not confirmed)' : ''}`],
    ['User ID', dash(view.id)],
    ['Phone', dash(view.phone)],
    ['Country', dash(view.country_code)],
  ];
  if (view.brand) pairs.push(['Brand', `${dash(view.brand.name)} (${dash(view.brand.id)})`]);
  if (view.brands.length > 1)
    pairs.push([
      'Other brands',
      view.brands
        .filter((b) => b.id !== view.brand?.id)
        .map((b) => `${b.name} (${b.id})`)
        .join(', '),
    ]);
  if (view.role) pairs.push(['Role', dash(view.role.display_name ?? view.role.name)]);
  if (view.subscription) pairs.push(['Plan', dash(view.subscription.plan)]);
  for (const block of view.subscription?.usage ?? []) {
    const used = block.max !== null ? `${block.value ?? 0} of ${block.max}` : String(block.value ?? '-');
    pairs.push([`  ${block.name}`, `${used}${block.high ? ' (high)' : ''}`]);
  }
  f.io.out(renderPairs(pairs));
}

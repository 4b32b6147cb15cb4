import { ApiError } from '../errors.js';
import type { HttpClient, RequestSpec } from './http.js';
import { findToken, isObject, type Json, str, unwrapObject } from './shape.js';

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  country_code?: string;
  source?: string;
  source_path?: string;
}

export interface ProfileUpdate {
  first_name: string;
  last_name: string;
  phone: string;
  country_code: string;
}

export interface SignedIn {
  token: string;
  cdpToken?: string;
  user: Json;
  brandId?: string;
}

/** The platform account interface (spec 4.1-4.6). Returns each route's `response` payload. */
export class PlatformClient {
  constructor(readonly http: HttpClient) {}

  async register(input: RegisterInput): Promise<SignedIn> {
    const response = await this.call({ method: 'POST', path: '/api/register', body: input, auth: false });
    return this.signedIn(response, 'registration');
  }

  async oemRegister(input: { name: string; email: string; password: string; internalToken: string }): Promise<Json> {
    const { internalToken, ...account } = input;
    const body = { ...account, internal_access_32543hbhjb3243h4: internalToken };
    return this.call({ method: 'POST', path: '/api/oem/register', body, auth: false });
  }

  async login(email: string, password: string): Promise<SignedIn> {
    const response = await this.call({ method: 'POST', path: '/api/login', body: { email, password }, auth: false });
    return this.signedIn(response, 'login');
  }

  async me(brandId?: string): Promise<Json> {
    return this.call({ method: 'GET', path: '/api/me', query: { current_buuid: brandId } });
  }

  async updateMe(update: ProfileUpdate): Promise<Json> {
    // Setting the same four fields twice has the same effect, so a retry is safe.
    return this.call({ method: 'POST', path: '/api/me', body: update, idempotent: true });
  }

  async roles(userId: string): Promise<Json> {
    return this.call({ method: 'GET', path: `/api/user/${encodeURIComponent(userId)}/roles` });
  }

  private async call(spec: RequestSpec): Promise<Json> {
    return payload((await this.http.request(spec)).json, this.http.host);
  }

  private signedIn(response: Json, what: string): SignedIn {
    const token = findToken(response);
    if (!token) throw new ApiError(`the platform's ${what} answer from ${this.http.host} carries no token`, 200);
    const user = unwrapObject(response.user) ?? unwrapObject(response.me);
    if (!user || !str(user.id))
      throw new ApiError(`the platform's ${what} answer from ${this.http.host} carries no user id`, 200);
    const brand =
      unwrapObject(response.brand) ?? unwrapObject(user.currentBrand) ?? unwrapObject(response.currentBrand);
    return { token, cdpToken: str(response['cdp-token']), user, brandId: brand ? str(brand.id) : undefined };
  }
}

/** The `response` object of the platform envelope (2.1); a body without one is reported, not crashed on. */
function payload(body: unknown, host: string): Json {
  if (isObject(body) && isObject(body.response)) return body.response;
  // Tolerate a service that answers with the payload itself.
  if (isObject(body) && !('response' in body)) return body;
  throw new ApiError(`the platform at ${host} answered without a response payload`, 200);
}

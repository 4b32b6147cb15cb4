import { assetUrl, siteUrl } from './plans.js';
import type { BrandRecord, HomepageRecord } from './state.js';
import { isoMicros } from './time.js';

const HOMEPAGE_CONTENT = JSON.stringify({
  html:
    '<section class="hero"><h1>Welcome</h1><p>Subscribe to hear from us.</p>' +
    '<div data-form="homepage"></div></section>',
  css: '.hero{max-width:40rem;margin:4rem auto;font-family:Inter,sans-serif}',
  assets: [],
  custom_head: '',
  custom_footer: '',
  custom_body: '',
});

function param(
  id: string,
  name: string,
  type: 'text' | 'email',
  label: string,
  placeholder: string,
  required: boolean,
): Record<string, unknown> {
  const req = required ? ' required' : '';
  return {
    id,
    name,
    type,
    content: `<label for="${name}">${label}</label><input type="${type}" name="${name}" id="${name}" placeholder="${placeholder}"${req}>`,
    parent: null,
    display_name: label,
    label,
    placeholder,
    required: required ? 1 : 0,
    options: null,
    attributes: JSON.stringify(required ? ['required'] : []),
  };
}

/** The homepage's form; `site` and `at` are the homepage's, as the form was created with it. */
function formResource(hp: HomepageRecord, site: string, at: string): Record<string, unknown> {
  return {
    id: hp.form_id,
    status: 'active',
    delete_allowed: false,
    type: { data: { name: 'form' } },
    tags: { data: [] },
    media: { data: [] },
    service: {
      data: {
        name: 'Homepage form',
        description: null,
        content: null,
        action: `${site}/forms/${hp.form_slug}/submit`,
        method: 'POST',
        slug: hp.form_slug,
        brand_url: site,
        status: 'active',
        notifications: false,
        preview_link: `${site}/forms/${hp.form_slug}?preview=${hp.preview_key}`,
        live_link: `${site}/forms/${hp.form_slug}`,
        preview_image: assetUrl('previews/form.png'),
        responses: 0,
        ftype: 'embedded',
        category: 'subscribe',
        success_message: 'Thanks for subscribing!',
        error_message: null,
        redirect_url: null,
        submit_type: 'message',
        settings: [],
        branding: true,
        created_at: at,
        updated_at: at,
        params: {
          data: [
            param(hp.name_param_id, 'name', 'text', 'Name', 'Your name', false),
            param(hp.email_param_id, 'email', 'email', 'Email', 'you@example.com', true),
          ],
        },
      },
    },
  };
}

/** The default homepage every registration creates (spec 2.9), with its connected form. */
export function homepageView(brand: BrandRecord): Record<string, unknown> {
  const hp = brand.homepage;
  const at = isoMicros(hp.created_at);
  return {
    id: hp.id,
    status: 'active',
    template: false,
    delete_allowed: false,
    activated_at: at,
    type: { data: { name: 'webpage' } },
    service: { data: homepageService(brand, at) },
    tags: { data: [] },
    media: { data: [] },
  };
}

function homepageService(brand: BrandRecord, at: string): Record<string, unknown> {
  const hp = brand.homepage;
  const site = siteUrl(brand.slug);
  return {
    name: 'Homepage',
    description: null,
    excerpt: null,
    brand_url: site,
    slug: 'home',
    form_present: true,
    status: 'active',
    preview_link: `${site}/home?preview=${hp.preview_key}`,
    live_link: `${site}/home`,
    preview_image: assetUrl('previews/homepage.png'),
    custom_head: null,
    custom_body: null,
    custom_footer: null,
    visits: 0,
    created_at: at,
    updated_at: at,
    settings: pageSettings(),
    connected_form: { data: [formResource(hp, site, at)] },
    content: HOMEPAGE_CONTENT,
    meta_title: brand.name,
    meta_description: `The home page of ${brand.name}.`,
    indexable: true,
    canonical: `${site}/home`,
    favicon: assetUrl('favicon.ico'),
    configuration: { plugin: [{ name: 'page-builder', blocks: [], blockCategories: [] }] },
  };
}

/** A fresh object per answer, so no caller can change what the next one sends. */
function pageSettings(): Record<string, unknown> {
  return {
    appearance: {
      font: { 'font-family': 'Inter', 'font-weight': { bold: 700, thin: 100, regular: 400, semibold: 600 } },
      colors: {
        light: '#f8fafc',
        primary: '#2563eb',
        text_primary: '#0f172a',
        text_tertiary: '#94a3b8',
        text_secondary: '#475569',
      },
    },
    properties: [],
    configuration: 0,
    access_configuration: [],
  };
}

/** The create-page request, used by POST /api/agent/pages and its validate twin. */
import * as v from 'valibot';
import { AgentBlocks } from './blocks.js';
import {
  Accent,
  ColorScheme,
  Email,
  Focus,
  HeaderAlign,
  HttpUrl,
  isRealHttpUrl,
  Layout,
  Locale,
  Overlay,
  Password,
  TemplateIdSchema,
  text,
  Username,
} from './fields.js';

export const CreatePageRequest = v.strictObject({
  username: Username,
  email: v.optional(Email),
  password: v.optional(Password),
  locale: v.optional(Locale),
  page: v.optional(
    v.strictObject({
      displayName: v.optional(text(0, 60)),
      bio: v.optional(text(0, 300)),
      avatarFocus: v.optional(v.nullable(Focus)),
      templateId: v.optional(TemplateIdSchema),
      layout: v.optional(Layout),
      headerAlign: v.optional(v.nullable(HeaderAlign)),
      pageLocale: v.optional(Locale),
      utm: v.optional(v.boolean()),
      adult: v.optional(v.boolean()),
      branding: v.optional(v.boolean()),
      theme: v.optional(
        v.strictObject({ accent: v.optional(Accent), scheme: v.optional(ColorScheme), overlay: v.optional(Overlay) }),
      ),
      blocks: v.optional(AgentBlocks),
    }),
  ),
  avatarUrl: v.optional(HttpUrl),
  importFromUrl: v.optional(v.pipe(text(1, 500), v.check(isRealHttpUrl, 'bad_url'))),
  publish: v.optional(v.boolean()),
});

export type CreatePageInput = v.InferOutput<typeof CreatePageRequest>;

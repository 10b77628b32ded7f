/**
 * The named schemas of openapi.json: each resource and each block type under the name a typed
 * client sees (`components.schemas.Page`, `…Block`, `…LinkBlock`). The names are given to the
 * valibot schemas themselves (the converter's definitions), so wherever one of them is used, in
 * a route or inside another schema, the document says `$ref` instead of a copy.
 */
import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { CreatePageRequest } from '../../core/schemas/agent.js';
import { AgentBlock, BlockOut, LinkStatusOut, StoredBlock } from '../../core/schemas/blocks.js';
import { DomainAttach, DomainOut } from '../../core/schemas/domains.js';
import { EVENT_SCHEMAS } from '../../core/schemas/events.js';
import { ExportOut } from '../../core/schemas/export.js';
import { ImportPageRequest, ImportProfileRequest } from '../../core/schemas/imports.js';
import { ApiKeyCreatedOut, ApiKeyListOut, ApiKeyOut, KeyCreate } from '../../core/schemas/keys.js';
import { ProfileCreate, ProfilePatch, ProfileReplace } from '../../core/schemas/page.js';
import * as out from '../../core/schemas/responses.js';
import { UploadByUrl } from '../../core/schemas/upload.js';
import { WebhookCreate, WebhookPatch } from '../../core/schemas/webhooks.js';
import { AccountDelete, AccountPatch } from '../account/routes.js';

type Json = Record<string, unknown>;
type Schema = v.GenericSchema;

/** The six block types by name, in the order of the variant: `Link`, `Social`, `SocialRow`… */
const BLOCK_NAMES = ['Link', 'Social', 'SocialRow', 'Embed', 'Messenger', 'Text'] as const;

function blockTypes(variant: { options: readonly Schema[] }, name: (type: string) => string): Record<string, Schema> {
  return Object.fromEntries(variant.options.map((option, i) => [name(BLOCK_NAMES[i]), option]));
}

/** Every named schema; a schema's first name is the one used. */
export const NAMED_SCHEMAS: Record<string, Schema> = {
  Error: out.ErrorObject,
  Page: out.PageOut,
  PageList: out.PagesOut,
  PageSummary: out.PageSummaryOut,
  Theme: out.ThemeOut,
  Focus: out.FocusOut,
  Block: BlockOut,
  ...blockTypes(BlockOut, (t) => `${t}Block`),
  LinkStatus: LinkStatusOut,
  BlockInput: StoredBlock,
  ...blockTypes(StoredBlock, (t) => `${t}BlockInput`),
  NewBlock: AgentBlock,
  ...blockTypes(AgentBlock, (t) => `New${t}Block`),
  PagePatch: ProfilePatch,
  PageReplace: ProfileReplace,
  PageCreate: ProfileCreate,
  CreatePageRequest,
  CreatedPage: out.CreatePageOut,
  Validation: out.ValidateOut,
  UsernameCheck: out.UsernameCheckOut,
  Me: out.MeOut,
  Account: out.AccountOut,
  AccountPatch,
  AccountDelete,
  AccountExport: ExportOut,
  ClaimLink: out.ClaimLinkOut,
  ClaimStatus: out.ClaimStatusOut,
  Stats: out.StatsOut,
  VersionList: out.VersionsOut,
  VersionEntry: out.VersionEntryOut,
  Version: out.VersionOut,
  UploadByUrl,
  Upload: out.UploadOut,
  ImportPageRequest,
  ImportedLinks: out.ImportPageOut,
  ImportProfileRequest,
  ImportedProfile: out.ImportProfileOut,
  ApiKey: ApiKeyOut,
  ApiKeyList: ApiKeyListOut,
  ApiKeyCreate: KeyCreate,
  ApiKeyCreated: ApiKeyCreatedOut,
  Webhook: out.WebhookOut,
  WebhookList: out.WebhookListOut,
  WebhookWithSecret: out.WebhookSecretOut,
  WebhookCreate,
  WebhookPatch,
  Delivery: out.DeliveryOut,
  Domain: DomainOut,
  DomainAttach,
  DeliveryList: out.DeliveryListOut,
  ...EVENT_SCHEMAS,
};

const REF_PREFIX = '#/components/schemas/';

function convert(schema: Schema, typeMode: 'ignore' | 'output', definitions?: Record<string, Schema>): Json {
  return toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    typeMode,
    definitions,
    overrideRef: ({ referenceId }) => REF_PREFIX + referenceId,
  }) as Json;
}

/** A schema as openapi.json gives it: named schemas inside it (or itself) as `$ref`s. */
export function schemaOf(schema: Schema): Json {
  const { $schema: _, $defs: __, ...rest } = convert(schema, 'ignore', NAMED_SCHEMAS);
  return rest;
}

/**
 * A query parameter's schema as its value means it: `?days=7` arrives as a string that the
 * schema parses to a number, so the document gives the parsed type (integer, 1-365).
 */
export function queryProperties(schema: Schema): { properties: Record<string, Json>; required: string[] } {
  const json = convert(schema, 'output') as { properties?: Record<string, Json>; required?: string[] };
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}

/** components.schemas: every named schema, referring to the others by `$ref`. */
export function componentSchemas(): Record<string, Json> {
  return toJsonSchemaDefs(NAMED_SCHEMAS, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    overrideRef: ({ referenceId }) => REF_PREFIX + referenceId,
  }) as Record<string, Json>;
}

/** The little of oidc-provider's API this service uses (the package ships no types). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type Koa from 'koa';

  interface Model {
    jti: string;
    isExpired: boolean;
  }
  interface AccessTokenModel extends Model {
    accountId: string;
    clientId: string;
    grantId: string;
    scope?: string;
    aud?: string | string[];
  }
  interface GrantModel extends Model {
    accountId: string;
    clientId: string;
    addResourceScope(resource: string, scope: string): void;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface ClientModel {
    clientId: string;
    clientName?: string;
    clientUri?: string;
    redirectUris: string[];
  }
  interface Interaction {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, string | undefined>;
    session?: { accountId?: string };
  }

  type CheckContext = Koa.Context & { oidc: { result?: { login?: unknown; consent?: unknown } } };
  export class Check {
    constructor(reason: string, description: string, check: (ctx: CheckContext) => boolean);
    check: (ctx: CheckContext) => boolean;
    static REQUEST_PROMPT: true;
    static NO_NEED_TO_PROMPT: false;
  }
  export const interactionPolicy: {
    Check: typeof Check;
    base(): { get(name: string): { checks: Check[] & { add(check: Check, index?: number): void } } } & unknown[];
  };
  export const errors: { InvalidTarget: new (detail?: string) => Error };

  export default class Provider extends Koa {
    constructor(issuer: string, configuration: Record<string, unknown>);
    AccessToken: { find(token: string): Promise<AccessTokenModel | undefined> };
    Grant: {
      new (init: { accountId: string; clientId: string }): GrantModel;
      find(id: string): Promise<GrantModel | undefined>;
    };
    Client: { find(id: string): Promise<ClientModel | undefined> };
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
  }
}

/**
 * The account's webhook endpoints: listed with their latest deliveries, added (the secret shown
 * once), turned off and on, their secret rolled (the new one shown once), deleted.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import {
  createWebhook,
  deleteWebhook,
  redeliver,
  rollWebhookSecret,
  updateWebhook,
  webhooksWithDeliveries,
} from '../core/commands/webhooks.js';
import { AppError } from '../core/errors.js';
import { EVENT_TYPES } from '../core/events.js';
import { presentDelivery, presentWebhook } from '../core/presenters/webhook.js';
import { callerFrom } from '../platform/edge/caller.js';
import type { DashboardContext } from './context.js';
import type { Form } from './forms.js';
import type { WithFreshProof } from './freshProof.js';

/** What each event means, in the words the form shows. */
const EVENTS: Record<(typeof EVENT_TYPES)[number], string> = {
  'account.claimed': 'a person claims an account a program made',
  'page.published': 'a change to a page goes live',
  'page.unpublished': 'a page goes offline',
  'page.deleted': 'a page is deleted',
  'page.banned': 'moderation takes a page down',
  'links.broken': 'the nightly check finds links that stopped working',
  'webhook.disabled': 'another of your webhooks is turned off (it answered 410, or failed for 3 days)',
  'proposal.created': 'a contributor proposes a change to a page',
  'proposal.decided': 'a proposed change is approved or declined',
};

/** Deliveries shown under each endpoint. */
const SHOWN_DELIVERIES = 10;

/** A checkbox's name: the form parser would read the dot in an event's name as a nested field. */
const fieldOf = (event: string) => `event-${event.replace('.', '-')}`;

function eventsFrom(input: Form): (typeof EVENT_TYPES)[number][] {
  const events = EVENT_TYPES.filter((e) => input[fieldOf(e)] === 'on');
  if (events.length === 0) {
    throw new AppError('invalid_fields', { field: 'events', detail: 'events', hint: 'Choose at least one event.' });
  }
  return events;
}

export function webhooksRoutes(router: Router, d: DashboardContext, withFreshProof: WithFreshProof): void {
  const { s, form, show, accountRoute, attempt, back } = d;

  async function showWebhooks(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const now = s.now();
    const webhooks = (await webhooksWithDeliveries(s, accountId, SHOWN_DELIVERIES)).map(({ row, deliveries }) => ({
      ...presentWebhook(row, now),
      deliveries: deliveries.map(presentDelivery),
    }));
    await show(ctx, 'webhooks', { title: 'Webhooks', webhooks, events: EVENTS, fieldOf, input: {}, ...extra }, status);
  }

  router.get(
    '/dashboard/webhooks',
    accountRoute((ctx, accountId) => showWebhooks(ctx, accountId), 'owner'),
  );

  router.post(
    '/dashboard/webhooks',
    form,
    accountRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error, input) => showWebhooks(ctx, accountId, { error, input }, error.status),
        async (input) => {
          const description = (input.description ?? '').trim();
          if (description.length > 200) {
            throw new AppError('invalid_fields', {
              field: 'description',
              detail: 'description',
              hint: 'At most 200 characters.',
            });
          }
          const events = eventsFrom(input);
          await withFreshProof(ctx, input, async () => {
            const { row, secret } = await createWebhook(
              s,
              { ...callerFrom(ctx), accountId },
              { url: (input.url ?? '').trim(), events, description, payload: 'standard' },
            );
            // Shown once, on this answer only.
            await showWebhooks(ctx, accountId, { secret: { id: row.id, url: row.url, value: secret } }, 201);
          });
        },
      );
    }, 'owner'),
  );

  /** An action on one endpoint; errors show the list again with the message. */
  function onEndpoint(
    path: string,
    act: (ctx: Koa.Context, accountId: string, id: string, input: Form) => Promise<void>,
  ) {
    router.post(
      `/dashboard/webhooks/:id/${path}`,
      form,
      accountRoute(async (ctx, accountId) => {
        await attempt(
          ctx,
          (error) => showWebhooks(ctx, accountId, { error }, error.status),
          (input) => act(ctx, accountId, ctx.params.id, input),
        );
      }, 'owner'),
    );
  }

  onEndpoint('enabled', async (ctx, accountId, id, input) => {
    await updateWebhook(s, accountId, id, { enabled: input.enabled === '1' });
    back(ctx, '/dashboard/webhooks', 'Done.');
  });
  onEndpoint('secret', async (ctx, accountId, id) => {
    const { row, secret } = await rollWebhookSecret(s, accountId, id);
    await showWebhooks(ctx, accountId, { secret: { id: row.id, url: row.url, value: secret, rolled: true } });
  });
  onEndpoint('redeliver', async (ctx, accountId, id, input) => {
    await redeliver(s, accountId, id, input.delivery ?? '');
    back(ctx, '/dashboard/webhooks', 'The event is on its way again, with the same webhook-id.');
  });
  onEndpoint('payload', async (ctx, accountId, id) => {
    await updateWebhook(s, accountId, id, { payload: 'standard' });
    back(ctx, '/dashboard/webhooks', "The webhook now gets Standard Webhooks' body: {type, timestamp, data}.");
  });
  onEndpoint('delete', async (ctx, accountId, id) => {
    await deleteWebhook(s, accountId, id);
    back(ctx, '/dashboard/webhooks', 'The webhook is deleted.');
  });
}

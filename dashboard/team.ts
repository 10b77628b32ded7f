/** What the top of every dashboard screen shows of the accounts a person works in (dashboard/members.ts). */
import { membershipsOf } from '../core/commands/members.js';
import type { Role } from '../core/rules/roles.js';
import type { Services } from '../core/services.js';
import type { Session } from '../platform/edge/sessions.js';

export interface Team {
  /** The person's role in the account the session works in (owner in their own). */
  role: Role;
  /** The account worked in, when it is not the person's own: its name. */
  elsewhere: string | null;
  /** Where the person may switch to: their own account first, then those they are a member of. */
  accounts: { id: string; name: string; role: Role; current: boolean }[];
}

export async function teamOf(s: Services, session: Session): Promise<Team> {
  const memberships = await membershipsOf(s, session.personId);
  const accounts = [
    {
      id: session.personId,
      name: 'Your own account',
      role: 'owner' as Role,
      current: session.accountId === session.personId,
    },
    ...memberships.map((m) => ({
      id: m.accountId,
      name: m.name,
      role: m.role,
      current: m.accountId === session.accountId,
    })),
  ];
  const here = accounts.find((a) => a.current);
  return {
    role: session.grant.role,
    elsewhere: session.accountId === session.personId ? null : (here?.name ?? null),
    accounts,
  };
}

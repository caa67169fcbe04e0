import type { AppContext } from '../../app.ts';
import type { Auth } from '../../lib/auth.ts';
import { accountsRepository } from '../tenant/accounts.repository.ts';
import { type ProjectKind, projectRepository } from './project.repository.ts';

/**
 * What a project's members see narrows when the project changes, and also when something it holds
 * does: a group loses a device or is deleted, a vehicle loses a channel's device or is deleted. Every
 * such change ends the members' sessions at once, so no open socket keeps streaming a device they no
 * longer see (decision 0165), whichever module made it.
 */
export interface ProjectNarrowing {
  /** Ends the sessions of these users (their sockets close with access withdrawn). */
  endSessionsOf(userIds: string[]): Promise<void>;
  /**
   * Before a change that may take devices from what projects hold through these groups or vehicles:
   * reads their members, and returns what to call once the change is done (ends their sessions).
   */
  narrowing(auth: Pick<Auth, 'tenantId'>, kind: ProjectKind, ids: string[]): Promise<() => Promise<void>>;
}

export function projectNarrowing(ctx: Pick<AppContext, 'database' | 'control'>): ProjectNarrowing {
  const accounts = accountsRepository(ctx.database.raw);
  const projects = projectRepository(ctx.database.raw);
  const endSessionsOf = async (userIds: string[]) => {
    for (const userId of new Set(userIds)) {
      await accounts.revokeSessions(userId);
      ctx.control.endSessions({ userId }, 'withdrawn');
    }
  };
  return {
    endSessionsOf,
    async narrowing(auth, kind, ids) {
      // Read first: a deleted group or vehicle takes its project rows with it.
      const members = await projects.membersHolding(auth.tenantId, kind, ids);
      return () => endSessionsOf(members);
    },
  };
}

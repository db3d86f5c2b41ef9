// DISCONNECT (events.md §2): the connection is closed; there is no will message to drop.

import type { Session } from '../session';

export function disconnect(session: Session): void {
  session.closeNormally('DISCONNECT');
}

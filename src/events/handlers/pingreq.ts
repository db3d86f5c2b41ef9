// PINGREQ → PINGRESP (events.md §2). Any packet keeps the connection alive (session.ts).

import type { Session } from '../session';

export function pingreq(session: Session): void {
  session.send({ cmd: 'pingresp' });
}

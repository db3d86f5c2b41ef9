// UNSUBSCRIBE (events.md §2): drop the filters (unknown ones are no error) and UNSUBACK.

import type { IUnsubscribePacket } from 'mqtt-packet';
import type { Session } from '../session';

export function unsubscribe(session: Session, packet: IUnsubscribePacket): void {
  const removed = packet.unsubscriptions.filter((f) => session.filters.has(f));
  if (removed.length > 0) {
    session.context.fanout.beforeChange();
    for (const f of removed) session.filters.delete(f);
    session.context.fanout.setFilters(session, session.filters);
  }
  session.send({ cmd: 'unsuback', messageId: packet.messageId, granted: [] });
}

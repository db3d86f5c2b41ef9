// SUBSCRIBE (events.md §2, §4): a short pipeline — validate each filter, check the
// client's limit, store the new filters, acknowledge, then send the current state of the
// topics named exactly (to this subscriber only, D34).

import type { ISubscribePacket } from 'mqtt-packet';
import { currentState } from '../current-state';
import type { Session } from '../session';
import { isValidFilter } from '../topics';

/** SUBACK return code of a refused filter. */
const FAILURE = 0x80;

export function subscribe(session: Session, packet: ISubscribePacket): void {
  const { fanout, store, maxSubscriptionsPerClient } = session.context;
  // 1. validate: a bad filter is refused alone; the QoS asked for is granted (§2).
  const granted = packet.subscriptions.map((s) => (isValidFilter(s.topic) ? s.qos : FAILURE));
  const accepted = packet.subscriptions.filter((_, i) => granted[i] !== FAILURE).map((s) => s.topic);
  // 2. limit: a SUBSCRIBE that would exceed it closes the connection.
  const added = new Set(accepted.filter((f) => !session.filters.has(f)));
  if (session.filters.size + added.size > maxSubscriptionsPerClient) {
    return session.close(`more than ${maxSubscriptionsPerClient} subscriptions`);
  }
  // 3. store: messages published so far go out under the old filters first.
  if (added.size > 0) {
    fanout.beforeChange();
    for (const f of added) session.filters.add(f);
    fanout.setFilters(session, session.filters);
  }
  // 4. acknowledge, 5. current state.
  session.send({ cmd: 'suback', messageId: packet.messageId, granted });
  for (const filter of new Set(accepted)) {
    const message = currentState(filter, store);
    if (message !== undefined)
      session.send({
        cmd: 'publish',
        topic: message.topic,
        payload: message.payload,
        qos: 0,
        dup: false,
        retain: false,
      });
  }
}

// A client's PUBLISH (events.md §2, D38): never delivered to anyone — only the node
// publishes events — but acknowledged as its QoS asks (PUBACK; PUBREC, then PUBCOMP after
// PUBREL), so that clients do not send it again. A topic name with a wildcard is a
// protocol violation (MQTT 3.1.1 §3.3.2.1) and closes the connection.

import type { IPublishPacket, IPubrelPacket } from 'mqtt-packet';
import type { Session } from '../session';

export function publish(session: Session, packet: IPublishPacket): void {
  if (packet.topic.includes('+') || packet.topic.includes('#'))
    return session.close('PUBLISH to a topic name with a wildcard');
  if (packet.qos === 1) session.send({ cmd: 'puback', messageId: packet.messageId });
  else if (packet.qos === 2) session.send({ cmd: 'pubrec', messageId: packet.messageId });
}

export function pubrel(session: Session, packet: IPubrelPacket): void {
  session.send({ cmd: 'pubcomp', messageId: packet.messageId });
}

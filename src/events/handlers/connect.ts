// CONNECT (events.md §2, D34): MQTT 3.1.1 (`MQTT`, level 4) or 3.1 (`MQIsdp`, level 3);
// anything else, MQTT 5 included, gets CONNACK 1 and is closed. Any client ID (an empty one
// gets a random ID); a connected ID is taken over. Clean session is always on, and will
// messages and credentials are ignored. Keep-alive k > 0 closes after 1.5·k s of silence.

import { randomBytes } from 'node:crypto';
import type { IConnectPacket } from 'mqtt-packet';
import type { Session } from '../session';

export function connect(session: Session, packet: IConnectPacket): void {
  const supported =
    (packet.protocolId === 'MQTT' && packet.protocolVersion === 4) ||
    (packet.protocolId === 'MQIsdp' && packet.protocolVersion === 3);
  if (!supported) {
    session.send({ cmd: 'connack', returnCode: 1, sessionPresent: false });
    return session.close(`unsupported protocol ${packet.protocolId} level ${packet.protocolVersion}`);
  }
  const clientId = packet.clientId === '' ? `ledger-node-${randomBytes(8).toString('hex')}` : packet.clientId;
  const { clients } = session.context;
  const older = clients.get(clientId);
  if (older !== undefined && older !== session)
    older.closeNormally(`client ID ${clientId} taken over by a new connection`);
  clients.set(clientId, session);
  session.clientId = clientId;
  session.connected = true;
  session.keepaliveMs = (packet.keepalive ?? 0) * 1500;
  session.send({ cmd: 'connack', returnCode: 0, sessionPresent: false });
}

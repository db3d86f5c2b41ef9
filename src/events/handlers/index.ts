// The dispatcher (events.md §2): the protocol rules every packet meets before its handler —
// CONNECT first and only once — then one handler per packet kind. Packets only a server
// sends (CONNACK, SUBACK, …) and MQTT 5's AUTH close the connection.

import type { Packet } from 'mqtt-packet';
import type { Session } from '../session';
import { connect } from './connect';
import { disconnect } from './disconnect';
import { pingreq } from './pingreq';
import { publish, pubrel } from './publish';
import { subscribe } from './subscribe';
import { unsubscribe } from './unsubscribe';

export function dispatch(session: Session, packet: Packet): void {
  if (!session.connected) {
    if (packet.cmd !== 'connect') return session.close(`first packet ${packet.cmd}, not CONNECT`);
    return connect(session, packet);
  }
  switch (packet.cmd) {
    case 'connect':
      return session.close('second CONNECT');
    case 'subscribe':
      return subscribe(session, packet);
    case 'unsubscribe':
      return unsubscribe(session, packet);
    case 'pingreq':
      return pingreq(session);
    case 'publish':
      return publish(session, packet);
    case 'pubrel':
      return pubrel(session, packet);
    case 'disconnect':
      return disconnect(session);
    // Acknowledgements of QoS 1/2 messages the node never sends (all its messages are QoS 0).
    case 'puback':
    case 'pubrec':
    case 'pubcomp':
      return;
    default:
      return session.close(`unexpected ${packet.cmd} from a client`);
  }
}
